import { placeholders, type Sql } from './sql.ts';
import type { DocOpening } from './docs-index.ts';
import type { DocRow } from './task-vocabulary.ts';

export interface DocUse {
  task_id: string;
  split: string;
  type: string;
  question: string;
  /** gold, source, or pool:<judgement> */
  role: string;
}

export interface DocDetail {
  row?: DocRow;
  entities: Array<{ name: string; kind: string }>;
  uses: DocUse[];
}

/** Everything the Document page shows about one document except its text. */
export async function docDetail(sql: Sql, docId: string): Promise<DocDetail> {
  const [row] = await docsByIds(sql, [docId]);
  const entities = await sql.all<{ name: string; kind: string }>(
    `SELECT name, max(kind) AS kind FROM entity_docs WHERE doc_id = ? GROUP BY name ORDER BY max(kind) DESC, name`,
    [docId],
  );
  const uses = await sql.all<DocUse>(
    `SELECT u.task_id, u.split, t.type, t.question, u.role FROM (
       SELECT task_id, split, 'gold' AS role FROM gold WHERE doc_id = ?
       UNION ALL SELECT task_id, split, 'source' AS role FROM sources WHERE doc_id = ?
       UNION ALL SELECT p.task_id, t2.split, 'pool:' || p.judgement AS role FROM pool p
         JOIN tasks t2 ON t2.task_id = p.task_id WHERE p.doc_id = ?
     ) u JOIN tasks t ON t.task_id = u.task_id AND t.split = u.split
     ORDER BY CASE WHEN u.role = 'gold' THEN 0 WHEN u.role = 'source' THEN 1 ELSE 2 END, u.split, t.row_no`,
    [docId, docId, docId],
  );
  return { row, entities, uses };
}

/** Corpus rows by id, sorted by id; unknown ids are left out. */
export async function docsByIds(sql: Sql, ids: readonly string[]): Promise<DocRow[]> {
  if (ids.length === 0) return [];
  return sql.all<DocRow>(
    `SELECT doc_id, row_no, quality, file_name, file_type, online_url, n_chars FROM docs WHERE doc_id IN (${placeholders(ids.length)}) ORDER BY doc_id`,
    ids,
  );
}

/** How many of a split's tasks hold each document in their gold set, and in their pool. */
export interface DocTaskCounts {
  doc_id: string;
  gold: number;
  pool: number;
}

/** Per document used by any task of the split: its gold and pool task counts (the map's documents layer). */
export async function docTaskCounts(sql: Sql, split: string): Promise<DocTaskCounts[]> {
  return sql.all<DocTaskCounts>(
    `SELECT doc_id, count(DISTINCT task_id) FILTER (WHERE role = 'gold')::INTEGER AS gold,
            count(DISTINCT task_id) FILTER (WHERE role = 'pool')::INTEGER AS pool
     FROM (SELECT doc_id, task_id, 'gold' AS role FROM gold WHERE split = ?
           UNION ALL SELECT p.doc_id, p.task_id, 'pool' AS role FROM pool p
             JOIN tasks t ON t.task_id = p.task_id AND t.split = ?)
     GROUP BY doc_id ORDER BY doc_id`,
    [split, split],
  );
}

/** A point of the map's documents layer. */
export interface DocPoint extends DocOpening {
  gold: number;
  pool: number;
}
export interface DocPoints {
  /** Documents in the corpus (the layer may hold only the first ones). */
  total: number;
  points: DocPoint[];
}
