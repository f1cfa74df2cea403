/**
 * Bidirectional-text controls (embeddings, overrides, isolates, marks) shown as escapes, for text
 * from files, releases and servers that names something: ids, file names, system and entity
 * names, messages quoting them. An override there would display "report\u202Efdp.exe" as
 * "reportexe.pdf" and reorder the text after it.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function escapeBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
