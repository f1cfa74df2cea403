/**
 * Python `json.dumps(obj, ensure_ascii=False)` byte format (separators ", " and ": ") and the
 * `indent=2` variant, for the files of the sample release. Stopgap until src/core/release/jsonl.ts
 * lands. Limits: numbers are written as JS prints them, except that exponents use Python's form
 * (1e-05, 1e+16); an integral float cannot be told from an int in JS, so pass floats only where
 * the value is not integral. Undefined object values are skipped (as absent keys).
 */
export type PyJson = null | boolean | number | string | PyJson[] | { [key: string]: PyJson | undefined };

export function pyDumps(value: unknown, indent?: number): string {
  return write(value, indent, 0);
}

/** One JSONL file: every line then "\n", including the last. */
export function pyJsonl(rows: readonly unknown[]): string {
  let out = '';
  for (const row of rows) out += `${pyDumps(row)}\n`;
  return out;
}

function write(value: unknown, indent: number | undefined, depth: number): string {
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const parts = value.map((v: unknown) => write(v === undefined ? null : v, indent, depth + 1));
    return wrap('[', ']', parts, indent, depth);
  }
  if (typeof value === 'object') {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      parts.push(`${pyString(k)}: ${write(v, indent, depth + 1)}`);
    }
    if (parts.length === 0) return '{}';
    return wrap('{', '}', parts, indent, depth);
  }
  throw new TypeError(`pyDumps: cannot serialise a ${typeof value}`);
}

function wrap(open: string, close: string, parts: string[], indent: number | undefined, depth: number): string {
  if (indent === undefined) return `${open}${parts.join(', ')}${close}`;
  const inner = ' '.repeat(indent * (depth + 1));
  const outer = ' '.repeat(indent * depth);
  return `${open}\n${inner}${parts.join(`,\n${inner}`)}\n${outer}${close}`;
}

function pyNumber(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  const s = String(n);
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(s);
  if (!m) return s;
  return `${m[1]}e${m[2]}${m[3]!.padStart(2, '0')}`;
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** ensure_ascii=False: only '"', '\\' and C0 controls are escaped. */
export function pyString(s: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${s.replace(/["\\\u0000-\u001f]/g, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
