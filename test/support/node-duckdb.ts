/**
 * DuckDB-WASM in Node (the blocking bundle, the same wasm the browser runs) behind the
 * explorer's SqlDatabase, for tests that run the data worker's service in vitest.
 * insertArrowTable is a silent no-op in this bundle, so tables go in as Arrow IPC streams.
 */
import path from 'node:path';
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import { tableToIPC, type Table } from 'apache-arrow';
import {
  plainRow,
  SAFE_IDENTIFIER,
  emptyTableSql,
  type SqlDatabase,
  type SqlSession,
  type SqlValue,
} from '../../src/core/explorer/sql.ts';

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
    async session(schema: string): Promise<SqlSession> {
      if (!SAFE_IDENTIFIER.test(schema)) throw new Error(`bad schema name ${schema}`);
      const conn = db.connect();
      conn.query('SET autoinstall_known_extensions=false; SET autoload_known_extensions=false');
      conn.query(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path = '${schema}'`);
      return {
        async exec(sql) {
          conn.query(sql);
        },
        async all<T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
          const stmt = conn.prepare(sql);
          try {
            return stmt
              .query(...params)
              .toArray()
              .map((r: { toJSON(): Record<string, unknown> }) => plainRow(r.toJSON()) as T);
          } finally {
            stmt.close();
          }
        },
        async insertArrow(name: string, data: Table) {
          if (data.numRows > 0) {
            conn.insertArrowFromIPCStream(tableToIPC(data, 'stream'), { name, schema, create: true });
            return;
          }
          conn.query(emptyTableSql(name, data));
        },
        async close() {
          conn.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          conn.close();
        },
      };
    },
  };
}
