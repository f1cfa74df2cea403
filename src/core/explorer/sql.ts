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
