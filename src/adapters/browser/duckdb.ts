/// <reference lib="webworker" />
import * as duckdb from '@duckdb/duckdb-wasm';
import wasmEh from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import wasmMvp from '@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm?url';
import workerEh from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import workerMvp from '@duckdb/duckdb-wasm/dist/duckdb-browser-mvp.worker.js?url';
import type { Table } from 'apache-arrow';
import {
  plainRow,
  SAFE_IDENTIFIER,
  emptyTableSql,
  type SqlDatabase,
  type SqlSession,
  type SqlValue,
} from '../../core/explorer/sql.ts';

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
    async session(schema: string): Promise<SqlSession> {
      if (!SAFE_IDENTIFIER.test(schema)) throw new Error(`bad schema name ${schema}`);
      const conn = await db.connect();
      // Offline: an autoloaded extension would be fetched from DuckDB's servers and crash the wasm.
      await conn.query('SET autoinstall_known_extensions=false; SET autoload_known_extensions=false');
      await conn.query(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path = '${schema}'`);
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
            await conn.insertArrowTable(data, { name, schema, create: true });
            return;
          }
          await conn.query(emptyTableSql(name, data));
        },
        async close() {
          await conn.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await conn.close();
        },
      };
    },
  };
}
