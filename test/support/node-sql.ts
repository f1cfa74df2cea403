/**
 * The explorer's Sql port over duckdb-wasm's Node build, for unit tests of the SQL: the same engine
 * and version the data worker runs in the browser. Its insertArrowTable silently inserts nothing
 * in Node, so tables go in as Arrow IPC streams.
 */
import * as duckdb from '@duckdb/duckdb-wasm/blocking';
import { tableToIPC, type Table } from 'apache-arrow';
import { createRequire } from 'node:module';
import path from 'node:path';
import { emptyTableSql, plainRow, type Sql, type SqlValue } from '../../src/core/explorer/sql.ts';

const dist = path.dirname(createRequire(import.meta.url).resolve('@duckdb/duckdb-wasm/dist/duckdb-eh.wasm'));

/** A fresh in-memory database. */
export async function startNodeSql(): Promise<Sql & { close(): void }> {
  const db = await duckdb.createDuckDB(
    {
      mvp: {
        mainModule: path.join(dist, 'duckdb-mvp.wasm'),
        mainWorker: path.join(dist, 'duckdb-node-mvp.worker.cjs'),
      },
      eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: path.join(dist, 'duckdb-node-eh.worker.cjs') },
    },
    new duckdb.VoidLogger(),
    duckdb.NODE_RUNTIME,
  );
  await db.instantiate();
  const conn = db.connect();
  // As in the browser: an autoloaded extension would be fetched from DuckDB's servers (and hangs here).
  conn.query('SET autoinstall_known_extensions=false; SET autoload_known_extensions=false');
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
          .map((row: { toJSON(): Record<string, unknown> }) => plainRow(row.toJSON()) as T);
      } finally {
        stmt.close();
      }
    },
    async insertArrow(name: string, data: Table) {
      if (data.numRows === 0) conn.query(emptyTableSql(name, data));
      else conn.insertArrowFromIPCStream(tableToIPC(data, 'stream'), { name, create: true });
    },
    close() {
      conn.close();
      db.reset();
    },
  };
}
