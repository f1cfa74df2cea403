/**
 * A console result as a file: CSV (RFC 4180: every field quoted when it holds a comma, quote or
 * line break) or JSON (an array of objects keyed by column). Text cells that a spreadsheet would
 * run as a formula (starting with = + - @, tab or carriage return) get a leading apostrophe in the
 * CSV, since the data is untrusted; the JSON keeps every value as it is.
 */
import type { ConsoleCell, ConsoleColumn } from './console-cells.ts';

const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(cell: ConsoleCell): string {
  if (cell === null) return '';
  let text = String(cell);
  if (typeof cell === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function resultCsv(columns: readonly ConsoleColumn[], rows: readonly ConsoleCell[][]): string {
  const lines = [columns.map((c) => csvField(c.name)).join(',')];
  for (const row of rows) lines.push(row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Columns with the same name (`SELECT 1 AS a, 2 AS a`) get a suffix, so no value is lost. */
function uniqueNames(columns: readonly ConsoleColumn[]): string[] {
  const seen = new Map<string, number>();
  return columns.map((c) => {
    const n = seen.get(c.name) ?? 0;
    seen.set(c.name, n + 1);
    return n === 0 ? c.name : `${c.name}_${n + 1}`;
  });
}

export function resultJson(columns: readonly ConsoleColumn[], rows: readonly ConsoleCell[][]): string {
  const names = uniqueNames(columns);
  const objects = rows.map((row) => Object.fromEntries(names.map((name, i) => [name, row[i] ?? null])));
  return `${JSON.stringify(objects, null, 1)}\n`;
}
