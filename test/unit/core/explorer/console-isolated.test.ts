/**
 * The console on a database of its own: Cancel settles the running query as cancelled at once,
 * ends that database (the browser terminates its worker) and the next query starts a fresh one.
 * The databases here are stand-ins that never finish a query unless told, like a cross join
 * that DuckDB-WASM would not stop.
 */
import { tableFromArrays, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import {
  CANCELLED_MESSAGE,
  isolatedConsole,
  type ConsoleDatabase,
} from '../../../../src/core/explorer/console-isolated.ts';
import { consoleError, runConsoleQuery } from '../../../../src/core/explorer/sql-console.ts';
import { deferred } from '../../../support/deferred.ts';

interface StandIn extends ConsoleDatabase {
  terminated: boolean;
  queries: string[];
}

function standIns(answer: (sql: string) => Promise<Table>) {
  const started: StandIn[] = [];
  const start = async (): Promise<ConsoleDatabase> => {
    const db: StandIn = {
      terminated: false,
      queries: [],
      query: (sql) => {
        db.queries.push(sql);
        return answer(sql);
      },
      terminate: async () => {
        db.terminated = true;
      },
    };
    started.push(db);
    return db;
  };
  return { started, start };
}

const never = () => new Promise<Table>(() => undefined);
const oneRow = async () => tableFromArrays({ n: Int32Array.from([7]) });

describe('the console on a database of its own', () => {
  it('starts its database on the first query only, and reuses it', async () => {
    const { started, start } = standIns(oneRow);
    const engine = isolatedConsole(start);
    expect(started).toHaveLength(0);
    await engine.query('SELECT 1');
    await engine.query('SELECT 2');
    expect(started).toHaveLength(1);
    expect(started[0]!.queries).toEqual(['SELECT 1', 'SELECT 2']);
  });

  it('Cancel settles a query that would never end as cancelled, ends its database, and the next query runs on a fresh one', async () => {
    const { started, start } = standIns((sql) => (sql.includes('range') ? never() : oneRow()));
    const engine = isolatedConsole(start);
    const running = runConsoleQuery(engine, 'SELECT count(*) FROM range(1e12) a, range(1e12) b');
    await expect.poll(() => started[0]?.queries.length).toBe(1);
    expect(await engine.cancel()).toBe(true);
    const outcome = await running;
    expect(outcome).toEqual({ ok: false, kind: 'cancelled', message: CANCELLED_MESSAGE });
    expect(started[0]!.terminated).toBe(true);

    const next = await runConsoleQuery(engine, 'SELECT 7 AS n');
    expect(next.ok && next.rows).toEqual([[7]]);
    expect(started).toHaveLength(2);
    expect(started[1]!.terminated).toBe(false);
  });

  it('Cancel while the database is still being filled ends it once it starts', async () => {
    const filled = deferred<void>();
    const { started, start } = standIns(never);
    const engine = isolatedConsole(async () => {
      await filled.promise;
      return start();
    });
    const running = engine.query('SELECT 1');
    await Promise.resolve();
    expect(await engine.cancel()).toBe(true);
    await expect(running).rejects.toThrow(CANCELLED_MESSAGE);
    filled.resolve();
    await expect.poll(() => started[0]?.terminated).toBe(true);
  });

  it('has nothing to cancel when no query runs, and keeps its database', async () => {
    const { started, start } = standIns(oneRow);
    const engine = isolatedConsole(start);
    expect(await engine.cancel()).toBe(false);
    await engine.query('SELECT 1');
    expect(await engine.cancel()).toBe(false);
    expect(started[0]!.terminated).toBe(false);
  });

  it('a database that fails to start is tried again on the next query', async () => {
    let attempts = 0;
    const { start } = standIns(oneRow);
    const engine = isolatedConsole(async () => {
      if (++attempts === 1) throw new Error('out of memory');
      return start();
    });
    await expect(engine.query('SELECT 1')).rejects.toThrow('out of memory');
    await expect(engine.query('SELECT 1')).resolves.toBeDefined();
  });

  it('words the cancellation as the console shows it', () => {
    expect(consoleError(new Error(CANCELLED_MESSAGE), 'SELECT 1').kind).toBe('cancelled');
  });
});
