/**
 * The task list's questions answered from memory: pages, facets, neighbours and one task. It is
 * the only engine for them, so that the first page of tasks and a task opened by permalink show
 * as soon as questions.jsonl and tasks.jsonl are parsed, before DuckDB has started (DuckDB holds
 * the same rows, task-records.ts, for rejections, entities, documents' uses, statistics and SQL).
 * Text compares in code points and numbers sort NULLS LAST, as they would in SQL.
 */
import type { PoolEntry } from '../release/types.ts';
import type { DocsIndex } from './docs-index.ts';
import { naturalFacetOrder } from './facet-order.ts';
import { idPrefixTest } from './id-prefixes.ts';
import {
  DOC_ID,
  TASK_FACETS,
  TASK_ID_PREFIX,
  TASK_SORTS,
  type DocRow,
  type FacetCount,
  type TaskDetail,
  type TaskFacet,
  type TaskFilter,
  type TaskListRow,
  type TaskNeighbours,
  type TaskOrder,
  type TaskPage,
} from './task-vocabulary.ts';
import { compareText, parseTaskColumns, sourceQualityOf, type TaskRecord, type TaskTables } from './task-records.ts';
import type { TaskType } from '../release/types.ts';

/** A filter whose free text is already resolved to the `split:task_id` keys of the search hits. */
export interface StoreFilter extends Omit<TaskFilter, 'text'> {
  hits?: ReadonlySet<string>;
  /** The free text itself, which also matches a task id or its prefix, or a document id (idMatch). */
  hitsText?: string;
}

type Row = TaskRecord;

/** A task's value of each facet; numbers are bucketed as text so that "none" is a value. */
const FACET_VALUE: Record<TaskFacet, (r: Row) => string | null> = {
  split: (r) => r.split,
  type: (r) => r.type,
  n_gold: (r) => (r.n_gold === null ? 'no key' : r.n_gold >= 10 ? '10+' : String(r.n_gold)),
  pool_size: (r) =>
    r.pool_size === null
      ? 'none'
      : r.pool_size < 20
        ? '<20'
        : r.pool_size < 30
          ? '20-29'
          : r.pool_size < 50
            ? '30-49'
            : '50+',
  source_quality: (r) => r.source_quality ?? 'n/a',
  target_entity: (r) => r.target_entity,
  salience: (r) => (r.salience === null ? null : String(r.salience)),
};

const LIST_KEYS = [
  'task_id',
  'split',
  'row_no',
  'type',
  'question',
  'answer',
  'has_key',
  'n_gold',
  'n_items',
  'pool_size',
  'salience',
  'target_entity',
  'source_quality',
] as const;

function listRow(r: Row): TaskListRow {
  const out: Record<string, unknown> = {};
  for (const k of LIST_KEYS) out[k] = r[k];
  return out as unknown as TaskListRow;
}

function compareValues(a: string | number | boolean | null, b: string | number | boolean | null): number {
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
}

const JUDGEMENT_RANK: Record<string, number> = { supports: 0, partial: 1 };

export class TaskStore {
  /** Records with their source quality filled once the corpus is known. */
  private readonly rows: Row[];
  private qualityKnown: boolean;
  private readonly sourcesOf = new Map<string, string[]>();
  /** Task ids by pooled document id, once the pool is known (a document id search needs it). */
  private poolTasks?: Map<string, Set<string>>;

  /** `hasCorpus`: the release has documents, so source quality waits for setDocQualities. */
  constructor(tables: TaskTables, hasCorpus: boolean) {
    this.rows = tables.tasks.map((r) => ({ ...r }));
    this.qualityKnown = !hasCorpus;
    for (const s of tables.sources) {
      const key = `${s.split}:${s.task_id}`;
      this.sourcesOf.set(key, [...(this.sourcesOf.get(key) ?? []), s.doc_id]);
    }
  }

  get size(): number {
    return this.rows.length;
  }

  /** Source quality of every task, from the quality of every corpus document (the docs table). */
  setDocQualities(docs: ReadonlyArray<Pick<DocRow, 'doc_id' | 'quality'>>): void {
    const quality = new Map<string, Array<string | null>>();
    for (const d of docs) quality.set(d.doc_id, [...(quality.get(d.doc_id) ?? []), d.quality ?? null]);
    for (const r of this.rows) {
      const ids = this.sourcesOf.get(`${r.split}:${r.task_id}`) ?? [];
      r.source_quality = sourceQualityOf(ids.flatMap((id) => quality.get(id) ?? []));
    }
    this.qualityKnown = true;
  }

  /** The pool (pool.jsonl): a search for a document id also finds the tasks that pooled it. */
  setPool(pool: readonly PoolEntry[] | undefined): void {
    this.poolTasks = new Map();
    for (const p of pool ?? []) {
      const tasks = this.poolTasks.get(p.doc_id) ?? new Set<string>();
      tasks.add(p.task_id);
      this.poolTasks.set(p.doc_id, tasks);
    }
  }

  /** Whether a search for this text needs the pool first: a document id also finds the tasks that pooled it. */
  needsPoolFor(text: string | undefined): boolean {
    return text !== undefined && DOC_ID.test(text.trim()) && !this.poolTasks;
  }

  /** The task the text names (or starts with), and the tasks using the document it names (gold, source or pool). */
  private idMatch(text: string): (r: Row) => boolean {
    const t = text.trim();
    const prefix = TASK_ID_PREFIX.test(t) ? t.toLowerCase() : undefined;
    const doc = DOC_ID.test(t) ? t.toUpperCase() : undefined;
    const quoted = `"${doc}"`;
    const pooled = doc ? this.poolTasks?.get(doc) : undefined;
    return (r) =>
      r.task_id === t ||
      (prefix !== undefined && r.task_id.startsWith(prefix)) ||
      (doc !== undefined &&
        ((r.gold_docs_json ?? '').includes(quoted) ||
          (r.source_doc_ids_json ?? '').includes(quoted) ||
          pooled?.has(r.task_id) === true));
  }

  get facetsKnown(): boolean {
    return this.qualityKnown;
  }

  private matches(filter: StoreFilter, except?: TaskFacet): (r: Row) => boolean {
    const tests: Array<(r: Row) => boolean> = [];
    for (const facet of TASK_FACETS) {
      const values = filter[facet];
      if (facet === except || !values || values.length === 0) continue;
      const set = new Set(values);
      const value = FACET_VALUE[facet];
      tests.push((r) => {
        const v = value(r);
        return v !== null && set.has(v);
      });
    }
    if (filter.hits) {
      const hits = filter.hits;
      const ids = this.idMatch(filter.hitsText ?? '');
      tests.push((r) => hits.has(`${r.split}:${r.task_id}`) || ids(r));
    }
    if (filter.ids) {
      const ids = new Set(filter.ids);
      tests.push((r) => ids.has(r.task_id));
    }
    if (filter.idPrefixes) {
      const selected = idPrefixTest(filter.idPrefixes);
      tests.push((r) => selected(r.task_id));
    }
    return (r) => tests.every((t) => t(r));
  }

  /** ORDER BY <by> ASC|DESC NULLS LAST, split, row_no (stable for equal keys, as rows are in table order). */
  private sorted(filter: StoreFilter, sort: TaskOrder): Row[] {
    const by = (TASK_SORTS as readonly string[]).includes(sort.by) ? sort.by : 'row_no';
    const dir = sort.desc ? -1 : 1;
    return this.rows.filter(this.matches(filter)).sort((a, b) => {
      const x = a[by];
      const y = b[by];
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
      } else {
        const c = compareValues(x, y);
        if (c !== 0) return c * dir;
      }
      return compareText(a.split, b.split) || a.row_no - b.row_no;
    });
  }

  taskRows(
    filter: StoreFilter,
    sort: TaskOrder,
    offset: number,
    limit: number,
  ): { rows: TaskListRow[]; total: number } {
    const all = this.sorted(filter, sort);
    const start = Math.max(0, offset);
    const rows = all.slice(start, start + Math.max(0, Math.min(limit, 10_000))).map(listRow);
    return { rows, total: all.length };
  }

  taskFacets(filter: StoreFilter): Record<TaskFacet, FacetCount[]> {
    const facets = {} as Record<TaskFacet, FacetCount[]>;
    for (const facet of TASK_FACETS) {
      const counts = new Map<string, number>();
      const value = FACET_VALUE[facet];
      for (const r of this.rows.filter(this.matches(filter, facet))) {
        const v = value(r);
        if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
      }
      const natural = naturalFacetOrder(facet);
      facets[facet] = [...counts]
        .map(([v, count]) => ({ value: v, count }))
        .sort((a, b) => (natural ? natural(a.value, b.value) : b.count - a.count || compareText(a.value, b.value)));
    }
    return facets;
  }

  taskPage(filter: StoreFilter, sort: TaskOrder, offset: number, limit: number): TaskPage {
    return { ...this.taskRows(filter, sort, offset, limit), facets: this.taskFacets(filter) };
  }

  taskNeighbours(filter: StoreFilter, sort: TaskOrder, taskId: string, split: string): TaskNeighbours {
    const list = this.sorted(filter, sort);
    const total = list.length;
    const at = list.findIndex((r) => r.task_id === taskId && r.split === split);
    if (at < 0) return { total };
    const pick = (r: Row | undefined) => (r ? { task_id: r.task_id, split: r.split } : undefined);
    return { position: at + 1, total, prev: pick(list[at - 1]), next: pick(list[at + 1]) };
  }

  /** Per split and type, splits in order, types in first-seen order (as the manifest counts them). */
  countsBySplitType(): Array<{ split: string; type: TaskType; count: number }> {
    const groups = new Map<string, { split: string; type: TaskType; count: number; first: number }>();
    for (const r of this.rows) {
      const key = JSON.stringify([r.split, r.type]);
      const g = groups.get(key);
      if (g) {
        g.count++;
        g.first = Math.min(g.first, r.row_no);
      } else groups.set(key, { split: r.split, type: r.type as TaskType, count: 1, first: r.row_no });
    }
    return [...groups.values()]
      .sort((a, b) => compareText(a.split, b.split) || a.first - b.first)
      .map(({ split, type, count }) => ({ split, type, count }));
  }

  /** The record taskDetail starts from: `WHERE task_id = ? [AND split = ?] ORDER BY split DESC LIMIT 1`. */
  record(taskId: string, split?: string): TaskRecord | undefined {
    const hits = this.rows.filter(
      (r) => r.task_id === taskId && (split === undefined || split === '' || r.split === split),
    );
    return hits.sort((a, b) => compareText(b.split, a.split))[0];
  }

  /** A task's gold documents, in the task's order (none when the task is not here). */
  goldDocs(taskId: string, split: string | undefined): string[] {
    const row = this.record(taskId, split);
    return row ? (parseTaskColumns(row).parsed.gold_docs ?? []) : [];
  }

  /**
   * One task with its documents. `docs` answers the gold and source rows; `pool` is the pool
   * file's entries (undefined when the release has none or they are not read: an empty list).
   */
  async taskDetail(
    taskId: string,
    split: string | undefined,
    docs: DocsIndex | undefined,
    pool: readonly PoolEntry[] | undefined,
  ): Promise<TaskDetail | undefined> {
    const row = this.record(taskId, split);
    if (!row) return undefined;
    const { rest, parsed } = parseTaskColumns(row);
    const gold = parsed.gold_docs;
    const sources = parsed.source_doc_ids;
    const mine = (pool ?? []).filter((p) => p.task_id === taskId);
    const [gold_doc_rows, source_doc_rows, poolDocs] = await Promise.all([
      gold && gold.length && docs ? docs.rows(gold) : [],
      sources && sources.length && docs ? docs.rows(sources) : [],
      mine.length && docs ? docs.rows(mine.map((p) => p.doc_id)) : [],
    ]);
    const qualities = new Map<string, Array<string | null>>();
    for (const d of poolDocs) qualities.set(d.doc_id, [...(qualities.get(d.doc_id) ?? []), d.quality ?? null]);
    const poolRows = mine
      .flatMap((p) =>
        (qualities.get(p.doc_id) ?? [null]).map((quality) => ({
          doc_id: p.doc_id,
          judgement: p.judgement as string,
          from: [...p.from],
          quality,
        })),
      )
      .sort(
        (a, b) =>
          (JUDGEMENT_RANK[a.judgement] ?? 2) - (JUDGEMENT_RANK[b.judgement] ?? 2) || compareText(a.doc_id, b.doc_id),
      );
    if (docs && !this.qualityKnown) {
      // An embed reads only the rows it shows: the quality of this task's sources is known from them.
      rest.source_quality = sourceQualityOf(source_doc_rows.map((d) => d.quality ?? null));
    }
    return { ...rest, ...parsed, gold_doc_rows, source_doc_rows, pool: poolRows } as TaskDetail;
  }
}
