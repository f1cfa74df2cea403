import type { Segment } from './highlight.ts';

export interface Piece {
  /** Set on the piece a chunk starts with (or, with kind 'excerpt', where the judges' excerpt ends). */
  chunk?: string;
  kind?: 'chunk' | 'excerpt';
  segments: Segment[];
}

export interface Cut {
  at: number;
  label: string;
  kind?: 'chunk' | 'excerpt';
}

/** Cuts highlighted segments at chunk starts, so a marker can be drawn where each chunk begins. */
export function cutAt(segments: readonly Segment[], cuts: readonly Cut[]): Piece[] {
  const sorted = [...cuts].sort((a, b) => a.at - b.at);
  const pieces: Piece[] = [{ segments: [] }];
  let pos = 0;
  let next = 0;
  for (const seg of segments) {
    let text = seg.text;
    while (text.length > 0) {
      const cut = sorted[next];
      if (cut && cut.at <= pos) {
        pieces.push({ chunk: cut.label, kind: cut.kind ?? 'chunk', segments: [] });
        next++;
        continue;
      }
      const take = cut && cut.at < pos + text.length ? cut.at - pos : text.length;
      pieces[pieces.length - 1]!.segments.push({ text: text.slice(0, take), mark: seg.mark });
      text = text.slice(take);
      pos += take;
    }
  }
  while (next < sorted.length) {
    const cut = sorted[next++]!;
    pieces.push({ chunk: cut.label, kind: cut.kind ?? 'chunk', segments: [] });
  }
  return pieces.filter((p) => p.chunk !== undefined || p.segments.length > 0);
}
