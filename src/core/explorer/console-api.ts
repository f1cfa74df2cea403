/**
 * The data worker's SQL console calls: the service hands over its way to reach the shown
 * release's session, and this module (loaded with the first console call) does the rest.
 */
import type { SqlSession } from './sql.ts';
import type { ConsoleOutcome, ConsoleTable } from './sql-console.ts';

type WithSql = <T>(run: (sql: SqlSession) => Promise<T>) => Promise<T>;

export function consoleApi(withSql: WithSql) {
  const module = () => import('./sql-console.ts');
  return {
    /** The release's tables with their columns and row counts. */
    async sqlTables(): Promise<ConsoleTable[]> {
      const { consoleTables } = await module();
      return withSql(async (sql) => consoleTables(await sql.console()));
    },
    /** Runs one read-only query; at most `cap` rows (default 10,000). */
    async sqlQuery(query: string, cap?: number): Promise<ConsoleOutcome> {
      const { refusalOf, runConsoleQuery } = await module();
      // Refused at once, without waiting for the engine.
      const refused = refusalOf(query);
      if (refused) return { ok: false, kind: 'refused', message: refused };
      return withSql(async (sql) => runConsoleQuery(await sql.console(), query, cap));
    },
    /** Stops the running console query; false when none could be stopped. */
    async sqlCancel(): Promise<boolean> {
      return withSql(async (sql) => (await sql.console()).cancel());
    },
  };
}
