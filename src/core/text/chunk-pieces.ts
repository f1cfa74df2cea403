import type { Segment } from './highlight.ts';

export type CutKind = 'chunk' | 'excerpt';

export interface Piece {
  /** Set on the piece a marker starts: a chunk's label, or the end of the judge excerpt. */
  chunk?: string;
  kind?: CutKind;
  segments: Segment[];
}

/** Cuts highlighted segments at chunk starts (and other marks), so a marker can be drawn where each begins. */
export function cutAt(
  segments: readonly Segment[],
  cuts: ReadonlyArray<{ at: number; label: string; kind?: CutKind }>,
): Piece[] {
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
