/** docs/benchmark-spec.md 1.7: whitespace tokens, 512-token windows, step 462. */
export const CHUNK_TOKENS = 512;
export const CHUNK_STEP = 462;

/** The benchmark's tokens for chunking: runs of non-whitespace (Python's str.split()). */
export function whitespaceTokens(text: string): string[] {
  return text.match(/\S+/g) ?? [];
}

export interface ChunkSpan {
  chunk_id: string;
  /** Character range of the window in the original text (windows overlap by 50 tokens). */
  start: number;
  end: number;
  tokens: number;
  /** The chunk text as the benchmark writes it (tokens re-joined with single spaces). */
  text: string;
}

/** The benchmark's chunks of one document, located in the original text. */
export function chunkSpans(docId: string, text: string): ChunkSpan[] {
  const tokens = [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length, text: m[0] }));
  if (tokens.length <= CHUNK_TOKENS) {
    return [{ chunk_id: `${docId}#0`, start: 0, end: text.length, tokens: tokens.length, text }];
  }
  const out: ChunkSpan[] = [];
  for (let from = 0, i = 0; from < tokens.length; from += CHUNK_STEP, i++) {
    const window = tokens.slice(from, from + CHUNK_TOKENS);
    out.push({
      chunk_id: `${docId}#${i}`,
      start: window[0]!.start,
      end: window[window.length - 1]!.end,
      tokens: window.length,
      text: window.map((t) => t.text).join(' '),
    });
  }
  return out;
}
