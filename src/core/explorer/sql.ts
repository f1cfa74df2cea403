import type { Table } from 'apache-arrow';
import { isolatedConsole, type ConsoleDatabase, type ConsoleTableCopy } from './console-isolated.ts';
import type { ConsoleEngine } from './sql-console.ts';

/** The few things the explorer needs from DuckDB; the data worker implements it over DuckDB-WASM. */
export interface Sql {
  exec(sql: string): Promise<void>;
  /** Runs a prepared statement with positional `?` parameters; rows as plain objects. */
  all<T extends object>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  insertArrow(table: string, data: Table): Promise<void>;
}

/**
 * A connection whose unqualified table names live in a schema of their own, so that a release
 * being loaded fills its tables beside the shown release's and replaces them only when complete.
 */
export interface SqlSession extends Sql {
  /** Drops the schema and its tables and closes the connection. */
  close(): Promise<void>;
  /** A connection of its own in this schema, for the read-only SQL console (sql-console.ts). */
  console(): Promise<ConsoleEngine>;
}

/** A started database: one session (schema + connection) per loaded release. */
export interface SqlDatabase {
  session(schema: string): Promise<SqlSession>;
}

export type SqlValue = string | number | boolean | null;

/** Schema names are made by the service; this refuses anything else before it reaches SQL. */
export const SAFE_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

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
  const columns = data.schema.fields.map((f) => `"${f.name}" ${sqlTypeOf(String(f.type))}`);
  return `CREATE TABLE ${name} (${columns.join(', ')})`;
}

function sqlTypeOf(arrowType: string): string {
  if (arrowType.startsWith('Int')) return 'INTEGER';
  if (arrowType === 'Bool') return 'BOOLEAN';
  return 'VARCHAR';
}

type MaybePromise<T> = T | Promise<T>;

/** What DuckDB-WASM's two connections share: the async one (data worker) and the blocking one (Node tests). */
export interface DuckDbConnection {
  query(sql: string): MaybePromise<unknown>;
  prepare(sql: string): MaybePromise<DuckDbStatement>;
  close(): MaybePromise<unknown>;
}

interface DuckDbStatement {
  query(...params: SqlValue[]): MaybePromise<{ toArray(): Array<{ toJSON(): Record<string, unknown> }> }>;
  close(): MaybePromise<unknown>;
}

/**
 * Starts the console's own database with copies of a session's tables in a schema of that name
 * (the browser: a DuckDB-WASM worker of its own, console-duckdb.ts), so that Cancel can end it.
 */
export type StartConsoleDatabase = (schema: string, tables: ConsoleTableCopy[]) => Promise<ConsoleDatabase>;

// Offline: an autoloaded extension would be fetched from DuckDB's servers and crash the wasm.
// No file, URL or extension is ever read by SQL (tables come in as Arrow), and the SQL console
// must not: DuckDB refuses to turn external access back on once it is off.
const CLOSED_TO_THE_OUTSIDE =
  'SET autoinstall_known_extensions=false; SET autoload_known_extensions=false; SET enable_external_access=false';

type InsertRows<C> = (conn: C, name: string, data: Table) => MaybePromise<unknown>;

/** Opens the schema every session and console works in: outside access off first. */
async function openSchema(conn: DuckDbConnection, schema: string): Promise<void> {
  if (!SAFE_IDENTIFIER.test(schema)) throw new Error(`bad schema name ${schema}`);
  await conn.query(CLOSED_TO_THE_OUTSIDE);
  await conn.query(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path = '${schema}'`);
}

/** A table from Arrow, rows or none (an empty one is created by SQL). */
async function putTable<C extends DuckDbConnection>(
  conn: C,
  name: string,
  data: Table,
  insertRows: InsertRows<C>,
): Promise<void> {
  if (data.numRows > 0) await insertRows(conn, name, data);
  else await conn.query(emptyTableSql(quoted(name), data));
}

/** Fills a console database the way a session fills its schema. */
export async function fillConsoleDatabase<C extends DuckDbConnection>(
  conn: C,
  schema: string,
  tables: readonly ConsoleTableCopy[],
  insertRows: InsertRows<C>,
): Promise<void> {
  await openSchema(conn, schema);
  for (const { name, data } of tables) await putTable(conn, name, data, insertRows);
}

/** Checked first that it is one statement (DuckDB prepares one only, so a ";" cannot add a second), then run. */
export async function oneStatement<C extends DuckDbConnection>(
  conn: C,
  sql: string,
  run: (conn: C, sql: string) => Promise<Table>,
): Promise<Table> {
  await (await conn.prepare(sql)).close();
  return run(conn, sql);
}

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Every table of a schema as Arrow, read on a connection of its own. */
async function copyTables<C extends DuckDbConnection>(
  connect: () => MaybePromise<C>,
  schema: string,
): Promise<ConsoleTableCopy[]> {
  const conn = await connect();
  try {
    const names = (await conn.query(
      `SELECT table_name FROM duckdb_tables() WHERE schema_name = '${schema}' ORDER BY table_name`,
    )) as Table;
    const copies: ConsoleTableCopy[] = [];
    for (const row of names.toArray() as { table_name: string }[]) {
      const name = row.table_name;
      copies.push({ name, data: (await conn.query(`SELECT * FROM ${schema}.${quoted(name)}`)) as Table });
    }
    return copies;
  } finally {
    await conn.close();
  }
}

/**
 * One explorer session over a DuckDB-WASM connection: its own schema, extensions never fetched.
 * `insertRows` is the engine's Arrow insert (a table in the browser, an IPC stream in Node).
 */
export async function duckDbSession<C extends DuckDbConnection>(
  schema: string,
  connect: () => MaybePromise<C>,
  insertRows: InsertRows<C>,
  startConsole?: StartConsoleDatabase,
): Promise<SqlSession> {
  if (!SAFE_IDENTIFIER.test(schema)) throw new Error(`bad schema name ${schema}`);
  const conn = await connect();
  await openSchema(conn, schema);
  // With a database of its own (the browser) the console can be cancelled; without (the Node
  // tests) it runs on a connection of its own here and cannot.
  let isolated: ReturnType<typeof isolatedConsole> | undefined;
  let consoleConn: Promise<C> | undefined;
  // One query at a time on the console's connection: DuckDB-WASM mixes up the results of two.
  let consoleTurn: Promise<unknown> = Promise.resolve();
  const openConsole = async (): Promise<C> => {
    const c = await connect();
    await c.query(`SET search_path = '${schema}'`);
    return c;
  };
  const sameDatabaseConsole = (): ConsoleEngine => ({
    query(sql) {
      const run = async (): Promise<Table> => {
        consoleConn ??= openConsole();
        return oneStatement(await consoleConn, sql, async (c, q) => (await c.query(q)) as Table);
      };
      const result = consoleTurn.then(run, run);
      consoleTurn = result.catch(() => undefined);
      return result;
    },
    cancel: async () => false,
  });
  return {
    async console(): Promise<ConsoleEngine> {
      if (!startConsole) return sameDatabaseConsole();
      isolated ??= isolatedConsole(async () => startConsole(schema, await copyTables(connect, schema)));
      return isolated;
    },
    async exec(sql) {
      await conn.query(sql);
    },
    async all<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
      const stmt = await conn.prepare(sql);
      try {
        const result = await stmt.query(...params);
        return result.toArray().map((r) => plainRow(r.toJSON()) as T);
      } finally {
        await stmt.close();
      }
    },
    async insertArrow(name: string, data: Table) {
      await putTable(conn, name, data, insertRows);
    },
    async close() {
      await isolated?.close();
      if (consoleConn) await (await consoleConn).close();
      await conn.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await conn.close();
    },
  };
}
