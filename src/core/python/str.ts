/** Python's str() and repr() of json.loads values (str of a float is its repr; containers repr their items). */
import type { PyValue } from './json-loads.ts';
import { pyFloatRepr } from './json-dumps.ts';
import { pyReprStr } from './repr.ts';

export function pyRepr(v: PyValue): string {
  return typeof v === 'string' ? pyReprStr(v) : pyStr(v);
}

export function pyStr(v: PyValue): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return pyFloatRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  const parts: string[] = [];
  for (const [key, value] of v) parts.push(`${pyReprStr(key)}: ${pyRepr(value)}`);
  return `{${parts.join(', ')}}`;
}
