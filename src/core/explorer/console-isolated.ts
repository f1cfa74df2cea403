/**
 * The SQL console on a database of its own (in the browser, a DuckDB-WASM worker of its own),
 * started on first use with copies of the release's tables. DuckDB-WASM cannot reliably stop a
 * running query, so Cancel ends that database: the query's promise settles at once as cancelled,
 * and the next query starts a fresh copy. The explorer's own database is never touched.
 */
import type { Table } from 'apache-arrow';
import type { ConsoleEngine } from './sql-console.ts';

/** One table of the release, as the console's database receives it. */
export interface ConsoleTableCopy {
  name: string;
  data: Table;
}

/** A started console database: its tables filled, external access off. */
export interface ConsoleDatabase {
  /** Runs one statement (refusing two); its rows as Arrow. */
  query(sql: string): Promise<Table>;
  /** Ends the database and any query it is running. */
  terminate(): Promise<void>;
}

export const CANCELLED_MESSAGE = 'The query was cancelled.';

/** A console engine whose Cancel ends its database; `start` makes a new one when needed. */
export function isolatedConsole(start: () => Promise<ConsoleDatabase>): ConsoleEngine & { close(): Promise<void> } {
  let database: Promise<ConsoleDatabase> | undefined;
  // One query at a time: a cancelled one settles before the next starts on a fresh database.
  let turn: Promise<unknown> = Promise.resolve();
  let stopRunning: ((error: Error) => void) | undefined;

  const open = (): Promise<ConsoleDatabase> => {
    if (database) return database;
    const started = start();
    database = started;
    started.catch(() => {
      if (database === started) database = undefined;
    });
    return started;
  };
  const end = async (): Promise<void> => {
    const ending = database;
    database = undefined;
    if (ending) await ending.then((db) => db.terminate()).catch(() => undefined);
  };

  return {
    query(sql) {
      const run = async (): Promise<Table> => {
        const stopped = new Promise<never>((_, reject) => (stopRunning = reject));
        try {
          return await Promise.race([open().then((db) => db.query(sql)), stopped]);
        } finally {
          stopRunning = undefined;
        }
      };
      const result = turn.then(run, run);
      turn = result.catch(() => undefined);
      return result;
    },
    async cancel() {
      const stop = stopRunning;
      if (!stop) return false;
      stop(new Error(CANCELLED_MESSAGE));
      // Not awaited: a database still being filled is ended once it starts, without holding Cancel.
      void end();
      return true;
    },
    close: end,
  };
}
