/**
 * Python's json.dumps, byte for byte, for the files the benchmark writes with it:
 * `json.dumps(obj, ensure_ascii=False)` (JSONL lines) and `json.dumps(obj, indent=2)` (manifest,
 * metadata, scores, leaderboard).
 *
 * Numbers: a JS number cannot say whether Python held 1 or 1.0, so an integral number prints as
 * a Python int ("1") and any other as Python's float repr ("0.5", "1e-05", "1.5e+16"). The
 * questions and tasks files hold no floats, so they round-trip exactly. To print an integral
 * float as Python would ("1.0"), wrap it: `pyFloat(1)`.
 *
 * Keys are written in insertion order. JS objects list integer-like keys ("7", "10") first
 * whatever the insertion order, so such keys cannot keep a Python dict's order. Keys whose value
 * is undefined are skipped (as JSON.stringify does); Python has no such value.
 */

/** A number that Python holds as a float: printed with float repr even when integral. */
export class PyFloat {
  constructor(readonly value: number) {}
}

export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}

const MAX_DEPTH = 1000;

export function pyJsonDumps(value: unknown): string {
  return dump(value, -1, 0, '');
}

/** Python's indent layout: one item per line, "," at line ends, "[]" / "{}" for empty containers. */
export function pyJsonDumpsIndent(value: unknown, indent = 2): string {
  return dump(value, indent, 0, '');
}

function dump(value: unknown, indent: number, depth: number, pad: string): string {
  switch (typeof value) {
    case 'string':
      return pyJsonString(value);
    case 'number':
      return pyNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      if (value === null) return 'null';
      if (value instanceof PyFloat) return pyFloatRepr(value.value);
      if (depth >= MAX_DEPTH) throw new RangeError('pyJsonDumps: nesting deeper than 1000 (circular value?)');
      if (Array.isArray(value)) return dumpArray(value, indent, depth, pad);
      if (isPlain(value)) return dumpObject(value as Record<string, unknown>, indent, depth, pad);
      throw new TypeError(`pyJsonDumps: ${Object.prototype.toString.call(value)} is not JSON serializable`);
    default:
      throw new TypeError(`pyJsonDumps: a ${typeof value} is not JSON serializable`);
  }
}

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function dumpArray(items: readonly unknown[], indent: number, depth: number, pad: string): string {
  if (items.length === 0) return '[]';
  if (indent < 0) {
    let out = '[';
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out += ', ';
      const item = items[i];
      out += item === undefined ? 'null' : dump(item, indent, depth + 1, pad);
    }
    return `${out}]`;
  }
  const inner = pad + ' '.repeat(indent);
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    out += `${i > 0 ? ',' : ''}\n${inner}${item === undefined ? 'null' : dump(item, indent, depth + 1, inner)}`;
  }
  return `${out}\n${pad}]`;
}

function dumpObject(obj: Record<string, unknown>, indent: number, depth: number, pad: string): string {
  const inner = indent < 0 ? '' : pad + ' '.repeat(indent);
  let out = '{';
  let first = true;
  for (const key in obj) {
    if (!Object.hasOwn(obj, key)) continue;
    const v = obj[key];
    if (v === undefined) continue;
    if (indent < 0) out += `${first ? '' : ', '}${pyJsonString(key)}: ${dump(v, indent, depth + 1, pad)}`;
    else out += `${first ? '' : ','}\n${inner}${pyJsonString(key)}: ${dump(v, indent, depth + 1, inner)}`;
    first = false;
  }
  if (first) return '{}';
  return indent < 0 ? `${out}}` : `${out}\n${pad}}`;
}

// Python's ESCAPE_DCT: the two-character escapes, every other control character as \u00XX.
const ESCAPES: readonly string[] = Array.from({ length: 32 }, (_, c) => `\\u${c.toString(16).padStart(4, '0')}`);
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};
// Control characters are exactly what Python escapes.
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE_ALL = /["\\\u0000-\u001f]/g;

function escapeChar(ch: string): string {
  return SHORT_ESCAPES[ch] ?? (ESCAPES[ch.charCodeAt(0)] as string);
}

/** A string as json.dumps(ensure_ascii=False) writes it: only '"', '\\' and C0 controls escaped. */
export function pyJsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  return `"${s.replace(NEEDS_ESCAPE_ALL, escapeChar)}"`;
}

function pyNumber(x: number): string {
  if (Number.isInteger(x)) {
    if (Object.is(x, -0)) return '0';
    return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString();
  }
  return pyFloatRepr(x);
}

/** Python's repr(float): shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest digits that round-trip, like repr.
  const [mantissa = '', expText = '0'] = Math.abs(x).toExponential().split('e');
  const exp = Number(expText);
  const digits = mantissa.replace('.', '');
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}
