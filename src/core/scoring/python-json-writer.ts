/**
 * Python's json.dumps(value, indent=N) with its defaults (ensure_ascii=True, allow_nan=True):
 * bigint is written as a Python int, number as a Python float ("0.0", "1e-05"), objects and
 * Maps in insertion order, no trailing newline.
 */
import { pyFloatRepr } from './python-float.ts';

export type PyJsonOut =
  null | boolean | string | bigint | number | readonly PyJsonOut[] | PyJsonObject | ReadonlyMap<string, PyJsonOut>;
export interface PyJsonObject {
  readonly [key: string]: PyJsonOut | undefined;
}

const SHORT_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

export function pyJsonString(s: string): string {
  return `"${s.replace(/[\\"]|[^ -~]/g, (ch) => SHORT_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function floatText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return pyFloatRepr(x);
}

function write(value: PyJsonOut, indent: string, level: number, out: string[]): void {
  if (value === null) out.push('null');
  else if (value === true) out.push('true');
  else if (value === false) out.push('false');
  else if (typeof value === 'string') out.push(pyJsonString(value));
  else if (typeof value === 'bigint') out.push(value.toString());
  else if (typeof value === 'number') out.push(floatText(value));
  else {
    const inner = '\n' + indent.repeat(level + 1);
    const entries: [string | null, PyJsonOut][] = Array.isArray(value)
      ? (value as readonly PyJsonOut[]).map((v) => [null, v])
      : value instanceof Map
        ? [...(value as ReadonlyMap<string, PyJsonOut>).entries()]
        : Object.entries(value as PyJsonObject).filter((e): e is [string, PyJsonOut] => e[1] !== undefined);
    const open = Array.isArray(value) ? '[' : '{';
    const close = Array.isArray(value) ? ']' : '}';
    if (entries.length === 0) {
      out.push(open + close);
      return;
    }
    out.push(open);
    entries.forEach(([key, v], i) => {
      out.push(i === 0 ? inner : ',' + inner);
      if (key !== null) out.push(pyJsonString(key) + ': ');
      write(v, indent, level + 1, out);
    });
    out.push('\n' + indent.repeat(level) + close);
  }
}

export function pyJsonDumps(value: PyJsonOut, indent = 2): string {
  const out: string[] = [];
  write(value, ' '.repeat(indent), 0, out);
  return out.join('');
}

const RAW_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '"': '\\"',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** json.dumps(s, ensure_ascii=False) of a string: only quote, backslash and C0 controls are escaped. */
export function pyJsonStringRaw(s: string): string {
  // eslint-disable-next-line no-control-regex -- C0 controls are exactly what json.dumps escapes
  return `"${s.replace(/[\\"\x00-\x1f]/g, (ch) => RAW_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

/** One questions.jsonl line as io_utils.write_jsonl writes it: json.dumps(obj, ensure_ascii=False) + "\n". */
export function questionLine(task: { task_id: string; type: string; question: string }): string {
  return `{"task_id": ${pyJsonStringRaw(task.task_id)}, "type": ${pyJsonStringRaw(task.type)}, "question": ${pyJsonStringRaw(task.question)}}\n`;
}
