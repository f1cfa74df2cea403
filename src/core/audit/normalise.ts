/**
 * The grounding rule's text normalisation, exactly as the card's Python would do it:
 * `" ".join(s.lower().split())` and `re.findall(r"[a-z0-9]{2,}", s.lower())`. Offsets into
 * the original text are kept so that a match can be shown (and measured against the judges'
 * excerpt, which Python cuts in code points).
 */
export { codePointOffset, utf16OffsetOfCodePoint } from '../text/code-points.ts';

/** Python's str.split() whitespace (str.isspace), which is not JavaScript's \s. */
const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_SPACE_RUN = new RegExp(`[${PY_SPACE}]+`, 'g');

/** str.isspace() of one UTF-16 unit (every Python whitespace character is in the BMP). */
export function isPySpaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** `" ".join(s.lower().split())` */
export function collapseLower(s: string): string {
  return s.toLowerCase().split(PY_SPACE_RUN).filter(Boolean).join(' ');
}

export interface NormalisedText {
  /** The text lowercased, whitespace runs collapsed to one space, trimmed. */
  text: string;
  /** For each UTF-16 unit of `text`, the UTF-16 offset in the original text it came from. */
  origin: Int32Array;
}

/**
 * collapseLower with a map back to the original. Lowercasing can change length (U+0130) and
 * depends on context (final sigma), so the lowered string is taken whole and its units are
 * attributed to source characters by each character's own lowered length.
 */
export function normaliseWithOffsets(original: string): NormalisedText {
  const { lowered, origin: loweredOrigin } = lowerWithOrigin(original);
  const out: string[] = [];
  const origin: number[] = [];
  let pendingSpace = -1;
  for (let j = 0; j < lowered.length; j++) {
    if (isPySpaceCode(lowered.charCodeAt(j))) {
      if (out.length > 0 && pendingSpace < 0) pendingSpace = loweredOrigin[j]!;
      continue;
    }
    if (pendingSpace >= 0) {
      out.push(' ');
      origin.push(pendingSpace);
      pendingSpace = -1;
    }
    out.push(lowered[j]!);
    origin.push(loweredOrigin[j]!);
  }
  return { text: out.join(''), origin: Int32Array.from(origin) };
}

/** The overlap rule's tokens: `[a-z0-9]{2,}` runs of the lowercased text. */
export const TOKEN_PATTERN = /[a-z0-9]{2,}/g;

export function distinctTokens(s: string): Set<string> {
  return new Set(s.toLowerCase().match(TOKEN_PATTERN) ?? []);
}

export interface PositionedToken {
  token: string;
  /** UTF-16 offsets in the original text. */
  start: number;
  end: number;
}

/**
 * Tokens with their place in the original text. Lowercasing maps a few non-ASCII letters to
 * ASCII (the Kelvin sign to "k", U+0130 to "i" + a combining dot), so tokens are found in the
 * lowered text and mapped back.
 */
export function positionedTokens(original: string): PositionedToken[] {
  const { lowered, origin } = lowerWithOrigin(original);
  const out: PositionedToken[] = [];
  for (const m of lowered.matchAll(TOKEN_PATTERN)) {
    out.push({ token: m[0], start: origin[m.index]!, end: origin[m.index + m[0].length]! });
  }
  return out;
}

/**
 * The whole text lowercased (context rules such as final sigma apply) and, for each UTF-16 unit
 * of it plus one past the end, the offset in the original it came from, attributed by each
 * character's own lowered length.
 */
function lowerWithOrigin(original: string): { lowered: string; origin: Int32Array } {
  const lowered = original.toLowerCase();
  const origin = new Int32Array(lowered.length + 1);
  if (lowered.length === original.length) {
    for (let i = 0; i <= lowered.length; i++) origin[i] = i;
    return { lowered, origin };
  }
  let at = 0;
  let i = 0;
  for (const ch of original) {
    const n = ch.toLowerCase().length;
    for (let k = 0; k < n && at < lowered.length; k++) origin[at++] = i;
    i += ch.length;
  }
  for (; at <= lowered.length; at++) origin[at] = original.length;
  return { lowered, origin };
}
