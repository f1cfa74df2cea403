/**
 * The rows of the explorer's tasks table, computed once from a loaded release: DuckDB's tasks
 * table is filled from them and the in-memory task store answers from them, so both hold the
 * same values (including Int32 truncation of numbers and the JSON text of nested fields).
 */
import type { LoadedRelease } from '../release/load.ts';
import type { GoldItem, Provenance, Task, TaskType } from '../release/types.ts';
import { SPLITS } from '../release/types.ts';

/** A row of the tasks table: what the task list shows and filters on. */
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

/** The nested fields of a task, kept as JSON text in the tasks table. */
export interface TaskJsonColumns {
  items_json: string | null;
  gold_docs_json: string | null;
  source_doc_ids_json: string | null;
  provenance_json: string | null;
}

export interface TaskRecord extends Omit<TaskListRow, 'type' | 'source_quality'>, TaskJsonColumns {
  type: string;
  false_element: string | null;
  /** Filled after the documents are known (fillSourceQuality / the store's own rule). */
  source_quality: string | null;
}

/** A task row with its JSON columns parsed (as TaskDetail holds them) and the other columns apart. */
export function parseTaskColumns<R extends TaskJsonColumns>(row: R) {
  const parse = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));
  const { items_json, gold_docs_json, source_doc_ids_json, provenance_json, ...rest } = row;
  return {
    rest,
    parsed: {
      items: parse<GoldItem[]>(items_json),
      gold_docs: parse<string[]>(gold_docs_json),
      source_doc_ids: parse<string[]>(source_doc_ids_json),
      provenance: parse<Provenance>(provenance_json),
    },
  };
}

/** One (task, split, doc) link of the gold or sources table. */
export interface DocLinkRecord {
  task_id: string;
  split: string;
  doc_id: string;
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
/** What an Int32 Arrow column keeps of a number. */
const int32 = (v: number | null | undefined) => (v === undefined || v === null ? null : v | 0);

interface Keyed {
  split: string;
  row_no: number;
  has_key: boolean;
  task: Task;
}

function keyedTasks(release: LoadedRelease): Keyed[] {
  const out: Keyed[] = [];
  for (const split of SPLITS) {
    const s = release.splits[split];
    if (!s) continue;
    const keyed = new Map((s.tasks ?? []).map((t) => [t.task_id, t]));
    s.questions.forEach((q, i) => {
      const task = keyed.get(q.task_id);
      out.push({
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
  if (out.length === 0 && release.pooled) {
    release.pooled.forEach((task, i) => out.push({ split: 'full', row_no: i, has_key: true, task }));
  }
  return out;
}

export interface TaskTables {
  tasks: TaskRecord[];
  gold: DocLinkRecord[];
  sources: DocLinkRecord[];
}

/** The tasks, gold and sources tables of a release (questions joined with the answer key, or build/pooled.jsonl). */
export function taskTables(release: LoadedRelease): TaskTables {
  const keyed = keyedTasks(release);
  const tasks = keyed.map((r): TaskRecord => ({
    task_id: r.task.task_id,
    split: r.split,
    row_no: r.row_no,
    type: r.task.type,
    question: r.task.question,
    answer: r.task.answer,
    has_key: r.has_key,
    n_gold: r.has_key ? r.task.gold_docs.length : null,
    n_items: r.task.items?.length ?? null,
    pool_size: int32(r.task.provenance.pool_size),
    salience: int32(r.task.provenance.salience),
    target_entity: r.task.provenance.target_entity ?? r.task.provenance.bounding_entity ?? null,
    false_element: r.task.false_element ?? null,
    source_quality: null,
    items_json: json(r.task.items),
    gold_docs_json: json(r.has_key ? r.task.gold_docs : null),
    source_doc_ids_json: json(r.has_key ? r.task.source_doc_ids : null),
    provenance_json: r.has_key ? json(r.task.provenance) : null,
  }));
  const gold = keyed.flatMap((r) =>
    r.task.gold_docs.map((doc_id) => ({ task_id: r.task.task_id, split: r.split, doc_id })),
  );
  const sources = keyed.flatMap((r) =>
    r.has_key ? r.task.source_doc_ids.map((doc_id) => ({ task_id: r.task.task_id, split: r.split, doc_id })) : [],
  );
  return { tasks, gold, sources };
}

/**
 * A task's source documents' quality, worst first, as fillSourceQuality computes it in SQL:
 * garbage, else degraded, else clean when all are clean, else the smallest value; null
 * when none of its sources is in the corpus (or none has a quality).
 */
export function sourceQualityOf(qualities: ReadonlyArray<string | null>): string | null {
  const known = qualities.filter((q): q is string => q !== null);
  if (known.length === 0) return null;
  if (known.includes('garbage')) return 'garbage';
  if (known.includes('degraded')) return 'degraded';
  if (known.every((q) => q === 'clean')) return 'clean';
  return known.reduce((a, b) => (compareText(b, a) < 0 ? b : a));
}

/** DuckDB's VARCHAR order: by UTF-8 bytes, which is code point order (not UTF-16 unit order). */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}
