/// <reference lib="webworker" />
import * as duckdb from '@duckdb/duckdb-wasm';
import wasmEh from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import wasmMvp from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import workerEh from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import workerMvp from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import { Table } from 'apache-arrow';
import type { ConsoleDatabase, ConsoleTableCopy } from '../../core/explorer/console-isolated.ts';
import { duckDbSession, fillConsoleDatabase, oneStatement, type SqlDatabase } from '../../core/explorer/sql.ts';

/** A DuckDB-WASM instance in a worker of its own. Bundles are served by the app, never a CDN. */
async function instantiate(): Promise<duckdb.AsyncDuckDB> {
  const bundle = await duckdb.selectBundle({
    mvp: { mainModule: wasmMvp, mainWorker: workerMvp },
    eh: { mainModule: wasmEh, mainWorker: workerEh },
  });
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), new Worker(bundle.mainWorker!));
  try {
    await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
  } catch (error) {
    await db.terminate();
    throw error;
  }
  return db;
}

/** The console reads its result batch by batch; the row cap bounds it. */
async function streamed(conn: duckdb.AsyncDuckDBConnection, sql: string): Promise<Table> {
  const reader = await conn.send(sql, true);
  const batches = [];
  for await (const batch of reader) batches.push(batch);
  return batches.length > 0 ? new Table(batches) : new Table(reader.schema);
}

/**
 * The SQL console's own DuckDB-WASM (console-isolated.ts): Cancel terminates its worker, which
 * stops any query, and the explorer's database never notices.
 */
async function startConsoleDuckDb(schema: string, tables: ConsoleTableCopy[]): Promise<ConsoleDatabase> {
  const db = await instantiate();
  try {
    const conn = await db.connect();
    await fillConsoleDatabase(conn, schema, tables, (c, name, data) =>
      c.insertArrowTable(data, { name, schema, create: true }),
    );
    return { query: (sql) => oneStatement(conn, sql, streamed), terminate: () => db.terminate() };
  } catch (error) {
    await db.terminate();
    throw error;
  }
}

/**
 * The one place that starts DuckDB-WASM. The data worker imports this module dynamically, so the
 * first view never downloads DuckDB.
 */
export async function startDuckDb(): Promise<SqlDatabase> {
  const db = await instantiate();
  return {
    session: (schema) =>
      duckDbSession(
        schema,
        () => db.connect(),
        (conn, name, data) => conn.insertArrowTable(data, { name, schema, create: true }),
        startConsoleDuckDb,
      ),
  };
}
