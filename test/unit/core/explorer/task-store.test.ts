/**
 * The task list's questions, answered by the in-memory task store (the only engine for them),
 * against answers worked out from the release files alone: the sample release, then exact
 * hand-built cases.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import { ParquetDocs, memoryDocs, type DocsIndex } from '../../../../src/core/explorer/docs-index.ts';
import { taskTables } from '../../../../src/core/explorer/task-records.ts';
import { TaskStore } from '../../../../src/core/explorer/task-store.ts';
import {
  TASK_FACETS,
  TASK_SORTS,
  type FacetCount,
  type TaskFacet,
  type TaskFilter,
  type TaskListRow,
  type TaskOrder,
} from '../../../../src/core/explorer/task-vocabulary.ts';
import { loadRelease, type LoadedRelease } from '../../../../src/core/release/load.ts';
import type { Task } from '../../../../src/core/release/types.ts';
import {
  cmp,
  doc,
  handRelease,
  keyed,
  readSampleFiles,
  sampleDir,
  type SampleFiles,
  SETUP_TIMEOUT,
  task,
} from './explorer-db.ts';

/** A store as the data worker fills it once every file is read: qualities and pool known. */
async function storeOf(release: LoadedRelease): Promise<{ store: TaskStore; docs?: DocsIndex }> {
  const parquet = release.parquet.find((p) => p.kind === 'docs');
  const docs = release.docs ? memoryDocs(release.docs) : parquet ? await ParquetDocs.open(parquet.file) : undefined;
  const store = new TaskStore(taskTables(release), docs !== undefined);
  if (docs) store.setDocQualities(await docs.all());
  store.setPool(release.pool);
  return { store, docs };
}

/** What the tasks table should hold for a task of a split file, worked out from the files alone. */
function expectedRow(t: Task, split: string, rowNo: number, quality: Map<string, string>): TaskListRow {
  const qualities = t.source_doc_ids.map((id) => quality.get(id)).filter((q) => q !== undefined);
  const worst = qualities.includes('garbage')
    ? 'garbage'
    : qualities.includes('degraded')
      ? 'degraded'
      : qualities.length > 0
        ? 'clean'
        : null;
  return {
    task_id: t.task_id,
    split,
    row_no: rowNo,
    type: t.type,
    question: t.question,
    answer: t.answer,
    has_key: true,
    n_gold: t.gold_docs.length,
    n_items: t.items?.length ?? null,
    pool_size: t.provenance.pool_size ?? null,
    salience: t.provenance.salience ?? null,
    target_entity: t.provenance.target_entity ?? t.provenance.bounding_entity ?? null,
    source_quality: worst,
  };
}

/** A facet's value for a row, as the Tasks page buckets it. */
function facetValue(row: TaskListRow, facet: TaskFacet): string | null {
  switch (facet) {
    case 'n_gold':
      return row.n_gold === null ? 'no key' : row.n_gold >= 10 ? '10+' : String(row.n_gold);
    case 'pool_size': {
      const n = row.pool_size;
      return n === null ? 'none' : n < 20 ? '<20' : n < 30 ? '20-29' : n < 50 ? '30-49' : '50+';
    }
    case 'source_quality':
      return row.source_quality ?? 'n/a';
    case 'salience':
      return row.salience === null ? null : String(row.salience);
    default:
      return row[facet];
  }
}

function matches(row: TaskListRow, filter: TaskFilter, except?: TaskFacet): boolean {
  return TASK_FACETS.every((f) => {
    const wanted = filter[f];
    return f === except || !wanted?.length || wanted.includes(facetValue(row, f) ?? '');
  });
}

const BUCKET_ORDER: Partial<Record<TaskFacet, (v: string) => number>> = {
  n_gold: (v) => (v === 'no key' ? 99 : v === '10+' ? 10 : Number(v)),
  pool_size: (v) => ['<20', '20-29', '30-49', '50+'].indexOf(v) + 1 || 9,
  salience: Number,
};

function expectedFacets(rows: TaskListRow[], filter: TaskFilter): Record<TaskFacet, FacetCount[]> {
  const out = {} as Record<TaskFacet, FacetCount[]>;
  for (const facet of TASK_FACETS) {
    const counts = new Map<string, number>();
    for (const row of rows.filter((r) => matches(r, filter, facet))) {
      const value = facetValue(row, facet);
      if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const order = BUCKET_ORDER[facet];
    out[facet] = [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) =>
        order ? order(a.value) - order(b.value) || cmp(a.value, b.value) : b.count - a.count || cmp(a.value, b.value),
      );
  }
  return out;
}

/** The list order: the sort column (nulls last either way), then split, then row. */
function sortRows(rows: TaskListRow[], order: TaskOrder): TaskListRow[] {
  return [...rows].sort((a, b) => {
    const x = a[order.by];
    const y = b[order.by];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : cmp(String(x), String(y));
      if (c !== 0) return order.desc ? -c : c;
    }
    return cmp(a.split, b.split) || a.row_no - b.row_no;
  });
}

const byRow: TaskOrder = { by: 'row_no', desc: false };

describe('the task list on the sample release', () => {
  let store: TaskStore;
  let docs: DocsIndex | undefined;
  let release: LoadedRelease;
  let files: SampleFiles;
  let rows: TaskListRow[];

  beforeAll(async () => {
    release = await loadRelease(new FolderSource(sampleDir), { deferParquet: true });
    ({ store, docs } = await storeOf(release));
    files = await readSampleFiles();
    const quality = new Map(files.docs.map((d) => [d.doc_id, d.quality]));
    const byId = new Map([...files.full, ...files.dev].map((t) => [t.task_id, t]));
    rows = [
      ...files.fullQuestions.map((q, i) => expectedRow(byId.get(q.task_id)!, 'full', i, quality)),
      ...files.devQuestions.map((q, i) => expectedRow(byId.get(q.task_id)!, 'dev', i, quality)),
    ];
  }, SETUP_TIMEOUT);

  it('lists every task of both splits with its list columns, in file order', () => {
    const page = store.taskRows({}, byRow, 0, 10_000);
    expect(page.total).toBe(files.full.length + files.dev.length);
    expect(page.rows).toEqual(sortRows(rows, byRow));
    // Neither all null nor all set, so the columns are exercised (worst-first quality: tables.test.ts).
    for (const column of ['source_quality', 'n_items', 'pool_size', 'salience', 'target_entity'] as const) {
      expect(new Set(rows.map((r) => r[column] === null)), column).toEqual(new Set([true, false]));
    }
  });

  it('sorts by each sortable column either way, nulls last, ties by split and row', () => {
    for (const by of TASK_SORTS) {
      for (const desc of [false, true]) {
        const page = store.taskRows({}, { by, desc }, 0, 10_000);
        const ids = (list: TaskListRow[]) => list.map((r) => `${r.split}:${r.task_id}`);
        expect(ids(page.rows), `${by} ${desc ? 'desc' : 'asc'}`).toEqual(ids(sortRows(rows, { by, desc })));
      }
    }
  });

  it('filters OR within a facet and AND across facets', () => {
    const filters: TaskFilter[] = [
      { type: ['single_hop'] },
      { type: ['single_hop', 'timeline'], salience: ['4'] },
      { split: ['dev'], source_quality: ['degraded', 'garbage'] },
      { n_gold: ['1', '10+'], pool_size: ['30-49', '50+'] },
      { target_entity: [rows.find((r) => r.target_entity)!.target_entity!] },
      { type: ['dossier'], split: ['dev'], salience: ['1'] },
      { type: ['no such value'] },
    ];
    for (const filter of filters) {
      const expected = rows.filter((r) => matches(r, filter));
      const page = store.taskRows(filter, byRow, 0, 10_000);
      expect(page.total, JSON.stringify(filter)).toBe(expected.length);
      expect(page.rows).toEqual(sortRows(expected, byRow));
    }
  });

  it('counts each facet under every filter but its own', () => {
    for (const filter of [
      {},
      { type: ['single_hop'] },
      { type: ['aggregation', 'dossier'], split: ['full'] },
      { salience: ['5'], source_quality: ['clean'] },
      { pool_size: ['<20', 'none'] },
    ] satisfies TaskFilter[]) {
      expect(store.taskFacets(filter), JSON.stringify(filter)).toEqual(expectedFacets(rows, filter));
    }
  });

  it('answers a page with its rows, total and facets in one call', () => {
    const filter = { type: ['single_hop'] };
    const page = store.taskPage(filter, { by: 'question', desc: true }, 3, 4);
    const expected = sortRows(
      rows.filter((r) => matches(r, filter)),
      { by: 'question', desc: true },
    );
    expect(page.rows).toEqual(expected.slice(3, 7));
    expect(page.total).toBe(expected.length);
    expect(page.facets).toEqual(expectedFacets(rows, filter));
  });

  it('pages with limit and offset, clamped to 0..10,000 rows', () => {
    const all = sortRows(rows, byRow);
    expect(store.taskRows({}, byRow, all.length - 3, 10).rows).toEqual(all.slice(-3));
    expect(store.taskRows({}, byRow, -5, 2).rows).toEqual(all.slice(0, 2));
    expect(store.taskRows({}, byRow, 0, -1).rows).toEqual([]);
    expect(store.taskRows({}, byRow, 0, 1_000_000).rows).toHaveLength(all.length);
    expect(store.taskRows({}, byRow, 100_000, 5)).toEqual({ rows: [], total: all.length });
  });

  it("finds a task's place in the filtered, sorted list and the tasks either side", () => {
    const filter = { type: ['single_hop', 'aggregation'] };
    const order: TaskOrder = { by: 'salience', desc: true };
    const list = sortRows(
      rows.filter((r) => matches(r, filter)),
      order,
    );
    const at = (i: number) => (list[i] ? { task_id: list[i]!.task_id, split: list[i]!.split } : undefined);
    for (const i of [0, 7, list.length - 1]) {
      expect(store.taskNeighbours(filter, order, list[i]!.task_id, list[i]!.split)).toEqual({
        position: i + 1,
        total: list.length,
        prev: at(i - 1),
        next: at(i + 1),
      });
    }
    const outside = rows.find((r) => !matches(r, filter))!;
    expect(store.taskNeighbours(filter, order, outside.task_id, outside.split)).toEqual({ total: list.length });
  });

  it('counts tasks per split and type, types in first-seen order', () => {
    const expected: Array<{ split: string; type: string; count: number }> = [];
    for (const split of ['dev', 'full'] as const) {
      const types = new Map<string, number>();
      for (const q of split === 'dev' ? files.devQuestions : files.fullQuestions)
        types.set(q.type, (types.get(q.type) ?? 0) + 1);
      for (const [type, count] of types) expected.push({ split, type, count });
    }
    expect(store.countsBySplitType()).toEqual(expected);
  });

  it("gives one task's key, provenance, gold and source docs and its judged pool", async () => {
    const t = files.full.find((x) => x.items !== null && files.pool.some((p) => p.task_id === x.task_id))!;
    const detail = await store.taskDetail(t.task_id, undefined, docs, release.pool);
    const docById = new Map(files.docs.map((d) => [d.doc_id, d]));
    const docRows = (ids: string[]) =>
      [...new Set(ids)]
        .filter((id) => docById.has(id))
        .sort(cmp)
        .map((id) => ({ doc_id: id, quality: docById.get(id)!.quality, file_name: docById.get(id)!.file_name }));
    const judgementOrder = ['supports', 'partial'];
    const rank = (j: string) => (judgementOrder.includes(j) ? judgementOrder.indexOf(j) : 2);
    expect(detail).toMatchObject({
      task_id: t.task_id,
      split: 'full',
      items: t.items,
      gold_docs: t.gold_docs,
      source_doc_ids: t.source_doc_ids,
      provenance: t.provenance,
    });
    expect(detail!.gold_doc_rows.map(({ doc_id, quality, file_name }) => ({ doc_id, quality, file_name }))).toEqual(
      docRows(t.gold_docs),
    );
    expect(detail!.source_doc_rows.map((d) => d.doc_id)).toEqual(docRows(t.source_doc_ids).map((d) => d.doc_id));
    expect(detail!.pool).toEqual(
      files.pool
        .filter((p) => p.task_id === t.task_id)
        .sort((a, b) => rank(a.judgement) - rank(b.judgement) || cmp(a.doc_id, b.doc_id))
        .map((p) => ({
          doc_id: p.doc_id,
          judgement: p.judgement,
          from: p.from,
          quality: docById.get(p.doc_id)?.quality,
        })),
    );
    expect(await store.taskDetail('no-such-task', undefined, docs, release.pool)).toBeUndefined();
  });

  it('finds tasks by search hits, or by the text as a task id, its prefix, or a gold, source or pooled document id', () => {
    const withGold = files.full.find((t) => t.gold_docs.length > 0 && t.source_doc_ids.length > 0)!;
    const pooled = files.pool.find((p) => !withGold.gold_docs.includes(p.doc_id))!;
    const find = (hits: string[], text: string) =>
      store
        .taskRows({ hits: new Set(hits), hitsText: text }, byRow, 0, 10_000)
        .rows.map((r) => `${r.split}:${r.task_id}`);
    const splitsOf = (id: string) => rows.filter((r) => r.task_id === id).map((r) => `${r.split}:${r.task_id}`);
    const using = (id: string) =>
      rows
        .filter((r) => {
          const t = [...files.full, ...files.dev].find((x) => x.task_id === r.task_id)!;
          return (
            t.gold_docs.includes(id) ||
            t.source_doc_ids.includes(id) ||
            files.pool.some((p) => p.task_id === r.task_id && p.doc_id === id)
          );
        })
        .map((r) => `${r.split}:${r.task_id}`);
    const a = rows[2]!;
    const b = rows[9]!;
    expect(find([`${a.split}:${a.task_id}`], 'words')).toEqual([`${a.split}:${a.task_id}`]);
    expect(find([], b.task_id)).toEqual(splitsOf(b.task_id));
    expect(find([], b.task_id.slice(0, 8).toUpperCase())).toEqual(
      rows.filter((r) => r.task_id.startsWith(b.task_id.slice(0, 8))).map((r) => `${r.split}:${r.task_id}`),
    );
    for (const id of [withGold.gold_docs[0]!, withGold.source_doc_ids[0]!, pooled.doc_id]) {
      expect(find([], id), id).toEqual(using(id));
      expect(find([], id.toLowerCase()), id).toEqual(using(id));
      expect(using(id).length, id).toBeGreaterThan(0);
    }
  });

  it('says a document-id search needs the pool until it is given', async () => {
    const fresh = new TaskStore(taskTables(release), true);
    expect(fresh.needsPoolFor(files.pool[0]!.doc_id)).toBe(true);
    expect(fresh.needsPoolFor('a few words')).toBe(false);
    expect(fresh.needsPoolFor(undefined)).toBe(false);
    fresh.setPool(release.pool);
    expect(fresh.needsPoolFor(files.pool[0]!.doc_id)).toBe(false);
  });

  it('an embed learns a task’s source quality from its own sources’ rows', async () => {
    const light = new TaskStore(taskTables(release), true);
    expect(light.facetsKnown).toBe(false);
    for (const r of sortRows(rows, byRow).slice(0, 60)) {
      const detail = await light.taskDetail(r.task_id, r.split, docs, undefined);
      expect(detail?.source_quality, r.task_id).toEqual(r.source_quality);
    }
  });
});

describe('the task list on hand-built releases (exact answers)', () => {
  let store: TaskStore;
  const tasks = [
    task({ task_id: 'pct', question: 'Who paid 50% of the fee?' }),
    task({ task_id: 'num', question: 'Who paid 500 of the fee?' }),
    task({ task_id: 'under', question: 'What is in file a_b?' }),
  ];

  beforeAll(async () => {
    ({ store } = await storeOf(
      handRelease({
        splits: { full: keyed(tasks), dev: keyed([task({ task_id: 'pct', question: 'Dev copy of 50% question?' })]) },
        docs: [doc('D1')],
      }),
    ));
  });

  const ids = (filter: Parameters<TaskStore['taskRows']>[0]) =>
    store.taskRows(filter, byRow, 0, 100).rows.map((r) => `${r.split}:${r.task_id}`);

  it('filters by search hits, or by the hit text as a task id', () => {
    expect(ids({ hits: new Set(['full:num', 'dev:pct']), hitsText: 'zzz' })).toEqual(['dev:pct', 'full:num']);
    expect(ids({ hits: new Set(['full:num', 'dev:pct']), hitsText: 'under' })).toEqual([
      'dev:pct',
      'full:num',
      'full:under',
    ]);
  });

  it('restricts to given ids; an empty list matches nothing', () => {
    expect(ids({ ids: ['num', 'pct'] })).toEqual(['dev:pct', 'full:pct', 'full:num']);
    expect(ids({ ids: [] })).toEqual([]);
  });

  it('restricts to the ids a map selection names by their prefix', () => {
    expect(ids({ idPrefixes: ['nu', 'pc'] })).toEqual(['dev:pct', 'full:pct', 'full:num']);
    expect(ids({ idPrefixes: ['pct'], split: ['full'] })).toEqual(['full:pct']);
    expect(ids({ idPrefixes: ['zz'] })).toEqual([]);
  });

  it('prefers the full split for a task id in both, unless a split is named', async () => {
    expect((await store.taskDetail('pct', undefined, undefined, undefined))?.question).toBe('Who paid 50% of the fee?');
    expect((await store.taskDetail('pct', 'dev', undefined, undefined))?.question).toBe('Dev copy of 50% question?');
  });
});
