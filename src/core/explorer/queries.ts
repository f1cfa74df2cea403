import type { GoldItem, Provenance, TaskType } from '../release/types.ts';
import { placeholders, type Sql, type SqlValue } from './sql.ts';
import { parseTaskColumns, type TaskJsonColumns, type TaskListRow } from './task-records.ts';

/** Filters of the Tasks page: OR within a facet, AND across facets. */
export interface TaskFilter {
  split?: string[];
  type?: string[];
  n_gold?: string[];
  pool_size?: string[];
  source_quality?: string[];
  target_entity?: string[];
  salience?: string[];
  /** Substring match on question and answer (case-insensitive); the fallback when no search index is given. */
  text?: string;
  /** A table of `split:task_id` keys holding the free-text search hits (Orama, in the worker). */
  hitsTable?: string;
  /** The search text itself, so that a pasted task id still matches. */
  hitsText?: string;
  /** Restrict to these ids. */
  ids?: string[];
}

export const TASK_FACETS = [
  'type',
  'split',
  'n_gold',
  'pool_size',
  'target_entity',
  'salience',
  'source_quality',
] as const;
export type TaskFacet = (typeof TASK_FACETS)[number];

export const TASK_SORTS = [
  'row_no',
  'task_id',
  'type',
  'split',
  'question',
  'answer',
  'n_gold',
  'pool_size',
  'salience',
  'target_entity',
  'source_quality',
] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export type { TaskListRow } from './task-records.ts';

export interface FacetCount {
  value: string;
  count: number;
}

export interface TaskPage {
  rows: TaskListRow[];
  total: number;
  facets: Record<TaskFacet, FacetCount[]>;
}

export interface TaskOrder {
  by: TaskSort;
  desc: boolean;
}

/** Facet values as SQL expressions; numbers are bucketed as text so that "none" is a value. */
const FACET_EXPR: Record<TaskFacet, string> = {
  split: 'split',
  type: 'type',
  n_gold: "CASE WHEN n_gold IS NULL THEN 'no key' WHEN n_gold >= 10 THEN '10+' ELSE CAST(n_gold AS VARCHAR) END",
  pool_size:
    "CASE WHEN pool_size IS NULL THEN 'none' WHEN pool_size < 20 THEN '<20' WHEN pool_size < 30 THEN '20-29' WHEN pool_size < 50 THEN '30-49' ELSE '50+' END",
  source_quality: "coalesce(source_quality, 'n/a')",
  target_entity: 'target_entity',
  salience: 'CAST(salience AS VARCHAR)',
};

/** Buckets in their natural order (facets of counts sort by count otherwise). */
const FACET_ORDER: Partial<Record<TaskFacet, string>> = {
  n_gold: "CASE value WHEN 'no key' THEN 99 WHEN '10+' THEN 10 ELSE TRY_CAST(value AS INTEGER) END",
  pool_size: "CASE value WHEN '<20' THEN 0 WHEN '20-29' THEN 1 WHEN '30-49' THEN 2 WHEN '50+' THEN 3 ELSE 9 END",
  salience: 'TRY_CAST(value AS INTEGER)',
};

const SAFE_TABLE = /^[a-z_][a-z0-9_]*$/;
/** What a pasted task id looks like: its 8-character prefix as the list shows it, or more of it. */
export const TASK_ID_PREFIX = /^[0-9a-f][0-9a-f-]{5,35}$/i;
/** A document id as the benchmark writes them (EFTA00138265, SMPL00041989). */
export const DOC_ID = /^[A-Z]{2,8}\d{5,}$/i;

/**
 * The id matches of a search text: the task whose id it is or starts with, and the tasks that
 * use the document it names (gold, source or pool).
 */
function idClauses(text: string): { sql: string[]; params: SqlValue[] } {
  const t = text.trim();
  const sql = ['task_id = ?'];
  const params: SqlValue[] = [t];
  if (TASK_ID_PREFIX.test(t)) {
    sql.push('starts_with(task_id, ?)');
    params.push(t.toLowerCase());
  }
  if (DOC_ID.test(t)) {
    const id = t.toUpperCase();
    const quoted = `%"${id}"%`;
    sql.push(
      "coalesce(gold_docs_json, '') LIKE ?",
      "coalesce(source_doc_ids_json, '') LIKE ?",
      'task_id IN (SELECT task_id FROM pool WHERE doc_id = ?)',
    );
    params.push(quoted, quoted, id);
  }
  return { sql, params };
}

function where(filter: TaskFilter, except?: TaskFacet): { sql: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  for (const facet of TASK_FACETS) {
    const values = filter[facet];
    if (facet === except || !values || values.length === 0) continue;
    clauses.push(`(${FACET_EXPR[facet]}) IN (${placeholders(values.length)})`);
    params.push(...values);
  }
  if (filter.hitsTable !== undefined) {
    if (!SAFE_TABLE.test(filter.hitsTable)) throw new Error(`bad hits table name ${filter.hitsTable}`);
    const ids = idClauses(filter.hitsText ?? '');
    clauses.push(`(split || ':' || task_id IN (SELECT key FROM ${filter.hitsTable}) OR ${ids.sql.join(' OR ')})`);
    params.push(...ids.params);
  } else if (filter.text) {
    const ids = idClauses(filter.text);
    clauses.push(
      `(question ILIKE ? ESCAPE '\\' OR coalesce(answer, '') ILIKE ? ESCAPE '\\' OR ${ids.sql.join(' OR ')})`,
    );
    const like = `%${filter.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(like, like, ...ids.params);
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

function orderBy(sort: TaskOrder): string {
  const by = TASK_SORTS.includes(sort.by) ? sort.by : 'row_no';
  return `${by} ${sort.desc ? 'DESC' : 'ASC'} NULLS LAST, split, row_no`;
}

const LIST_COLUMNS =
  'task_id, split, row_no, type, question, answer, has_key, n_gold, n_items, pool_size, salience, target_entity, source_quality';

/** One page of the filtered, sorted list and the list's length. */
export async function taskRows(
  sql: Sql,
  filter: TaskFilter,
  sort: TaskOrder,
  offset: number,
  limit: number,
): Promise<{ rows: TaskListRow[]; total: number }> {
  const w = where(filter);
  const rows = await sql.all<TaskListRow>(
    `SELECT ${LIST_COLUMNS} FROM tasks ${w.sql} ORDER BY ${orderBy(sort)} LIMIT ? OFFSET ?`,
    [...w.params, Math.max(0, Math.min(limit, 10_000)), Math.max(0, offset)],
  );
  const [count] = await sql.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM tasks ${w.sql}`, w.params);
  return { rows, total: count?.n ?? 0 };
}

/** Live counts: each facet counted under every filter except its own (OR within, AND across). */
export async function taskFacets(sql: Sql, filter: TaskFilter): Promise<Record<TaskFacet, FacetCount[]>> {
  const facets = {} as Record<TaskFacet, FacetCount[]>;
  for (const facet of TASK_FACETS) {
    const fw = where(filter, facet);
    const order = FACET_ORDER[facet];
    facets[facet] = await sql.all<FacetCount>(
      `SELECT * FROM (SELECT (${FACET_EXPR[facet]}) AS value, count(*)::INTEGER AS count FROM tasks ${fw.sql}
       GROUP BY 1 HAVING value IS NOT NULL) ORDER BY ${order ? `${order}, ` : 'count DESC, '}value`,
      fw.params,
    );
  }
  return facets;
}

export async function taskPage(
  sql: Sql,
  filter: TaskFilter,
  sort: TaskOrder,
  offset: number,
  limit: number,
): Promise<TaskPage> {
  const { rows, total } = await taskRows(sql, filter, sort, offset, limit);
  return { rows, total, facets: await taskFacets(sql, filter) };
}

export interface TaskNeighbours {
  /** 1-based position in the list, or undefined when the task is not in it. */
  position?: number;
  total: number;
  prev?: { task_id: string; split: string };
  next?: { task_id: string; split: string };
}

/** Where a task sits in the current filtered, sorted list, and the tasks before and after it (j/k). */
export async function taskNeighbours(
  sql: Sql,
  filter: TaskFilter,
  sort: TaskOrder,
  taskId: string,
  split: string,
): Promise<TaskNeighbours> {
  const w = where(filter);
  const list = `WITH l AS (SELECT task_id, split, (row_number() OVER (ORDER BY ${orderBy(sort)}))::INTEGER AS i FROM tasks ${w.sql})`;
  const [me] = await sql.all<{ i: number }>(`${list} SELECT i FROM l WHERE task_id = ? AND split = ?`, [
    ...w.params,
    taskId,
    split,
  ]);
  const [count] = await sql.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM tasks ${w.sql}`, w.params);
  const total = count?.n ?? 0;
  if (!me) return { total };
  const around = await sql.all<{ task_id: string; split: string; i: number }>(
    `${list} SELECT task_id, split, i FROM l WHERE i IN (?, ?)`,
    [...w.params, me.i - 1, me.i + 1],
  );
  const pick = (i: number) => {
    const r = around.find((a) => a.i === i);
    return r ? { task_id: r.task_id, split: r.split } : undefined;
  };
  return { position: me.i, total, prev: pick(me.i - 1), next: pick(me.i + 1) };
}

/** Per split and type, in first-seen order, as the manifest counts them. */
export async function countsBySplitType(sql: Sql): Promise<Array<{ split: string; type: TaskType; count: number }>> {
  return sql.all(
    `SELECT split, type, count(*)::INTEGER AS count FROM tasks GROUP BY split, type ORDER BY split, min(row_no)`,
  );
}

export interface DocRow {
  doc_id: string;
  row_no: number;
  quality: string;
  file_name: string | null;
  file_type: string | null;
  online_url: string | null;
  /** Null when docs.parquet has no n_chars column. */
  n_chars: number | null;
}

export interface TaskDetail extends TaskListRow {
  items: GoldItem[] | null;
  gold_docs: string[] | null;
  source_doc_ids: string[] | null;
  provenance: Provenance | null;
  false_element: string | null;
  /** Corpus rows of the gold docs that the release has (text fetched separately). */
  gold_doc_rows: DocRow[];
  source_doc_rows: DocRow[];
  pool: Array<{ doc_id: string; judgement: string; from: string[]; quality: string | null }>;
  /** The page's first answer (taskBrief): the task's own columns; document rows and the pool come with the full one. */
  partial?: boolean;
}

export async function taskDetail(sql: Sql, taskId: string, split?: string): Promise<TaskDetail | undefined> {
  const params: SqlValue[] = [taskId];
  const [row] = await sql.all<TaskListRow & TaskJsonColumns & { false_element: string | null }>(
    `SELECT * FROM tasks WHERE task_id = ? ${split ? 'AND split = ?' : ''} ORDER BY split DESC LIMIT 1`,
    split ? [...params, split] : params,
  );
  if (!row) return undefined;
  const { rest, parsed } = parseTaskColumns(row);
  const gold = parsed.gold_docs;
  const gold_doc_rows = gold && gold.length ? await docsByIds(sql, gold) : [];
  const sources = parsed.source_doc_ids;
  const source_doc_rows = sources && sources.length ? await docsByIds(sql, sources) : [];
  const pool = (
    await sql.all<{ doc_id: string; judgement: string; from_json: string; quality: string | null }>(
      `SELECT p.doc_id, p.judgement, p.from_json, d.quality FROM pool p LEFT JOIN docs d ON d.doc_id = p.doc_id WHERE p.task_id = ?
       ORDER BY CASE p.judgement WHEN 'supports' THEN 0 WHEN 'partial' THEN 1 ELSE 2 END, p.doc_id`,
      [taskId],
    )
  ).map((p) => ({
    doc_id: p.doc_id,
    judgement: p.judgement,
    from: JSON.parse(p.from_json) as string[],
    quality: p.quality,
  }));
  return { ...rest, ...parsed, gold_doc_rows, source_doc_rows, pool };
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
