/**
 * The SQL console over a release's DuckDB tables, read only. Three layers, each enough alone for
 * part of it:
 * - the query runs as a subquery, `SELECT * FROM (<query>) LIMIT cap + 1`, prepared as one
 *   statement: only a query (SELECT, WITH, VALUES, FROM-first, PIVOT, DESCRIBE, SUMMARIZE, SHOW)
 *   parses there, never INSERT/UPDATE/DELETE/CREATE/DROP/ALTER/COPY/ATTACH/SET/PRAGMA/LOAD, and a
 *   `;` that smuggles a second statement is refused by DuckDB ("cannot prepare multiple
 *   statements");
 * - the database runs with `enable_external_access=false` (set by every session, sql.ts; DuckDB
 *   refuses to turn it back on while running): no file, URL, glob, ATTACH or extension load;
 * - statements that are not queries are named before they reach DuckDB, so the refusal says why.
 * DuckDB's own error is shown with its line and column in the user's text.
 */
import type { Table } from 'apache-arrow';
import { cellOf, columnOf, type ConsoleCell, type ConsoleColumn } from './console-cells.ts';

export type { ConsoleCell, ConsoleColumn } from './console-cells.ts';

import { CONSOLE_MAX_ROW_CAP, CONSOLE_ROW_CAP, QUERY_MAX_CHARS } from './console-queries.ts';

export { CONSOLE_MAX_ROW_CAP, CONSOLE_ROW_CAP, EXAMPLE_QUERIES, QUERY_MAX_CHARS } from './console-queries.ts';

/** A connection of its own for the console, in the release's schema. */
export interface ConsoleEngine {
  /** Runs one statement; its rows as Arrow. */
  query(sql: string): Promise<Table>;
  /** Stops the running query; false when the engine cannot. */
  cancel(): Promise<boolean>;
}

export interface ConsoleResult {
  ok: true;
  columns: ConsoleColumn[];
  rows: ConsoleCell[][];
  /** More rows than the cap: only the first `cap` are here. */
  truncated: boolean;
  cap: number;
}

export interface ConsoleFailure {
  ok: false;
  /** refused: not allowed here (a write, a file or network read); error: DuckDB's error; cancelled. */
  kind: 'refused' | 'error' | 'cancelled';
  message: string;
  /** 1-based, in the user's query, when DuckDB says where. */
  line?: number;
  column?: number;
}

export type ConsoleOutcome = ConsoleResult | ConsoleFailure;

const READ_ONLY =
  'This console is read only: it runs one query (SELECT, WITH, VALUES, FROM, PIVOT, DESCRIBE, SUMMARIZE, SHOW)';

/** Statements that change the database or its settings, or reach outside it, by their first word. */
const NOT_QUERIES: Record<string, string> = {
  insert: "cannot change the release's tables",
  update: "cannot change the release's tables",
  delete: "cannot change the release's tables",
  merge: "cannot change the release's tables",
  truncate: "cannot change the release's tables",
  create: 'cannot create tables, views or functions',
  drop: "cannot drop the release's tables",
  alter: "cannot change the release's tables",
  comment: "cannot change the release's tables",
  copy: 'cannot read or write files',
  export: 'cannot write files',
  import: 'cannot read files',
  attach: 'cannot open other databases or files',
  detach: 'cannot detach databases',
  use: 'cannot switch databases',
  install: 'cannot install extensions',
  load: 'cannot load extensions',
  force: 'cannot install extensions',
  update_extensions: 'cannot update extensions',
  set: 'cannot change settings',
  reset: 'cannot change settings',
  pragma: 'cannot run pragmas',
  call: 'cannot call procedures',
  checkpoint: 'cannot checkpoint the database',
  vacuum: 'cannot vacuum the database',
  begin: 'runs no transactions',
  start: 'runs no transactions',
  commit: 'runs no transactions',
  rollback: 'runs no transactions',
  abort: 'runs no transactions',
  end: 'runs no transactions',
  prepare: 'runs no prepared statements',
  execute: 'runs no prepared statements',
  deallocate: 'runs no prepared statements',
  explain: 'does not explain plans',
};

/** The query without comments, leading and trailing blanks and trailing semicolons. */
function firstWord(query: string): string {
  const text = query
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .trimStart();
  return (/^[A-Za-z_]+/.exec(text.replace(/^\(+\s*/, ''))?.[0] ?? '').toLowerCase();
}

/** Why this query is refused before it reaches DuckDB, or undefined. */
export function refusalOf(query: string): string | undefined {
  if (query.trim() === '') return 'Write a query first.';
  if (query.length > QUERY_MAX_CHARS)
    return `The query is ${query.length} characters long; the console takes up to ${QUERY_MAX_CHARS}.`;
  const word = firstWord(query);
  const why = NOT_QUERIES[word];
  return why ? `${READ_ONLY}; it ${why} (the query starts with ${word.toUpperCase()}).` : undefined;
}

/** Trailing `;` (and blanks) removed: one statement, written as people write it. */
export function stripTrailingSemicolons(query: string): string {
  return query.replace(/[\s;]+$/, '');
}

/** The query as the console runs it: a subquery with a row limit (the query on lines 2...). */
export function wrapQuery(query: string, cap: number): string {
  return `SELECT * FROM (\n${stripTrailingSemicolons(query)}\n) AS query_result LIMIT ${cap + 1}`;
}

/**
 * DuckDB's error for the user's text: "LINE n:" counted from the query's first line (the wrapper
 * adds one above it), the repeated location block once, and the line and column under the caret.
 */
export function consoleError(error: unknown, query: string): ConsoleFailure {
  const raw = error instanceof Error ? error.message : String(error);
  const lines = raw.split('\n');
  const out: string[] = [];
  let line: number | undefined;
  let column: number | undefined;
  let seenLocation = false;
  for (let i = 0; i < lines.length; i++) {
    const m = /^LINE (\d+): (.*)$/.exec(lines[i]!);
    if (!m) {
      out.push(lines[i]!);
      continue;
    }
    const caret = lines[i + 1] ?? '';
    i++;
    if (seenLocation) continue;
    seenLocation = true;
    const userLine = Number(m[1]) - 1;
    const prefix = `LINE ${m[1]}: `.length;
    const at = caret.indexOf('^');
    if (userLine >= 1 && userLine <= query.split('\n').length) {
      line = userLine;
      if (at >= prefix) column = at - prefix + 1;
      const label = `LINE ${userLine}: `;
      out.push(`${label}${m[2]}`, `${' '.repeat(label.length + (column ?? 1) - 1)}^`);
    }
  }
  const message = out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const failure: ConsoleFailure = { ok: false, kind: 'error', message };
  if (/^Permission Error/m.test(raw) || /disabled (by|through) configuration/.test(raw)) {
    failure.kind = 'refused';
    failure.message = `This console cannot read files or reach the network. DuckDB: ${message}`;
  } else if (/but it exists in the (\w+) extension/.test(raw)) {
    const name = /exists in the (\w+) extension/.exec(raw)![1]!;
    failure.kind = 'refused';
    failure.message =
      `This console loads no extension (this needs DuckDB's ${name} extension) and reads nothing ` +
      "but the release's tables: it cannot read files or reach the network.";
  } else if (/multiple statements|syntax error at or near ";"/i.test(raw)) {
    failure.kind = 'refused';
    failure.message = `${READ_ONLY}: one statement at a time (remove the ";" between them).`;
  } else if (/interrupt|cancel/i.test(raw)) {
    failure.kind = 'cancelled';
    failure.message = 'The query was cancelled.';
  }
  if (line !== undefined) failure.line = line;
  if (column !== undefined) failure.column = column;
  return failure;
}

export function clampCap(cap: number | undefined): number {
  if (cap === undefined || !Number.isFinite(cap)) return CONSOLE_ROW_CAP;
  return Math.max(1, Math.min(CONSOLE_MAX_ROW_CAP, Math.floor(cap)));
}

/** Runs the user's query read only, at most `cap` rows kept. */
export async function runConsoleQuery(engine: ConsoleEngine, query: string, cap?: number): Promise<ConsoleOutcome> {
  const refused = refusalOf(query);
  if (refused) return { ok: false, kind: 'refused', message: refused };
  const limit = clampCap(cap);
  let table: Table;
  try {
    table = await engine.query(wrapQuery(query, limit));
  } catch (error) {
    return consoleError(error, query);
  }
  const fields = table.schema.fields;
  const columns = fields.map(columnOf);
  const rows: ConsoleCell[][] = [];
  const n = Math.min(table.numRows, limit);
  const vectors = fields.map((_, i) => table.getChildAt(i));
  for (let r = 0; r < n; r++) rows.push(fields.map((f, c) => cellOf(vectors[c]?.get(r), f.type)));
  return { ok: true, columns, rows, truncated: table.numRows > limit, cap: limit };
}

export interface ConsoleTable {
  name: string;
  columns: ConsoleColumn[];
  rows: number;
}

/** The tables of the release's schema, their columns and row counts. */
export async function consoleTables(engine: ConsoleEngine): Promise<ConsoleTable[]> {
  const table = await engine.query(
    'SELECT table_name, column_name, data_type FROM duckdb_columns() ' +
      'WHERE schema_name = current_schema() ORDER BY table_name, column_index',
  );
  const byName = new Map<string, ConsoleTable>();
  for (const row of table.toArray() as { toJSON(): Record<string, unknown> }[]) {
    const r = row.toJSON() as { table_name: string; column_name: string; data_type: string };
    const t = byName.get(r.table_name) ?? { name: r.table_name, columns: [], rows: 0 };
    t.columns.push({ name: r.column_name, type: r.data_type });
    byName.set(r.table_name, t);
  }
  const counts = await engine.query(
    'SELECT table_name, estimated_size FROM duckdb_tables() WHERE schema_name = current_schema()',
  );
  for (const row of counts.toArray() as { toJSON(): Record<string, unknown> }[]) {
    const r = row.toJSON() as { table_name: string; estimated_size: bigint | number };
    const t = byName.get(r.table_name);
    if (t) t.rows = Number(r.estimated_size);
  }
  return [...byName.values()];
}
