/**
 * DuckDB-WASM in Node (the blocking bundle, the same wasm the browser runs) behind the
 * explorer's SqlDatabase, for tests that run the data worker's service in vitest.
 * insertArrowTable is a silent no-op in this bundle, so tables go in as Arrow IPC streams.
 * With ownConsole, the SQL console gets a database of its own filled with copies of the
 * release's tables, as in the browser (there a worker of its own, which Cancel terminates).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import { tableToIPC, type Table } from 'apache-arrow';
import type { ConsoleDatabase, ConsoleTableCopy } from '../../src/core/explorer/console-isolated.ts';
import { duckDbSession, fillConsoleDatabase, oneStatement, type SqlDatabase } from '../../src/core/explorer/sql.ts';

/**
 * The blocking bundle is CommonJS and requires Arrow's CommonJS build: tables it returns (the
 * console's copies) must be written by that build, as the ES build's writer does not know them.
 */
const arrowOfDuckDb = createRequire(import.meta.url)('apache-arrow') as { tableToIPC: typeof tableToIPC };

const dist = path.resolve(import.meta.dirname, '../../node_modules/@duckdb/duckdb-wasm/dist');

async function instantiate(): Promise<duckdb.DuckDBBindings> {
  const db = await duckdb.createDuckDB(
    {
      mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: '' },
      eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: '' },
    },
    new duckdb.VoidLogger(),
    duckdb.NODE_RUNTIME,
  );
  await db.instantiate();
  return db;
}

const insertIpc = (conn: duckdb.DuckDBConnection, name: string, data: Table, schema: string) =>
  conn.insertArrowFromIPCStream(tableToIPC(data, 'stream'), { name, schema, create: true });

async function startConsoleDb(schema: string, tables: ConsoleTableCopy[]): Promise<ConsoleDatabase> {
  const db = await instantiate();
  const conn = db.connect();
  await fillConsoleDatabase(conn, schema, tables, (c, name, data) =>
    c.insertArrowFromIPCStream(arrowOfDuckDb.tableToIPC(data, 'stream'), { name, schema, create: true }),
  );
  return {
    query: (sql) => oneStatement(conn, sql, async (c, q) => c.query(q)),
    terminate: async () => conn.close(),
  };
}

export async function startNodeDuckDb(options: { ownConsole?: boolean } = {}): Promise<SqlDatabase> {
  const db = await instantiate();
  return {
    session: (schema) =>
      duckDbSession(
        schema,
        () => db.connect(),
        (conn, name, data) => insertIpc(conn, name, data, schema),
        options.ownConsole ? startConsoleDb : undefined,
      ),
  };
}
