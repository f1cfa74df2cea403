/**
 * DuckDB-WASM in Node (the blocking bundle, the same wasm the browser runs) behind the
 * explorer's SqlDatabase, for tests that run the data worker's service in vitest.
 * insertArrowTable is a silent no-op in this bundle, so tables go in as Arrow IPC streams.
 */
import path from 'node:path';
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import { tableToIPC } from 'apache-arrow';
import { duckDbSession, type SqlDatabase } from '../../src/core/explorer/sql.ts';

const dist = path.resolve(import.meta.dirname, '../../node_modules/@duckdb/duckdb-wasm/dist');

export async function startNodeDuckDb(): Promise<SqlDatabase> {
  const db = await duckdb.createDuckDB(
    {
      mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: '' },
      eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: '' },
    },
    new duckdb.VoidLogger(),
    duckdb.NODE_RUNTIME,
  );
  await db.instantiate();
  return {
    session: (schema) =>
      duckDbSession(
        schema,
        () => db.connect(),
        (conn, name, data) => conn.insertArrowFromIPCStream(tableToIPC(data, 'stream'), { name, schema, create: true }),
      ),
  };
}
