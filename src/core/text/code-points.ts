/** Python indexes strings by code point, JavaScript by UTF-16 unit: the two offsets of one place. */

/** Python's len(text[:i]) for the UTF-16 offset i: the code points before it. */
export function codePointOffset(text: string, utf16Offset: number): number {
  let n = 0;
  for (let i = 0; i < utf16Offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The UTF-16 offset where Python's text[:codePoints] ends. */
export function utf16OffsetOfCodePoint(text: string, codePoints: number): number {
  let i = 0;
  let n = 0;
  while (i < text.length && n < codePoints) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    n++;
  }
  return i;
}
