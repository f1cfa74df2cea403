/// <reference lib="webworker" />
import * as duckdb from '@duckdb/duckdb-wasm';
import wasmEh from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import wasmMvp from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import workerEh from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import workerMvp from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import type { Table } from 'apache-arrow';
import { emptyTableSql, plainRow, type Sql, type SqlValue } from '../../core/explorer/sql.ts';

/** The one place that starts DuckDB-WASM. Bundles are served by the app, never a CDN. */
export async function startDuckDb(): Promise<Sql> {
  const bundle = await duckdb.selectBundle({
    mvp: { mainModule: wasmMvp, mainWorker: workerMvp },
    eh: { mainModule: wasmEh, mainWorker: workerEh },
  });
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), new Worker(bundle.mainWorker!));
  await db.instantiate(bundle.mainModule, bundle.pthreadWorker);
  const conn = await db.connect();
  // Offline: an autoloaded extension would be fetched from DuckDB's servers and crash the wasm.
  await conn.query('SET autoinstall_known_extensions=false; SET autoload_known_extensions=false');
  return {
    async exec(sql) {
      await conn.query(sql);
    },
    async all<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
      const stmt = await conn.prepare(sql);
      try {
        const result = await stmt.query(...params);
        return result.toArray().map((r: { toJSON(): Record<string, unknown> }) => plainRow(r.toJSON()) as T);
      } finally {
        await stmt.close();
      }
    },
    async insertArrow(name: string, data: Table) {
      if (data.numRows > 0) {
        await conn.insertArrowTable(data, { name, create: true });
        return;
      }
      await conn.query(emptyTableSql(name, data));
    },
  };
}
