/** The Tasks page's SQL against duckdb-wasm in Node: the sample release, then exact hand-built cases. */
import { Table, Utf8, vectorFromArray } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  countsBySplitType,
  docsByIds,
  docText,
  TASK_FACETS,
  TASK_SORTS,
  taskDetail,
  taskFacets,
  taskNeighbours,
  taskPage,
  taskRows,
  type FacetCount,
  type TaskFacet,
  type TaskFilter,
  type TaskListRow,
  type TaskOrder,
} from '../../../../src/core/explorer/queries.ts';
import type { Sql } from '../../../../src/core/explorer/sql.ts';
import type { Task } from '../../../../src/core/release/types.ts';
import { cmp, doc, handTables, keyed, type SampleFiles, sampleTables, SETUP_TIMEOUT, task } from './explorer-db.ts';

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

describe('task queries on the sample release', () => {
  let sql: Sql;
  let files: SampleFiles;
  let rows: TaskListRow[];

  beforeAll(async () => {
    ({ sql, files } = await sampleTables());
    const quality = new Map(files.docs.map((d) => [d.doc_id, d.quality]));
    const byId = new Map([...files.full, ...files.dev].map((t) => [t.task_id, t]));
    rows = [
      ...files.fullQuestions.map((q, i) => expectedRow(byId.get(q.task_id)!, 'full', i, quality)),
      ...files.devQuestions.map((q, i) => expectedRow(byId.get(q.task_id)!, 'dev', i, quality)),
    ];
  }, SETUP_TIMEOUT);

  it('lists every task of both splits with its list columns, in file order', async () => {
    const page = await taskRows(sql, {}, byRow, 0, 10_000);
    expect(page.total).toBe(files.full.length + files.dev.length);
    expect(page.rows).toEqual(sortRows(rows, byRow));
    // Neither all null nor all set, so the columns are exercised (worst-first quality: tables.test.ts).
    for (const column of ['source_quality', 'n_items', 'pool_size', 'salience', 'target_entity'] as const) {
      expect(new Set(rows.map((r) => r[column] === null)), column).toEqual(new Set([true, false]));
    }
  });

  it('sorts by each sortable column either way, nulls last, ties by split and row', async () => {
    for (const by of TASK_SORTS) {
      for (const desc of [false, true]) {
        const page = await taskRows(sql, {}, { by, desc }, 0, 10_000);
        const ids = (list: TaskListRow[]) => list.map((r) => `${r.split}:${r.task_id}`);
        expect(ids(page.rows), `${by} ${desc ? 'desc' : 'asc'}`).toEqual(ids(sortRows(rows, { by, desc })));
      }
    }
  });

  it('filters OR within a facet and AND across facets', async () => {
    const filters: TaskFilter[] = [
      { type: ['single_hop'] },
      { type: ['single_hop', 'timeline'], salience: ['4'] },
      { split: ['dev'], source_quality: ['degraded', 'garbage'] },
      { n_gold: ['1', '10+'], pool_size: ['30-49', '50+'] },
      { target_entity: [rows.find((r) => r.target_entity)!.target_entity!] },
      { type: ['dossier'], split: ['dev'], salience: ['1'] },
    ];
    for (const filter of filters) {
      const expected = rows.filter((r) => matches(r, filter));
      const page = await taskRows(sql, filter, byRow, 0, 10_000);
      expect(page.total, JSON.stringify(filter)).toBe(expected.length);
      expect(page.rows).toEqual(sortRows(expected, byRow));
    }
  });

  it('counts each facet under every filter but its own', async () => {
    for (const filter of [
      {},
      { type: ['single_hop'] },
      { type: ['aggregation', 'dossier'], split: ['full'] },
      { salience: ['5'], source_quality: ['clean'] },
      { pool_size: ['<20', 'none'] },
    ] satisfies TaskFilter[]) {
      expect(await taskFacets(sql, filter), JSON.stringify(filter)).toEqual(expectedFacets(rows, filter));
    }
  });

  it('answers a page with its rows, total and facets in one call', async () => {
    const filter = { type: ['single_hop'] };
    const page = await taskPage(sql, filter, { by: 'question', desc: true }, 3, 4);
    const expected = sortRows(
      rows.filter((r) => matches(r, filter)),
      { by: 'question', desc: true },
    );
    expect(page.rows).toEqual(expected.slice(3, 7));
    expect(page.total).toBe(expected.length);
    expect(page.facets).toEqual(expectedFacets(rows, filter));
  });

  it('pages with limit and offset, clamped to 0..10,000 rows', async () => {
    const all = sortRows(rows, byRow);
    expect((await taskRows(sql, {}, byRow, all.length - 3, 10)).rows).toEqual(all.slice(-3));
    expect((await taskRows(sql, {}, byRow, -5, 2)).rows).toEqual(all.slice(0, 2));
    expect((await taskRows(sql, {}, byRow, 0, -1)).rows).toEqual([]);
    expect((await taskRows(sql, {}, byRow, 0, 1_000_000)).rows).toHaveLength(all.length);
  });

  it("finds a task's place in the filtered, sorted list and the tasks either side", async () => {
    const filter = { type: ['single_hop', 'aggregation'] };
    const order: TaskOrder = { by: 'salience', desc: true };
    const list = sortRows(
      rows.filter((r) => matches(r, filter)),
      order,
    );
    const at = (i: number) => (list[i] ? { task_id: list[i]!.task_id, split: list[i]!.split } : undefined);
    for (const i of [0, 7, list.length - 1]) {
      expect(await taskNeighbours(sql, filter, order, list[i]!.task_id, list[i]!.split)).toEqual({
        position: i + 1,
        total: list.length,
        prev: at(i - 1),
        next: at(i + 1),
      });
    }
    const outside = rows.find((r) => !matches(r, filter))!;
    expect(await taskNeighbours(sql, filter, order, outside.task_id, outside.split)).toEqual({ total: list.length });
  });

  it('counts tasks per split and type, types in first-seen order', async () => {
    const expected: Array<{ split: string; type: string; count: number }> = [];
    for (const split of ['dev', 'full'] as const) {
      const types = new Map<string, number>();
      for (const q of split === 'dev' ? files.devQuestions : files.fullQuestions)
        types.set(q.type, (types.get(q.type) ?? 0) + 1);
      for (const [type, count] of types) expected.push({ split, type, count });
    }
    expect(await countsBySplitType(sql)).toEqual(expected);
  });

  it("gives one task's key, provenance, gold and source docs and its judged pool", async () => {
    const t = files.full.find((x) => x.items !== null && files.pool.some((p) => p.task_id === x.task_id))!;
    const detail = await taskDetail(sql, t.task_id);
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
    expect(await taskDetail(sql, 'no-such-task')).toBeUndefined();
  });

  it('reads document rows by id (sorted, unknown ids left out) and a document text', async () => {
    const [a, b] = [files.docs[5]!, files.docs[2]!];
    const found = await docsByIds(sql, [a.doc_id, 'NOPE', b.doc_id]);
    expect(found.map((d) => d.doc_id)).toEqual([a.doc_id, b.doc_id].sort(cmp));
    expect(found.find((d) => d.doc_id === a.doc_id)).toMatchObject({ quality: a.quality, file_name: a.file_name });
    expect(await docsByIds(sql, [])).toEqual([]);
    expect(await docText(sql, a.doc_id)).toMatch(/\S/);
    expect(await docText(sql, 'NOPE')).toBeUndefined();
  });
});

describe('task queries on hand-built releases (exact answers)', () => {
  let sql: Sql;
  const tasks = [
    task({ task_id: 'pct', question: 'Who paid 50% of the fee?' }),
    task({ task_id: 'num', question: 'Who paid 500 of the fee?' }),
    task({ task_id: 'under', question: 'What is in file a_b?' }),
    task({ task_id: 'other', question: 'What is in file axb?' }),
    task({ task_id: 'slash', question: 'What is under C:\\dir\\x?' }),
    task({ task_id: 'ans', question: 'How much was left?', answer: 'Exactly 100%.' }),
  ];

  beforeAll(async () => {
    sql = await handTables({
      splits: { full: keyed(tasks), dev: keyed([task({ task_id: 'pct', question: 'Dev copy of 50% question?' })]) },
      docs: [doc('D1')],
    });
  }, SETUP_TIMEOUT);

  const ids = async (filter: TaskFilter) =>
    (await taskRows(sql, filter, byRow, 0, 100)).rows.map((r) => `${r.split}:${r.task_id}`);

  it('matches % and _ in the search text literally, case-insensitively (the fallback without an index)', async () => {
    expect(await ids({ text: '50%' })).toEqual(['dev:pct', 'full:pct']);
    expect(await ids({ text: 'WHO PAID 50%' })).toEqual(['full:pct']);
    expect(await ids({ text: 'a_b' })).toEqual(['full:under']);
    expect(await ids({ text: 'C:\\dir' })).toEqual(['full:slash']);
    expect(await ids({ text: '100%' })).toEqual(['full:ans']);
    expect(await ids({ text: 'of the fee' })).toEqual(['full:pct', 'full:num']);
  });

  it('matches a task id given as the search text exactly', async () => {
    expect(await ids({ text: 'other' })).toEqual(['full:other']);
  });

  it('filters by a table of search hits, or by the hit text as a task id', async () => {
    await sql.insertArrow('hits_test', new Table({ key: vectorFromArray(['full:num', 'dev:pct'], new Utf8()) }));
    expect(await ids({ hitsTable: 'hits_test', hitsText: 'zzz' })).toEqual(['dev:pct', 'full:num']);
    expect(await ids({ hitsTable: 'hits_test', hitsText: 'under' })).toEqual(['dev:pct', 'full:num', 'full:under']);
    await expect(taskRows(sql, { hitsTable: 'hits; DROP TABLE tasks' }, byRow, 0, 10)).rejects.toThrow(
      /bad hits table name/,
    );
  });

  it('restricts to given ids; an empty list matches nothing', async () => {
    expect(await ids({ ids: ['num', 'pct'] })).toEqual(['dev:pct', 'full:pct', 'full:num']);
    expect(await ids({ ids: [] })).toEqual([]);
  });

  it('prefers the full split for a task id in both, unless a split is named', async () => {
    expect((await taskDetail(sql, 'pct'))?.question).toBe('Who paid 50% of the fee?');
    expect((await taskDetail(sql, 'pct', 'dev'))?.question).toBe('Dev copy of 50% question?');
  });
});
