import { placeholders, type Sql } from './sql.ts';
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
