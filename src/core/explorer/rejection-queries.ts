import { placeholders, type Sql, type SqlValue } from './sql.ts';

/** The gauntlet's stages in order, then pooling and what shipped (docs/benchmark-spec.md 1.8). */
export const FUNNEL_STAGES = ['standalone', 'answerability', 'necessity', 'adjudication', 'error', 'pooling'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

export interface FunnelRow {
  type: string;
  candidates: number;
  /** Rejected at each stage ('pooling' = dropped at pooling). */
  rejected: Record<FunnelStage, number>;
  shipped: number;
}

/**
 * Per type: candidates drafted, rejections per stage (from rejected.jsonl), pool drops
 * (pool_dropped.jsonl) and what is left. Shipped is what survives, so it equals the release's
 * tasks only when the logs are complete; the view says when it does not.
 */
export async function funnel(sql: Sql): Promise<FunnelRow[]> {
  const types = await sql.all<{ type: string; n: number }>(
    `SELECT type, count(*)::INTEGER AS n FROM candidates GROUP BY type ORDER BY min(rowid)`,
  );
  const rejected = await sql.all<{ type: string; stage: string; n: number }>(
    `SELECT type, coalesce(stage, 'error') AS stage, count(*)::INTEGER AS n FROM rejected GROUP BY 1, 2`,
  );
  const dropped = await sql.all<{ type: string; n: number }>(
    `SELECT coalesce(c.type, 'unknown') AS type, count(*)::INTEGER AS n FROM pool_dropped p LEFT JOIN candidates c USING (task_id) GROUP BY 1`,
  );
  const allTypes = [...new Set([...types.map((t) => t.type), ...rejected.map((r) => r.type)])];
  return allTypes.map((type) => {
    const candidates = types.find((t) => t.type === type)?.n ?? 0;
    const counts = Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as Record<FunnelStage, number>;
    for (const r of rejected.filter((x) => x.type === type)) {
      const stage = (FUNNEL_STAGES as readonly string[]).includes(r.stage) ? (r.stage as FunnelStage) : 'error';
      counts[stage] += r.n;
    }
    counts.pooling = dropped.find((d) => d.type === type)?.n ?? 0;
    const lost = FUNNEL_STAGES.reduce((sum, s) => sum + counts[s], 0);
    return { type, candidates, rejected: counts, shipped: candidates - lost };
  });
}

export interface RejectionFilter {
  stage?: string[];
  category?: string[];
  type?: string[];
}

export interface RejectionRow {
  task_id: string;
  type: string;
  stage: string;
  category: string | null;
  reason: string;
  question: string | null;
}

export const REJECTION_FACETS = ['stage', 'category', 'type'] as const;
export type RejectionFacet = (typeof REJECTION_FACETS)[number];

/** Rejected candidates and pool drops as one list: stage 'pooling' for the drops. */
const ALL_REJECTIONS = `(
  SELECT r.task_id, r.type, coalesce(r.stage, 'error') AS stage,
         CASE WHEN r.stage = 'error' OR r.stage IS NULL THEN 'error' ELSE r.category END AS category, r.reason
  FROM rejected r
  UNION ALL
  SELECT p.task_id, coalesce(c.type, 'unknown') AS type, 'pooling' AS stage, p.reason AS category, p.reason
  FROM pool_dropped p LEFT JOIN candidates c USING (task_id)
)`;

export interface CandidatePoint {
  task_id: string;
  type: string;
  question: string;
  /** Where the gauntlet stopped it ('pooling': dropped at pooling), or 'shipped'. */
  stage: string;
}

/** Every candidate the generator drafted with where it ended, in the log's order (the map's candidates layer). */
export async function candidatePoints(sql: Sql): Promise<CandidatePoint[]> {
  return sql.all<CandidatePoint>(
    `SELECT c.task_id, c.type, coalesce(c.question, '') AS question, coalesce(a.stage, 'shipped') AS stage
     FROM candidates c LEFT JOIN (SELECT task_id, min(stage) AS stage FROM ${ALL_REJECTIONS} GROUP BY task_id) a
     USING (task_id) ORDER BY c.rowid`,
  );
}

/** Over ALL_REJECTIONS aliased `a` (the list joins candidates, which has a type and a task_id too). */
function rejectionWhere(filter: RejectionFilter, except?: RejectionFacet, ids?: readonly string[]) {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  if (ids) {
    if (ids.length === 0) clauses.push('FALSE');
    else {
      clauses.push(`a.task_id IN (${placeholders(ids.length)})`);
      params.push(...ids);
    }
  }
  for (const facet of REJECTION_FACETS) {
    const values = filter[facet];
    if (facet === except || !values?.length) continue;
    clauses.push(`coalesce(a.${facet}, '—') IN (${placeholders(values.length)})`);
    params.push(...values);
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/** `ids`: restrict to these candidates (free-text hits). */
export async function rejections(
  sql: Sql,
  filter: RejectionFilter,
  offset: number,
  limit: number,
  ids?: readonly string[],
) {
  const w = rejectionWhere(filter, undefined, ids);
  const rows = await sql.all<RejectionRow>(
    `SELECT a.task_id, a.type, a.stage, a.category, a.reason, c.question FROM ${ALL_REJECTIONS} a
     LEFT JOIN candidates c USING (task_id) ${w.sql}
     ORDER BY CASE a.stage WHEN 'standalone' THEN 0 WHEN 'answerability' THEN 1 WHEN 'necessity' THEN 2
       WHEN 'adjudication' THEN 3 WHEN 'error' THEN 4 ELSE 5 END, a.category, a.task_id LIMIT ? OFFSET ?`,
    [...w.params, Math.max(0, Math.min(limit, 10_000)), Math.max(0, offset)],
  );
  const [total] = await sql.all<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM ${ALL_REJECTIONS} a ${w.sql}`,
    w.params,
  );
  const facets = {} as Record<RejectionFacet, Array<{ value: string; count: number }>>;
  for (const facet of REJECTION_FACETS) {
    const fw = rejectionWhere(filter, facet, ids);
    facets[facet] = await sql.all(
      `SELECT coalesce(${facet}, '—') AS value, count(*)::INTEGER AS count FROM ${ALL_REJECTIONS} a ${fw.sql}
       GROUP BY 1 ORDER BY count DESC, value`,
      fw.params,
    );
  }
  return { rows, total: total?.n ?? 0, facets };
}

export interface CandidateDetail {
  task_id: string;
  type: string;
  question: string | null;
  answer: string | null;
  items: Array<{ item: string; doc_ids: string[] }> | null;
  source_doc_ids: string[];
  false_element: string | null;
  provenance: Record<string, unknown> | null;
  /** Where it ended: a gauntlet stage, pooling, or shipped / passed when it was not rejected. */
  outcome: { stage: string; category: string | null; reason: string; saw: string | null; why: string | null } | null;
}

export async function candidateDetail(sql: Sql, taskId: string): Promise<CandidateDetail | undefined> {
  const [c] = await sql.all<{
    task_id: string;
    type: string;
    question: string;
    answer: string | null;
    items_json: string | null;
    source_doc_ids_json: string | null;
    false_element: string | null;
    provenance_json: string | null;
  }>(`SELECT * FROM candidates WHERE task_id = ?`, [taskId]);
  const [r] = await sql.all<{
    stage: string | null;
    category: string | null;
    reason: string;
    saw: string | null;
    why: string | null;
  }>(`SELECT stage, category, reason, saw, why FROM rejected WHERE task_id = ?`, [taskId]);
  const [d] = await sql.all<{ reason: string }>(`SELECT reason FROM pool_dropped WHERE task_id = ?`, [taskId]);
  if (!c && !r && !d) return undefined;
  const parse = <T>(s: string | null | undefined): T | null => (s ? (JSON.parse(s) as T) : null);
  const outcome = r
    ? { stage: r.stage ?? 'error', category: r.category, reason: r.reason, saw: r.saw, why: r.why }
    : d
      ? await poolDropOutcome(sql, taskId, d.reason)
      : null;
  return {
    task_id: taskId,
    type: c?.type ?? 'unknown',
    question: c?.question ?? null,
    answer: c?.answer ?? null,
    items: parse(c?.items_json),
    source_doc_ids: parse<string[]>(c?.source_doc_ids_json) ?? [],
    false_element: c?.false_element ?? null,
    provenance: parse(c?.provenance_json),
    outcome,
  };
}

/** Pool drops have their what-it-saw record in rejection-details (stage error, reason pool:...). */
async function poolDropOutcome(sql: Sql, taskId: string, reason: string) {
  const details = await sql.all<{ saw: string | null; why: string | null }>(
    `SELECT saw, why FROM pool_details WHERE task_id = ?`,
    [taskId],
  );
  return { stage: 'pooling', category: reason, reason, saw: details[0]?.saw ?? null, why: details[0]?.why ?? null };
}
