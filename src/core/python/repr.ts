/**
 * Python's repr() of a str and of a list of str, as the aggregation prompt embeds gold items.
 *
 * Covered exactly: quote choice, backslash and quote escapes, \t \n \r, \xNN for C0 controls
 * and DEL, and str.isprintable() for every other code point through Unicode general
 * categories (Cc Cf Cs Co Cn Zl Zp Zs are non-printable; \xNN up to U+00FF, \uNNNN up to
 * U+FFFF, \UNNNNNNNN above). Unassigned (Cn) code points follow the JS engine's Unicode
 * tables, which can differ from the Python build's for characters assigned very recently.
 */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
// eslint-disable-next-line no-control-regex -- C0 controls are what repr() escapes
const NEEDS_ESCAPE = /[\\'"\x00-\x1f\x7f-\u{10ffff}]/u;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

export function pyReprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  if (!NEEDS_ESCAPE.test(s)) return quote + s + quote;
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + hex(code, 2);
    else if (code < 0x7f) out += ch;
    else if (!NON_PRINTABLE.test(ch)) out += ch;
    else if (code <= 0xff) out += '\\x' + hex(code, 2);
    else if (code <= 0xffff) out += '\\u' + hex(code, 4);
    else out += '\\U' + hex(code, 8);
  }
  return out + quote;
}

export function pyReprStrList(items: readonly string[]): string {
  return `[${items.map(pyReprStr).join(', ')}]`;
}
