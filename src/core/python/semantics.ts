/** Python's truthiness, int() and list() over json.loads values, as score.py applies them to verdicts. */
import type { PyValue } from './json-loads.ts';

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

// str.isspace() characters, which int() strips
const PY_SPACE = '[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const INT_LITERAL = new RegExp(`^${PY_SPACE}*([+-]?)(\\d(?:_?\\d)*)${PY_SPACE}*$`);

/**
 * int(v) for the values a JSON reply can hold. Decimal ASCII digits only for strings
 * (Python also accepts other Unicode decimal digits; such replies are not expected).
 */
export function pyInt(v: PyValue): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) throw new CanonicalScorerCrash('ValueError: cannot convert float NaN to integer');
    if (!Number.isFinite(v)) throw new CanonicalScorerCrash('OverflowError: cannot convert float infinity to integer');
    return BigInt(Math.trunc(v));
  }
  if (typeof v === 'string') {
    const m = INT_LITERAL.exec(v);
    if (!m) throw new CanonicalScorerCrash(`ValueError: invalid literal for int() with base 10: ${JSON.stringify(v)}`);
    const magnitude = BigInt(m[2]!.replaceAll('_', ''));
    return m[1] === '-' ? -magnitude : magnitude;
  }
  throw new CanonicalScorerCrash(
    `TypeError: int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`,
  );
}

/** list(v): a list stays, a str yields its code points, a dict its keys; numbers and bools fail. */
export function pyList(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return Array.from(v);
  if (v instanceof Map) return [...v.keys()];
  throw new CanonicalScorerCrash(`TypeError: '${pyTypeName(v)}' object is not iterable`);
}
