import type { Table } from 'apache-arrow';

/** The few things the explorer needs from DuckDB; the data worker implements it over DuckDB-WASM. */
export interface Sql {
  exec(sql: string): Promise<void>;
  /** Runs a prepared statement with positional `?` parameters; rows as plain objects. */
  all<T extends object>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  insertArrow(table: string, data: Table): Promise<void>;
}

export type SqlValue = string | number | boolean | null;

/** `?, ?, ?` for an IN list; values still go through parameters. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}

/** Arrow rows carry BigInt for every count: plain numbers cross the worker boundary. */
export function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'bigint' ? Number(v) : v;
  return out;
}

/**
 * `CREATE TABLE` for an Arrow table with no rows (DuckDB's Arrow inserts refuse those, and the
 * queries still need the table). Names come from the explorer's own schemas, never from input.
 */
export function emptyTableSql(name: string, data: Table): string {
  const columns = data.schema.fields.map((f) => `"${f.name}" ${sqlType(String(f.type))}`);
  return `CREATE TABLE ${name} (${columns.join(', ')})`;
}

function sqlType(arrowType: string): string {
  if (arrowType.startsWith('Int')) return 'INTEGER';
  if (arrowType === 'Bool') return 'BOOLEAN';
  return 'VARCHAR';
}
