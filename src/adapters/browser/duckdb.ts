/// <reference lib="webworker" />
import * as duckdb from '@duckdb/duckdb-wasm';
import wasmEh from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import wasmMvp from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import workerEh from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import workerMvp from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import { Table } from 'apache-arrow';
import { duckDbSession, type ConsoleRunner, type SqlDatabase } from '../../core/explorer/sql.ts';

/**
 * The console sends its query (DuckDB-WASM can cancel only a sent query) and reads its result
 * batch by batch; the row cap bounds it.
 */
const consoleRunner: ConsoleRunner<duckdb.AsyncDuckDBConnection> = {
  async query(conn, sql) {
    const reader = await conn.send(sql, true);
    const batches = [];
    for await (const batch of reader) batches.push(batch);
    return batches.length > 0 ? new Table(batches) : new Table(reader.schema);
  },
  cancel: (conn) => conn.cancelSent(),
};

/**
 * The one place that starts DuckDB-WASM. Bundles are served by the app, never a CDN. The data
 * worker imports this module dynamically, so the first view never downloads DuckDB.
 */
export async function startDuckDb(): Promise<SqlDatabase> {
  const bundle = await duckdb.selectBundle({
    mvp: { mainModule: wasmMvp, mainWorker: workerMvp },
    eh: { mainModule: wasmEh, mainWorker: workerEh },
  });
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), new Worker(bundle.mainWorker!));
  await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
  return {
    session: (schema) =>
      duckDbSession(
        schema,
        () => db.connect(),
        (conn, name, data) => conn.insertArrowTable(data, { name, schema, create: true }),
        consoleRunner,
      ),
  };
}
