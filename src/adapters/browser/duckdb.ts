/// <reference lib="webworker" />
import * as duckdb from '@duckdb/duckdb-wasm';
import wasmEh from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import wasmMvp from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import workerEh from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import workerMvp from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import { duckDbSession, type SqlDatabase } from '../../core/explorer/sql.ts';

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
      ),
  };
}
