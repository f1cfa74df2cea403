/** Document ids as the benchmark writes them: a short upper-case prefix and a zero-padded number (EFTA00138265). */
const DOC_ID = /\b[A-Z]{2,8}\d{5,}\b/g;

export type TextPiece = { text: string; docId?: undefined } | { text: string; docId: string };

/** Splits free text (a log's "what it saw") into plain runs and document ids, in order. */
export function splitDocIds(text: string): TextPiece[] {
  const out: TextPiece[] = [];
  let at = 0;
  for (const m of text.matchAll(DOC_ID)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ text: m[0], docId: m[0] });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}
