/**
 * The benchmark's tokenizer: Python `re.findall(r"[a-z0-9]{2,}", text.lower())`.
 *
 * Lowercasing: JS `toLowerCase()` and Python `str.lower()` both apply Unicode's full
 * (unconditional) lowercase mapping, so they agree wherever the engines' Unicode versions do.
 * Because only ASCII letters and digits survive the pattern, the only non-ASCII characters that
 * can change a token are the two whose lowercase contains ASCII:
 *   - U+0130 'İ' lowercases to "i\u0307" in both languages: it contributes an 'i' and the
 *     combining dot then ends the token ("XİY" gives "xi", "y"; "İstanbul" gives "stanbul").
 *   - U+212A KELVIN SIGN lowercases to 'k' in both.
 * Everything else non-ASCII (accents, 'ß', final sigma, full-width digits, ...) separates tokens.
 */

/** True for char codes of [a-z0-9] (after lowercasing). */
function isTokenChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** Calls `emit` with every token of `text`, in order (duplicates included). */
export function forEachToken(text: string, emit: (token: string) => void): void {
  const lower = text.toLowerCase();
  const n = lower.length;
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const inToken = i < n && isTokenChar(lower.charCodeAt(i));
    if (inToken) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= 2) emit(lower.slice(start, i));
      start = -1;
    }
  }
}

/** All tokens of `text`, in order, duplicates included (document side). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  forEachToken(text, (t) => out.push(t));
  return out;
}

/** Query terms: the tokens of `text`, deduplicated, in order of first occurrence. */
export function queryTerms(text: string): string[] {
  const seen = new Set<string>();
  forEachToken(text, (t) => {
    seen.add(t);
  });
  return [...seen];
}
