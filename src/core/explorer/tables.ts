import { Bool, Int32, Table, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
import type { LoadedRelease } from '../release/load.ts';
import { parseRejectionReason } from '../release/schemas.ts';
import type { Sql } from './sql.ts';
import type { DocRecord } from './docs-index.ts';
import { type DocLinkRecord, type TaskRecord, type TaskTables } from './task-records.ts';

type Column = { name: string; type: 'str' | 'int' | 'bool'; values: Array<string | number | boolean | null> };

function table(columns: Column[]): Table {
  const vectors: Record<string, Vector> = {};
  for (const c of columns) {
    vectors[c.name] =
      c.type === 'str'
        ? vectorFromArray(c.values as Array<string | null>, new Utf8())
        : c.type === 'int'
          ? vectorFromArray(c.values as Array<number | null>, new Int32())
          : vectorFromArray(c.values as Array<boolean | null>, new Bool());
  }
  return new Table(vectors);
}

/** Builds columns from row objects; `spec` maps column name to type and getter. */
function fromRows<R>(
  rows: readonly R[],
  spec: Record<string, ['str' | 'int' | 'bool', (r: R) => string | number | boolean | null | undefined]>,
): Table {
  return table(
    Object.entries(spec).map(([name, [type, get]]) => ({ name, type, values: rows.map((r) => get(r) ?? null) })),
  );
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

const TASK_COLUMNS: Record<keyof TaskRecord, 'str' | 'int' | 'bool'> = {
  task_id: 'str',
  split: 'str',
  row_no: 'int',
  type: 'str',
  question: 'str',
  answer: 'str',
  has_key: 'bool',
  n_gold: 'int',
  n_items: 'int',
  pool_size: 'int',
  salience: 'int',
  target_entity: 'str',
  false_element: 'str',
  source_quality: 'str',
  items_json: 'str',
  gold_docs_json: 'str',
  source_doc_ids_json: 'str',
  provenance_json: 'str',
};

const LINK_COLUMNS: Record<string, ['str', (g: DocLinkRecord) => string]> = {
  task_id: ['str', (g) => g.task_id],
  split: ['str', (g) => g.split],
  doc_id: ['str', (g) => g.doc_id],
};

/** Every table of the explorer. */
export const EXPLORER_TABLES = [
  'tasks',
  'gold',
  'sources',
  'docs',
  'candidates',
  'rejected',
  'pool',
  'pool_dropped',
  'pool_details',
  'entities',
  'entity_docs',
] as const;

/**
 * Creates every table of the explorer from a loaded release, in the session's own (empty)
 * schema. `docs` are the corpus rows (docs.jsonl with its text, or docs.parquet's small columns).
 */
export async function createTables(
  sql: Sql,
  release: LoadedRelease,
  tables: TaskTables,
  docs: readonly DocRecord[],
): Promise<void> {
  await sql.insertArrow(
    'tasks',
    table(
      Object.entries(TASK_COLUMNS).map(([name, type]) => ({
        name,
        type,
        values: tables.tasks.map((r) => r[name as keyof TaskRecord]),
      })),
    ),
  );
  await sql.insertArrow('gold', fromRows(tables.gold, LINK_COLUMNS));
  await sql.insertArrow('sources', fromRows(tables.sources, LINK_COLUMNS));

  await sql.insertArrow(
    'docs',
    fromRows(docs, {
      doc_id: ['str', (d) => d.doc_id],
      row_no: ['int', (d) => d.row_no],
      quality: ['str', (d) => d.quality],
      file_name: ['str', (d) => d.file_name],
      file_type: ['str', (d) => d.file_type],
      online_url: ['str', (d) => d.online_url],
      n_chars: ['int', (d) => d.n_chars],
      text: ['str', (d) => d.text],
    }),
  );

  const candidates = release.candidates ?? [];
  await sql.insertArrow(
    'candidates',
    fromRows(candidates, {
      task_id: ['str', (c) => c.task_id],
      type: ['str', (c) => c.type],
      question: ['str', (c) => c.question],
      answer: ['str', (c) => c.answer],
      items_json: ['str', (c) => json(c.items)],
      source_doc_ids_json: ['str', (c) => json(c.source_doc_ids)],
      false_element: ['str', (c) => c.false_element ?? null],
      provenance_json: ['str', (c) => json(c.provenance)],
    }),
  );
  const details = new Map((release.rejectionDetails ?? []).map((d) => [d.task_id, d]));
  await sql.insertArrow(
    'rejected',
    fromRows(release.rejected ?? [], {
      task_id: ['str', (r) => r.task_id],
      type: ['str', (r) => r.type],
      reason: ['str', (r) => r.reason],
      stage: ['str', (r) => parseRejectionReason(r.reason)?.stage ?? null],
      category: ['str', (r) => parseRejectionReason(r.reason)?.category ?? null],
      saw: ['str', (r) => details.get(r.task_id)?.saw ?? null],
      why: ['str', (r) => details.get(r.task_id)?.why ?? null],
    }),
  );
  await sql.insertArrow(
    'pool_details',
    fromRows(
      (release.rejectionDetails ?? []).filter((d) => d.reason.startsWith('pool:')),
      { task_id: ['str', (d) => d.task_id], saw: ['str', (d) => d.saw], why: ['str', (d) => d.why] },
    ),
  );
  await sql.insertArrow(
    'pool',
    fromRows(release.pool ?? [], {
      task_id: ['str', (p) => p.task_id],
      doc_id: ['str', (p) => p.doc_id],
      judgement: ['str', (p) => p.judgement],
      from_json: ['str', (p) => json(p.from)],
    }),
  );
  await sql.insertArrow(
    'pool_dropped',
    fromRows(release.poolDropped ?? [], { task_id: ['str', (p) => p.task_id], reason: ['str', (p) => p.reason] }),
  );
  const entityRows = [
    ...Object.entries(release.targets ?? {}).map(([name, e]) => ({ name, kind: 'target', ...e })),
    ...Object.entries(release.entities ?? {}).map(([name, e]) => ({ name, kind: 'entity', ...e })),
  ];
  await sql.insertArrow(
    'entities',
    fromRows(entityRows, {
      name: ['str', (e) => e.name],
      kind: ['str', (e) => e.kind],
      aliases_json: ['str', (e) => json(e.aliases)],
      doc_ids_json: ['str', (e) => json(e.doc_ids)],
      n_docs: ['int', (e) => e.doc_ids.length],
    }),
  );
  await sql.insertArrow(
    'entity_docs',
    fromRows(
      entityRows.flatMap((e) => e.doc_ids.map((doc_id) => ({ name: e.name, kind: e.kind, doc_id }))),
      { name: ['str', (e) => e.name], kind: ['str', (e) => e.kind], doc_id: ['str', (e) => e.doc_id] },
    ),
  );
}

/**
 * A task's source documents' quality, worst first (sourceQualityOf is the same rule in memory).
 */
export async function fillSourceQuality(sql: Sql): Promise<void> {
  await sql.exec(`UPDATE tasks SET source_quality = (
    SELECT CASE WHEN bool_or(d.quality = 'garbage') THEN 'garbage' WHEN bool_or(d.quality = 'degraded') THEN 'degraded'
                WHEN bool_and(d.quality = 'clean') THEN 'clean' ELSE min(d.quality) END
    FROM sources s JOIN docs d ON d.doc_id = s.doc_id WHERE s.task_id = tasks.task_id AND s.split = tasks.split)`);
}
