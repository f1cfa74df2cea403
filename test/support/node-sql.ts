/**
 * One explorer session (a schema of its own) over duckdb-wasm's Node build, for unit tests of the
 * SQL: the same engine and version the data worker runs in the browser.
 */
import type { SqlSession } from '../../src/core/explorer/sql.ts';
import { startNodeDuckDb } from './node-duckdb.ts';

let sessions = 0;

/** A fresh in-memory database with one session. */
export async function startNodeSql(): Promise<SqlSession> {
  return (await startNodeDuckDb()).session(`test_${++sessions}`);
}
