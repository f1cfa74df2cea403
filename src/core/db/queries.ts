import type { GoldItem, Provenance, TaskType } from '../release/types.ts';
import { placeholders, type Sql, type SqlValue } from './sql.ts';

/** Filters of the Tasks page: OR within a facet, AND across facets. */
export interface TaskFilter {
  split?: string[];
  type?: string[];
  n_gold?: string[];
  source_quality?: string[];
  target_entity?: string[];
  salience?: string[];
  /** Substring match on question and answer (case-insensitive). */
  text?: string;
  /** Restrict to these ids (free-text search results from Orama). */
  ids?: string[];
}

export const TASK_FACETS = ['split', 'type', 'n_gold', 'source_quality', 'target_entity', 'salience'] as const;
export type TaskFacet = (typeof TASK_FACETS)[number];

export const TASK_SORTS = [
  'row_no',
  'task_id',
  'type',
  'split',
  'question',
  'n_gold',
  'pool_size',
  'salience',
] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export interface TaskListRow {
  task_id: string;
  split: string;
  row_no: number;
  type: TaskType;
  question: string;
  answer: string | null;
  has_key: boolean;
  n_gold: number | null;
  n_items: number | null;
  pool_size: number | null;
  salience: number | null;
  target_entity: string | null;
  source_quality: string | null;
}

export interface FacetCount {
  value: string;
  count: number;
}

export interface TaskPage {
  rows: TaskListRow[];
  total: number;
  facets: Record<TaskFacet, FacetCount[]>;
}

/** Facet values as SQL expressions; n_gold is bucketed as text so that "none" is a value. */
const FACET_EXPR: Record<TaskFacet, string> = {
  split: 'split',
  type: 'type',
  n_gold: "CASE WHEN n_gold IS NULL THEN 'no key' WHEN n_gold >= 10 THEN '10+' ELSE CAST(n_gold AS VARCHAR) END",
  source_quality: "coalesce(source_quality, 'n/a')",
  target_entity: 'target_entity',
  salience: 'CAST(salience AS VARCHAR)',
};

function where(filter: TaskFilter, except?: TaskFacet): { sql: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  for (const facet of TASK_FACETS) {
    const values = filter[facet];
    if (facet === except || !values || values.length === 0) continue;
    clauses.push(`(${FACET_EXPR[facet]}) IN (${placeholders(values.length)})`);
    params.push(...values);
  }
  if (filter.text) {
    clauses.push(`(question ILIKE ? OR coalesce(answer, '') ILIKE ? OR task_id = ?)`);
    const like = `%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(like, like, filter.text);
  }
  if (filter.ids) {
    if (filter.ids.length === 0) clauses.push('FALSE');
    else {
      clauses.push(`task_id IN (${placeholders(filter.ids.length)})`);
      params.push(...filter.ids);
    }
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export async function taskPage(
  sql: Sql,
  filter: TaskFilter,
  sort: { by: TaskSort; desc: boolean },
  offset: number,
  limit: number,
): Promise<TaskPage> {
  const by = TASK_SORTS.includes(sort.by) ? sort.by : 'row_no';
  const w = where(filter);
  const order = `${by} ${sort.desc ? 'DESC' : 'ASC'} NULLS LAST, split, row_no`;
  const rows = await sql.all<TaskListRow>(
    `SELECT task_id, split, row_no, type, question, answer, has_key, n_gold, n_items, pool_size, salience, target_entity, source_quality
     FROM tasks ${w.sql} ORDER BY ${order} LIMIT ? OFFSET ?`,
    [...w.params, Math.max(0, Math.min(limit, 10_000)), Math.max(0, offset)],
  );
  const [count] = await sql.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM tasks ${w.sql}`, w.params);
  const facets = {} as Record<TaskFacet, FacetCount[]>;
  for (const facet of TASK_FACETS) {
    const fw = where(filter, facet);
    facets[facet] = await sql.all<FacetCount>(
      `SELECT (${FACET_EXPR[facet]}) AS value, count(*)::INTEGER AS count FROM tasks ${fw.sql}
       GROUP BY 1 HAVING value IS NOT NULL ORDER BY count DESC, value`,
      fw.params,
    );
  }
  return { rows, total: count?.n ?? 0, facets };
}

/** Per split and type, in first-seen order, as the manifest counts them. */
export async function countsBySplitType(sql: Sql): Promise<Array<{ split: string; type: TaskType; count: number }>> {
  return sql.all(
    `SELECT split, type, count(*)::INTEGER AS count, min(row_no) AS first_row FROM tasks GROUP BY split, type ORDER BY split, first_row`,
  );
}

export interface DocRow {
  doc_id: string;
  row_no: number;
  quality: string;
  file_name: string | null;
  file_type: string | null;
  online_url: string | null;
  n_chars: number;
}

export interface TaskDetail extends TaskListRow {
  items: GoldItem[] | null;
  gold_docs: string[] | null;
  source_doc_ids: string[] | null;
  provenance: Provenance | null;
  false_element: string | null;
  /** Corpus rows of the gold docs that the release has (text fetched separately). */
  gold_doc_rows: DocRow[];
  pool: Array<{ doc_id: string; judgement: string; from: string[] }>;
  /** Neighbours in the current list order, for j/k. */
}

export async function taskDetail(sql: Sql, taskId: string, split?: string): Promise<TaskDetail | undefined> {
  const params: SqlValue[] = [taskId];
  const [row] = await sql.all<
    TaskListRow & {
      items_json: string | null;
      gold_docs_json: string | null;
      source_doc_ids_json: string | null;
      provenance_json: string | null;
      false_element: string | null;
    }
  >(
    `SELECT * FROM tasks WHERE task_id = ? ${split ? 'AND split = ?' : ''} ORDER BY split DESC LIMIT 1`,
    split ? [...params, split] : params,
  );
  if (!row) return undefined;
  const parse = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));
  const { items_json, gold_docs_json, source_doc_ids_json, provenance_json, ...rest } = row;
  const gold = parse<string[]>(gold_docs_json);
  const gold_doc_rows = gold && gold.length ? await docsByIds(sql, gold) : [];
  const pool = (
    await sql.all<{ doc_id: string; judgement: string; from_json: string }>(
      `SELECT doc_id, judgement, from_json FROM pool WHERE task_id = ? ORDER BY CASE judgement WHEN 'supports' THEN 0 WHEN 'partial' THEN 1 ELSE 2 END, doc_id`,
      [taskId],
    )
  ).map((p) => ({ doc_id: p.doc_id, judgement: p.judgement, from: JSON.parse(p.from_json) as string[] }));
  return {
    ...rest,
    items: parse<GoldItem[]>(items_json),
    gold_docs: gold,
    source_doc_ids: parse<string[]>(source_doc_ids_json),
    provenance: parse<Provenance>(provenance_json),
    gold_doc_rows,
    pool,
  };
}

export async function docsByIds(sql: Sql, ids: readonly string[]): Promise<DocRow[]> {
  if (ids.length === 0) return [];
  return sql.all<DocRow>(
    `SELECT doc_id, row_no, quality, file_name, file_type, online_url, n_chars FROM docs WHERE doc_id IN (${placeholders(ids.length)}) ORDER BY doc_id`,
    ids,
  );
}

export async function docText(sql: Sql, docId: string): Promise<string | null | undefined> {
  const [row] = await sql.all<{ text: string | null }>(`SELECT text FROM docs WHERE doc_id = ?`, [docId]);
  return row ? row.text : undefined;
}

export interface RejectionRow {
  task_id: string;
  type: string;
  reason: string;
  stage: string | null;
  category: string | null;
  question: string | null;
}

export async function rejections(
  sql: Sql,
  filter: { stage?: string[]; reason?: string[] },
  offset: number,
  limit: number,
) {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  if (filter.stage?.length) {
    clauses.push(`r.stage IN (${placeholders(filter.stage.length)})`);
    params.push(...filter.stage);
  }
  if (filter.reason?.length) {
    clauses.push(`r.reason IN (${placeholders(filter.reason.length)})`);
    params.push(...filter.reason);
  }
  const w = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
  const rows = await sql.all<RejectionRow>(
    `SELECT r.task_id, r.type, r.reason, r.stage, r.category, c.question FROM rejected r LEFT JOIN candidates c USING (task_id) ${w} ORDER BY r.stage, r.reason, r.task_id LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  const byReason = await sql.all<{ reason: string; count: number }>(
    `SELECT reason, count(*)::INTEGER AS count FROM rejected GROUP BY reason ORDER BY count DESC, reason`,
  );
  const [total] = await sql.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM rejected r ${w}`, params);
  return { rows, byReason, total: total?.n ?? 0 };
}
