/**
 * Python's json.dumps, byte for byte: the one writer of every JSON text the benchmark's Python
 * code writes (release JSONL and JSON files, scores.json, leaderboard, judge cache, questions
 * lines). What differs between those files is an option; everything else is Python's default.
 *
 * - indent: absent = one line with separators ", " and ": "; a number = one item per line with
 *   that many spaces per level, separators "," and ": ", "[]" / "{}" for empty containers.
 * - ensureAscii (default false): false escapes only '"', '\\' and C0 controls (the JSONL files,
 *   written with ensure_ascii=False); true also escapes DEL and all non-ASCII as \uXXXX per UTF-16
 *   unit, so astral characters become surrogate pairs (Python's default: scores.json, judge cache).
 *   Lone surrogates come out as Python writes them: raw / \udXXX.
 * - numbers: a JS number cannot say whether Python held 1 or 1.0.
 *   'int-if-integral' (default): an integral number is a Python int ("1"; -0 gives "0", 1e21 all
 *   its digits), any other the float repr ("0.5", "1e-05"); wrap a value in pyFloat() to print
 *   "1.0". The questions and tasks files hold no floats, so they round-trip exactly.
 *   'float': every number is a Python float ("1.0", "-0.0", "1e+16") and ints come as bigint,
 *   the value kinds pyJsonLoads reads (scores.json).
 *   In both, bigint is an int and NaN / Infinity / -Infinity are written so (allow_nan=True).
 *
 * Containers: arrays, plain objects and Maps with string keys, keys in insertion order (JS objects
 * list integer-like keys such as "7" first, so only a Map keeps a Python dict's order for them).
 * A key whose value is undefined is skipped (as JSON.stringify does; Python has no such value);
 * an undefined array item is written as null. Anything else throws a TypeError.
 */

/** A number that Python holds as a float: printed with float repr even when integral. */
export class PyFloat {
  constructor(readonly value: number) {}
}

export function pyFloat(value: number): PyFloat {
  return new PyFloat(value);
}

export type PyNumberStyle = 'int-if-integral' | 'float';

export interface PyJsonOptions {
  /** json.dumps(indent=N); absent for the one-line form. */
  readonly indent?: number;
  /** json.dumps(ensure_ascii=...); default false. */
  readonly ensureAscii?: boolean;
  /** How a JS number is written; default 'int-if-integral'. */
  readonly numbers?: PyNumberStyle;
}

const MAX_DEPTH = 1000;

interface Style {
  indent: number; // -1: one line
  string: (s: string) => string;
  floats: boolean;
}

export function pyJsonDumps(value: unknown, options: PyJsonOptions = {}): string {
  const style: Style = {
    indent: options.indent ?? -1,
    string: options.ensureAscii === true ? pyJsonStringAscii : pyJsonString,
    floats: options.numbers === 'float',
  };
  if (style.indent < 0 && options.indent !== undefined) throw new RangeError('pyJsonDumps: indent must be >= 0');
  return dump(value, style, 0, '');
}

/** json.dumps(value, indent=N) with ensure_ascii=False and int-if-integral numbers. */
export function pyJsonDumpsIndent(value: unknown, indent = 2): string {
  return pyJsonDumps(value, { indent });
}

function dump(value: unknown, style: Style, depth: number, pad: string): string {
  switch (typeof value) {
    case 'string':
      return style.string(value);
    case 'number':
      return style.floats ? pyJsonFloat(value) : pyNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    case 'object':
      if (value === null) return 'null';
      if (value instanceof PyFloat) return pyJsonFloat(value.value);
      if (depth >= MAX_DEPTH) throw new RangeError('pyJsonDumps: nesting deeper than 1000 (circular value?)');
      if (Array.isArray(value)) return dumpArray(value, style, depth, pad);
      if (value instanceof Map) return dumpEntries(mapEntries(value), style, depth, pad);
      if (isPlain(value)) return dumpEntries(Object.entries(value), style, depth, pad);
      throw new TypeError(`pyJsonDumps: ${Object.prototype.toString.call(value)} is not JSON serializable`);
    default:
      throw new TypeError(`pyJsonDumps: a ${typeof value} is not JSON serializable`);
  }
}

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function mapEntries(map: ReadonlyMap<unknown, unknown>): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const [key, v] of map) {
    if (typeof key !== 'string') throw new TypeError(`pyJsonDumps: a Map key must be a string, found a ${typeof key}`);
    entries.push([key, v]);
  }
  return entries;
}

function dumpArray(items: readonly unknown[], style: Style, depth: number, pad: string): string {
  if (items.length === 0) return '[]';
  const inner = style.indent < 0 ? pad : pad + ' '.repeat(style.indent);
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const text = item === undefined ? 'null' : dump(item, style, depth + 1, inner);
    if (style.indent < 0) out += i > 0 ? `, ${text}` : text;
    else out += `${i > 0 ? ',' : ''}\n${inner}${text}`;
  }
  return style.indent < 0 ? `${out}]` : `${out}\n${pad}]`;
}

function dumpEntries(entries: readonly [string, unknown][], style: Style, depth: number, pad: string): string {
  const inner = style.indent < 0 ? pad : pad + ' '.repeat(style.indent);
  let out = '{';
  let first = true;
  for (const [key, v] of entries) {
    if (v === undefined) continue;
    const text = `${style.string(key)}: ${dump(v, style, depth + 1, inner)}`;
    if (style.indent < 0) out += first ? text : `, ${text}`;
    else out += `${first ? '' : ','}\n${inner}${text}`;
    first = false;
  }
  if (first) return '{}';
  return style.indent < 0 ? `${out}}` : `${out}\n${pad}}`;
}

// Python's ESCAPE_DCT: the two-character escapes, every other escaped unit as \uXXXX.
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};
// Python's ESCAPE (ensure_ascii=False) and ESCAPE_ASCII (ensure_ascii=True) character classes.
// eslint-disable-next-line no-control-regex -- C0 controls are exactly what json.dumps escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
// eslint-disable-next-line no-control-regex
const ESCAPE = /["\\\u0000-\u001f]/g;
const NEEDS_ESCAPE_ASCII = /["\\]|[^ -~]/;
const ESCAPE_ASCII = /["\\]|[^ -~]/g;

function escapeUnit(ch: string): string {
  return SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Python's encode_basestring (ensure_ascii=False): only '"', '\\' and C0 controls escaped. */
export function pyJsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? `"${s.replace(ESCAPE, escapeUnit)}"` : `"${s}"`;
}

/** Python's encode_basestring_ascii (ensure_ascii=True): all but printable ASCII escaped as \uXXXX. */
export function pyJsonStringAscii(s: string): string {
  return NEEDS_ESCAPE_ASCII.test(s) ? `"${s.replace(ESCAPE_ASCII, escapeUnit)}"` : `"${s}"`;
}

function pyNumber(x: number): string {
  if (Number.isInteger(x)) {
    if (Object.is(x, -0)) return '0';
    return Math.abs(x) < 1e21 ? String(x) : BigInt(x).toString();
  }
  return pyJsonFloat(x);
}

/** A float as json.dumps writes it: repr, but NaN / Infinity / -Infinity for the non-finite. */
function pyJsonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return pyFloatRepr(x);
}

/** Python's repr(float): shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
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
