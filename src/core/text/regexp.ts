/** Text made into regular expressions: every character literal, whitespace between words loose. */

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The words in order, any run of whitespace between them (a phrase wrapped or spaced differently). */
export function wordsPattern(words: readonly string[], flags: string): RegExp {
  return new RegExp(words.map(escapeRegExp).join('\\s+'), flags);
}
