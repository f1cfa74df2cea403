/**
 * Python's truthiness, int(), list(), str.strip() and + over json.loads values, as score.py
 * applies them to predictions and judge verdicts (checked against CPython 3.12.1).
 */
import type { PyValue } from './json-loads.ts';
import { pyReprStr } from './repr.ts';

/**
 * Raised where the canonical scorer itself would stop with an uncaught exception (for example
 * int("2.5") or a verdict that is a JSON list): no report can equal the canonical one then.
 */
export class CanonicalScorerCrash extends Error {
  constructor(readonly pythonError: string) {
    super(`the canonical Python scorer would stop here with ${pythonError}`);
  }
}

export function pyTruthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'number') return v !== 0; // NaN is truthy in Python, and NaN !== 0
  if (Array.isArray(v)) return v.length > 0;
  return v.size > 0;
}

export function pyTypeName(v: PyValue | undefined): string {
  if (v === undefined || v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'float';
  return Array.isArray(v) ? 'list' : 'dict';
}

/** str.isspace() characters: what str.strip() removes (U+001C..U+001F included). */
export const PY_WHITESPACE =
  '\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';
const WHITESPACE_SET: ReadonlySet<number> = new Set(Array.from(PY_WHITESPACE, (c) => c.charCodeAt(0)));

export function isPyWhitespace(code: number): boolean {
  return WHITESPACE_SET.has(code);
}

/** str.strip() with no argument. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && WHITESPACE_SET.has(s.charCodeAt(start))) start++;
  while (end > start && WHITESPACE_SET.has(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

// The whitespace int() strips: str.isspace() except U+001C..U+001F (CPython 3.12 refuses those).
function isIntSpace(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return ch.length === 1 && WHITESPACE_SET.has(code) && (code < 0x1c || code > 0x1f);
}

// The code point of digit zero of every Unicode decimal-digit run (general category Nd) in
// CPython 3.12's Unicode 15.0 tables, 68 runs of ten; int() reads each digit as code - zero.
// (The JS engine's own \p{Nd} follows a newer Unicode and would accept digits Python refuses.)
const DECIMAL_ZEROS: readonly number[] = [
  0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0, 0xf20,
  0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620, 0xa8d0,
  0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0, 0x112f0,
  0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x11f50, 0x16a60, 0x16ac0,
  0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e4f0, 0x1e950, 0x1fbf0,
];

/** The value of a Unicode decimal digit as int() reads it, or -1. */
export function pyDecimalValue(code: number): number {
  // binary search for the last zero <= code
  let lo = 0;
  let hi = DECIMAL_ZEROS.length - 1;
  if (code < DECIMAL_ZEROS[0]!) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (DECIMAL_ZEROS[mid]! <= code) lo = mid;
    else hi = mid - 1;
  }
  const value = code - DECIMAL_ZEROS[lo]!;
  return value < 10 ? value : -1;
}

/** sys.get_int_max_str_digits() default: int() of a longer decimal string raises ValueError. */
export const PY_INT_MAX_STR_DIGITS = 4300;

function intMaxDigitsError(digits: number): CanonicalScorerCrash {
  return new CanonicalScorerCrash(
    `ValueError: Exceeds the limit (${PY_INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
  );
}

/** int(s) for a str, base 10: Unicode whitespace around, one sign, Unicode decimal digits, single underscores between digits. */
function intFromString(s: string): bigint {
  const invalid = (): CanonicalScorerCrash =>
    new CanonicalScorerCrash(`ValueError: invalid literal for int() with base 10: ${pyReprStr(s)}`);
  const chars = Array.from(s);
  let start = 0;
  let end = chars.length;
  while (start < end && isIntSpace(chars[start]!)) start++;
  while (end > start && isIntSpace(chars[end - 1]!)) end--;
  let negative = false;
  if (start < end && (chars[start] === '+' || chars[start] === '-')) negative = chars[start++] === '-';
  let digits = '';
  let lastWasDigit = false;
  for (let i = start; i < end; i++) {
    const ch = chars[i]!;
    if (ch === '_') {
      if (!lastWasDigit) throw invalid();
      lastWasDigit = false;
      continue;
    }
    const d = pyDecimalValue(ch.codePointAt(0)!);
    if (d < 0) throw invalid();
    digits += String(d);
    lastWasDigit = true;
  }
  if (!lastWasDigit) throw invalid();
  if (digits.length > PY_INT_MAX_STR_DIGITS) throw intMaxDigitsError(digits.length);
  const magnitude = BigInt(digits);
  return negative ? -magnitude : magnitude;
}

/** int(v) for the values a JSON reply can hold. */
export function pyInt(v: PyValue): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) throw new CanonicalScorerCrash('ValueError: cannot convert float NaN to integer');
    if (!Number.isFinite(v)) throw new CanonicalScorerCrash('OverflowError: cannot convert float infinity to integer');
    return BigInt(Math.trunc(v));
  }
  if (typeof v === 'string') return intFromString(v);
  throw new CanonicalScorerCrash(
    `TypeError: int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`,
  );
}

/** list(v) / iter(v): a list stays, a str yields its code points, a dict its keys; numbers and bools fail. */
export function pyList(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return Array.from(v);
  if (v instanceof Map) return [...v.keys()];
  throw new CanonicalScorerCrash(`TypeError: '${pyTypeName(v)}' object is not iterable`);
}

/** A Python number as score.py holds it: bigint for int (and bool), number for float. */
export type PyNumberValue = bigint | number;

/** a + b for JSON values, with Python's result kinds and TypeError messages. */
export function pyAdd(a: PyValue, b: PyValue): PyValue {
  const num = (v: PyValue): PyNumberValue | null =>
    typeof v === 'bigint' || typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1n : 0n) : null;
  const x = num(a);
  const y = num(b);
  if (x !== null && y !== null) {
    if (typeof x === 'bigint' && typeof y === 'bigint') return x + y;
    return pyFloatOf(x) + pyFloatOf(y);
  }
  if (typeof a === 'string') {
    if (typeof b === 'string') return a + b;
    throw new CanonicalScorerCrash(`TypeError: can only concatenate str (not "${pyTypeName(b)}") to str`);
  }
  if (Array.isArray(a)) {
    if (Array.isArray(b)) return [...a, ...b];
    throw new CanonicalScorerCrash(`TypeError: can only concatenate list (not "${pyTypeName(b)}") to list`);
  }
  throw new CanonicalScorerCrash(
    `TypeError: unsupported operand type(s) for +: '${pyTypeName(a)}' and '${pyTypeName(b)}'`,
  );
}

/** float(v) of an int or float, as int + float converts it (OverflowError past the double range). */
export function pyFloatOf(v: PyNumberValue): number {
  if (typeof v === 'number') return v;
  const f = Number(v);
  if (!Number.isFinite(f)) throw new CanonicalScorerCrash('OverflowError: int too large to convert to float');
  return f;
}
