import { Bool, Int32, Table, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
import type { LoadedRelease } from '../release/load.ts';
import { parseRejectionReason } from '../release/schemas.ts';
import type { Task } from '../release/types.ts';
import { SPLITS } from '../release/types.ts';
import type { Sql } from './sql.ts';

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

/** A task's link to a document: the gold and sources tables. */
interface TaskDoc {
  task_id: string;
  split: string;
  doc_id: string;
}

function taskDocTable(rows: readonly TaskDoc[]): Table {
  return fromRows(rows, {
    task_id: ['str', (g) => g.task_id],
    split: ['str', (g) => g.split],
    doc_id: ['str', (g) => g.doc_id],
  });
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

interface TaskRow {
  split: string;
  row_no: number;
  has_key: boolean;
  task: Task;
}

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

/** (Re)creates every table of the explorer from a loaded release. */
export async function createTables(sql: Sql, release: LoadedRelease): Promise<void> {
  for (const name of EXPLORER_TABLES) await sql.exec(`DROP TABLE IF EXISTS ${name}`);

  const taskRows: TaskRow[] = [];
  for (const split of SPLITS) {
    const s = release.splits[split];
    if (!s) continue;
    const keyed = new Map((s.tasks ?? []).map((t) => [t.task_id, t]));
    s.questions.forEach((q, i) => {
      const task = keyed.get(q.task_id);
      taskRows.push({
        split,
        row_no: i,
        has_key: task !== undefined,
        task: task ?? {
          ...q,
          answer: null,
          items: null,
          source_doc_ids: [],
          provenance: { generator_model: '', pipeline_version: '' },
          gold_docs: [],
        },
      });
    });
  }
  if (taskRows.length === 0 && release.pooled) {
    release.pooled.forEach((task, i) => taskRows.push({ split: 'full', row_no: i, has_key: true, task }));
  }
  await sql.insertArrow(
    'tasks',
    fromRows(taskRows, {
      task_id: ['str', (r) => r.task.task_id],
      split: ['str', (r) => r.split],
      row_no: ['int', (r) => r.row_no],
      type: ['str', (r) => r.task.type],
      question: ['str', (r) => r.task.question],
      answer: ['str', (r) => r.task.answer],
      has_key: ['bool', (r) => r.has_key],
      n_gold: ['int', (r) => (r.has_key ? r.task.gold_docs.length : null)],
      n_items: ['int', (r) => r.task.items?.length ?? null],
      pool_size: ['int', (r) => r.task.provenance.pool_size ?? null],
      salience: ['int', (r) => r.task.provenance.salience ?? null],
      target_entity: ['str', (r) => r.task.provenance.target_entity ?? r.task.provenance.bounding_entity ?? null],
      false_element: ['str', (r) => r.task.false_element ?? null],
      source_quality: ['str', () => null],
      items_json: ['str', (r) => json(r.task.items)],
      gold_docs_json: ['str', (r) => json(r.has_key ? r.task.gold_docs : null)],
      source_doc_ids_json: ['str', (r) => json(r.has_key ? r.task.source_doc_ids : null)],
      provenance_json: ['str', (r) => (r.has_key ? json(r.task.provenance) : null)],
    }),
  );
  const gold = taskRows.flatMap((r) =>
    r.task.gold_docs.map((doc_id) => ({ task_id: r.task.task_id, split: r.split, doc_id })),
  );
  await sql.insertArrow('gold', taskDocTable(gold));

  const sources = taskRows.flatMap((r) =>
    r.has_key ? r.task.source_doc_ids.map((doc_id) => ({ task_id: r.task.task_id, split: r.split, doc_id })) : [],
  );
  await sql.insertArrow('sources', taskDocTable(sources));

  const docs = release.docs ?? [];
  await sql.insertArrow(
    'docs',
    fromRows(
      docs.map((d, i) => ({ d, i })),
      {
        doc_id: ['str', ({ d }) => d.doc_id],
        row_no: ['int', ({ i }) => i],
        quality: ['str', ({ d }) => d.quality],
        file_name: ['str', ({ d }) => d.meta.file_name],
        file_type: ['str', ({ d }) => d.meta.file_type],
        online_url: ['str', ({ d }) => d.meta.online_url],
        n_chars: ['int', ({ d }) => d.text.length],
        text: ['str', ({ d }) => d.text],
      },
    ),
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
 * A task's source documents' quality, worst first; run after the docs table is final (the docs
 * parquet is inserted after the other tables).
 */
export async function fillSourceQuality(sql: Sql): Promise<void> {
  await sql.exec(`UPDATE tasks SET source_quality = (
    SELECT CASE WHEN bool_or(d.quality = 'garbage') THEN 'garbage' WHEN bool_or(d.quality = 'degraded') THEN 'degraded'
                WHEN bool_and(d.quality = 'clean') THEN 'clean' ELSE min(d.quality) END
    FROM sources s JOIN docs d ON d.doc_id = s.doc_id WHERE s.task_id = tasks.task_id AND s.split = tasks.split)`);
}
