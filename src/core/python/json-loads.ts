/**
 * Python's json.loads, as the scorer applies it to a judge reply, with Python's value kinds
 * kept: int -> bigint, float -> number, dict -> Map (insertion order, last duplicate wins),
 * list -> array. Accepts NaN / Infinity / -Infinity like Python; rejects what Python rejects
 * (raw control characters in strings, a BOM, trailing data), with Python's exception kind:
 * JSONDecodeError for bad syntax, ValueError for an int literal longer than 4,300 digits,
 * RecursionError past 1,497 nested containers (CPython 3.12's C recursion limit for its JSON
 * scanner, whatever the Python call depth).
 */
export type PyValue = null | boolean | string | bigint | number | PyValue[] | PyDict;
export type PyDict = Map<string, PyValue>;

export class PyJsonDecodeError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message}: char ${position}`);
  }
}

/** json.loads raised something other than JSONDecodeError (ValueError, RecursionError). */
export class PyJsonLimitError extends Error {
  constructor(readonly pythonError: string) {
    super(pythonError);
  }
}

/** Containers CPython 3.12's json.loads opens before RecursionError. */
export const PY_JSON_MAX_NESTING = 1497;
const MAX_INT_DIGITS = 4300;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

class Parser {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string, at = this.pos): never {
    throw new PyJsonDecodeError(message, at);
  }

  skipWs(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 9 || c === 10 || c === 13) p++;
      else break;
    }
    this.pos = p;
  }

  value(depth: number): PyValue {
    const t = this.text;
    const c = t[this.pos];
    switch (c) {
      case '"':
        return this.string();
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case 'n':
        return this.literal('null', null);
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'N':
        return this.literal('NaN', NaN);
      case 'I':
        return this.literal('Infinity', Infinity);
      default:
        if (c === '-' && t.startsWith('-Infinity', this.pos)) return this.literal('-Infinity', -Infinity);
        return this.number();
    }
  }

  literal<T extends PyValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('Expecting value');
    this.pos += word.length;
    return value;
  }

  number(): bigint | number {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail('Expecting value');
    this.pos += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const digits = m[0].length - (m[0].startsWith('-') ? 1 : 0);
      if (digits > MAX_INT_DIGITS) {
        throw new PyJsonLimitError(
          `ValueError: Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
        );
      }
      return BigInt(m[0]);
    }
    return Number(m[0]);
  }

  string(): string {
    const t = this.text;
    let p = this.pos + 1;
    let out = '';
    let chunkStart = p;
    for (;;) {
      if (p >= t.length) this.fail('Unterminated string starting at', this.pos);
      const c = t.charCodeAt(p);
      if (c === 34) {
        out += t.slice(chunkStart, p);
        this.pos = p + 1;
        return out;
      }
      if (c < 0x20) this.fail('Invalid control character at', p);
      if (c === 92) {
        out += t.slice(chunkStart, p);
        const e = t[p + 1];
        if (e === 'u') {
          const code = this.hex4(p + 2);
          p += 6;
          if (code >= 0xd800 && code <= 0xdbff && t[p] === '\\' && t[p + 1] === 'u') {
            const low = this.hex4(p + 2);
            if (low >= 0xdc00 && low <= 0xdfff) {
              out += String.fromCharCode(code, low);
              p += 6;
              chunkStart = p;
              continue;
            }
          }
          out += String.fromCharCode(code);
        } else {
          const mapped = e === undefined ? undefined : ESCAPES[e];
          if (mapped === undefined) this.fail('Invalid \\escape', p);
          out += mapped;
          p += 2;
        }
        chunkStart = p;
        continue;
      }
      p++;
    }
  }

  hex4(at: number): number {
    const h = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) this.fail('Invalid \\uXXXX escape', at - 1);
    return parseInt(h, 16);
  }

  enter(depth: number, what: string): void {
    if (depth >= PY_JSON_MAX_NESTING)
      throw new PyJsonLimitError(
        `RecursionError: maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`,
      );
  }

  object(depth: number): PyDict {
    this.enter(depth, 'object');
    const dict: PyDict = new Map();
    this.pos++;
    this.skipWs();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return dict;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail('Expecting property name enclosed in double quotes');
      const key = this.string();
      this.skipWs();
      if (this.text[this.pos] !== ':') this.fail("Expecting ':' delimiter");
      this.pos++;
      this.skipWs();
      dict.set(key, this.value(depth + 1));
      this.skipWs();
      const c = this.text[this.pos];
      this.pos++;
      if (c === '}') return dict;
      if (c !== ',') this.fail("Expecting ',' delimiter", this.pos - 1);
      this.skipWs();
    }
  }

  array(depth: number): PyValue[] {
    this.enter(depth, 'array');
    const list: PyValue[] = [];
    this.pos++;
    this.skipWs();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return list;
    }
    for (;;) {
      list.push(this.value(depth + 1));
      this.skipWs();
      const c = this.text[this.pos];
      this.pos++;
      if (c === ']') return list;
      if (c !== ',') this.fail("Expecting ',' delimiter", this.pos - 1);
      this.skipWs();
    }
  }
}

/** json.loads(text). Throws PyJsonDecodeError where Python raises JSONDecodeError, PyJsonLimitError for the other errors. */
export function pyJsonLoads(text: string): PyValue {
  if (text.charCodeAt(0) === 0xfeff) throw new PyJsonDecodeError('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
  const parser = new Parser(text);
  parser.skipWs();
  const value = parser.value(0);
  parser.skipWs();
  if (parser.pos !== text.length) parser.fail('Extra data');
  return value;
}
