import { funnel, type FunnelRow } from './rejection-queries.ts';
import type { Sql } from './sql.ts';

/** The figures a dataset card states, recomputed from the loaded files. */
export interface ReleaseStats {
  tasks: Array<{ split: string; type: string; count: number }>;
  candidates: number;
  rejected: number;
  rejectedByStage: Record<string, number>;
  adjudicationCategories: Record<string, number>;
  dropped: number;
  droppedByReason: Record<string, number>;
  docs: number;
  docsByQuality: Record<string, number>;
  funnel: FunnelRow[];
  has: { candidates: boolean; docs: boolean };
}

const record = (rows: Array<{ k: string; n: number }>) => Object.fromEntries(rows.map((r) => [r.k, r.n]));

export async function releaseStats(sql: Sql): Promise<ReleaseStats> {
  const one = async (q: string) => (await sql.all<{ n: number }>(q))[0]?.n ?? 0;
  const candidates = await one('SELECT count(*)::INTEGER AS n FROM candidates');
  const docs = await one('SELECT count(*)::INTEGER AS n FROM docs');
  return {
    // Per split and type, in first-seen order, as the manifest counts them.
    tasks: await sql.all(
      'SELECT split, type, count(*)::INTEGER AS count FROM tasks GROUP BY split, type ORDER BY split, min(row_no)',
    ),
    candidates,
    rejected: await one('SELECT count(*)::INTEGER AS n FROM rejected'),
    rejectedByStage: record(
      await sql.all(`SELECT coalesce(stage, 'error') AS k, count(*)::INTEGER AS n FROM rejected GROUP BY 1`),
    ),
    adjudicationCategories: record(
      await sql.all(
        `SELECT category AS k, count(*)::INTEGER AS n FROM rejected WHERE stage = 'adjudication' GROUP BY 1`,
      ),
    ),
    dropped: await one('SELECT count(*)::INTEGER AS n FROM pool_dropped'),
    droppedByReason: record(await sql.all(`SELECT reason AS k, count(*)::INTEGER AS n FROM pool_dropped GROUP BY 1`)),
    docs,
    docsByQuality: record(await sql.all(`SELECT quality AS k, count(*)::INTEGER AS n FROM docs GROUP BY 1`)),
    funnel: candidates ? await funnel(sql) : [],
    has: { candidates: candidates > 0, docs: docs > 0 },
  };
}
