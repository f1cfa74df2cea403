/**
 * The in-memory task store (first views, embeds) against the SQL queries DuckDB answers once it
 * has started: the same rows, totals, facet counts and orders, task details and neighbours,
 * over the sample release, the mini fixture and the real v1.0 files, so that DuckDB takes over
 * without a visible change.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import { memoryDocs, ParquetDocs, type DocsIndex } from '../../../../src/core/explorer/docs-index.ts';
import * as q from '../../../../src/core/explorer/queries.ts';
import type { SqlDatabase, SqlSession } from '../../../../src/core/explorer/sql.ts';
import { createTables, fillSourceQuality } from '../../../../src/core/explorer/tables.ts';
import { taskTables } from '../../../../src/core/explorer/task-records.ts';
import { TaskStore } from '../../../../src/core/explorer/task-store.ts';
import { loadRelease, type LoadedRelease } from '../../../../src/core/release/load.ts';
import { Table, Utf8, vectorFromArray } from 'apache-arrow';
import { startNodeDuckDb } from '../../../support/node-duckdb.ts';
import { hasShared, sharedNote, v10Dir as releaseDir } from '../../../support/shared.ts';

const root = path.resolve(import.meta.dirname, '../../../..');

interface Loaded {
  release: LoadedRelease;
  sql: SqlSession;
  store: TaskStore;
  docs?: DocsIndex;
}

let db: SqlDatabase;
let schemas = 0;

async function open(folder: string): Promise<Loaded> {
  const release = await loadRelease(new FolderSource(folder), { deferParquet: true });
  const parquet = release.parquet.find((p) => p.kind === 'docs');
  const docs = release.docs ? memoryDocs(release.docs) : parquet ? await ParquetDocs.open(parquet.file) : undefined;
  const records = docs ? await docs.all() : [];
  const tables = taskTables(release);
  const sql = await db.session(`t${++schemas}`);
  await createTables(sql, release, tables, records);
  await fillSourceQuality(sql);
  const store = new TaskStore(tables, docs !== undefined);
  if (docs) store.setDocQualities(records);
  store.setPool(release.pool);
  return { release, sql, store, docs };
}

/** Filters that exercise every facet, several values at once (OR), and facets combined (AND). */
async function filtersOf(l: Loaded): Promise<q.TaskFilter[]> {
  const facets = await q.taskFacets(l.sql, {});
  const out: q.TaskFilter[] = [{}];
  for (const facet of q.TASK_FACETS) {
    const values = facets[facet].map((f) => f.value);
    if (values.length === 0) continue;
    out.push({ [facet]: [values[0]!] });
    if (values.length > 2) out.push({ [facet]: [values[1]!, values[values.length - 1]!] });
    out.push({ [facet]: ['no such value'] });
  }
  out.push({ type: [facets.type[0]!.value], split: [facets.split[0]!.value] });
  return out;
}

const ORDERS: q.TaskOrder[] = q.TASK_SORTS.flatMap((by) => [
  { by, desc: false },
  { by, desc: true },
]);

async function compare(l: Loaded): Promise<void> {
  const filters = await filtersOf(l);
  for (const filter of filters) {
    expect(l.store.taskFacets(filter), JSON.stringify(filter)).toEqual(await q.taskFacets(l.sql, filter));
    for (const order of ORDERS) {
      expect(l.store.taskRows(filter, order, 0, 10_000), JSON.stringify([filter, order])).toEqual(
        await q.taskRows(l.sql, filter, order, 0, 10_000),
      );
    }
  }
  // A later page, and a limit past the end.
  const order: q.TaskOrder = { by: 'question', desc: false };
  expect(l.store.taskRows({}, order, 7, 5)).toEqual(await q.taskRows(l.sql, {}, order, 7, 5));
  expect(l.store.taskRows({}, order, 100_000, 5)).toEqual(await q.taskRows(l.sql, {}, order, 100_000, 5));
  expect(l.store.countsBySplitType()).toEqual(await q.countsBySplitType(l.sql));
}

/** Every `stride`-th task's detail (every task by default). */
async function compareDetails(l: Loaded, stride = 1): Promise<void> {
  const { rows } = await q.taskRows(l.sql, {}, { by: 'row_no', desc: false }, 0, 10_000);
  for (const r of rows.filter((_, i) => i % stride === 0)) {
    for (const split of [r.split, undefined]) {
      const fromSql = await q.taskDetail(l.sql, r.task_id, split);
      const fromStore = await l.store.taskDetail(r.task_id, split, l.docs, l.release.pool);
      expect(fromStore, `${r.split}:${r.task_id}`).toEqual(fromSql);
    }
  }
  expect(await l.store.taskDetail('no-such-task', undefined, l.docs, l.release.pool)).toBeUndefined();
  const filter: q.TaskFilter = { type: [rows[0]!.type] };
  for (const order of ORDERS.slice(0, 6)) {
    for (const r of rows.filter((x) => x.type === rows[0]!.type).slice(0, 4)) {
      expect(l.store.taskNeighbours(filter, order, r.task_id, r.split)).toEqual(
        await q.taskNeighbours(l.sql, filter, order, r.task_id, r.split),
      );
    }
  }
  expect(l.store.taskNeighbours(filter, ORDERS[0]!, 'missing', 'full')).toEqual(
    await q.taskNeighbours(l.sql, filter, ORDERS[0]!, 'missing', 'full'),
  );
}

/**
 * Free text: the store takes the hit keys as a set, SQL as a table; a pasted task id, its
 * 8-character prefix, a gold, source or pooled document id match in both.
 */
async function compareHits(l: Loaded): Promise<void> {
  const { rows } = await q.taskRows(l.sql, {}, { by: 'row_no', desc: false }, 0, 10_000);
  const keys = rows.filter((_, i) => i % 3 === 0).map((r) => `${r.split}:${r.task_id}`);
  await l.sql.insertArrow('hits_test', new Table({ key: vectorFromArray(keys, new Utf8()) }));
  const withGold = l.release.splits.full!.tasks!.find((t) => t.gold_docs.length > 0)!;
  const pooled = l.release.pool!.find((p) => !withGold.gold_docs.includes(p.doc_id))!;
  const texts = [
    'words',
    rows[1]!.task_id,
    rows[4]!.task_id.slice(0, 8),
    rows[4]!.task_id.slice(0, 8).toUpperCase(),
    ` ${rows[4]!.task_id.slice(0, 8)} `,
    withGold.gold_docs[0]!,
    withGold.gold_docs[0]!.toLowerCase(),
    withGold.source_doc_ids[0]!,
    pooled.doc_id,
  ];
  const prefixRows = l.store.taskRows({ hits: new Set(), hitsText: texts[2] }, { by: 'row_no', desc: false }, 0, 10);
  expect(prefixRows.rows.map((r) => r.task_id)).toContain(rows[4]!.task_id);
  for (const text of texts) {
    const sqlFilter: q.TaskFilter = { hitsTable: 'hits_test', hitsText: text };
    const storeFilter = { hits: new Set(keys), hitsText: text };
    expect(l.store.taskPage(storeFilter, { by: 'task_id', desc: true }, 0, 50)).toEqual(
      await q.taskPage(l.sql, sqlFilter, { by: 'task_id', desc: true }, 0, 50),
    );
  }
}

beforeAll(async () => {
  db = await startNodeDuckDb();
}, 120_000);

describe('the task store answers as DuckDB does', () => {
  let sample: Loaded;
  let mini: Loaded;
  beforeAll(async () => {
    sample = await open(path.join(root, 'static-data/sample'));
    mini = await open(path.join(root, 'test/fixtures/mini-release'));
  }, 120_000);
  afterAll(async () => {
    await sample?.sql.close();
    await mini?.sql.close();
  });

  it('sample release: pages, totals, facets under every filter and order', async () => {
    expect(sample.store.size).toBeGreaterThan(100);
    await compare(sample);
  });

  it('sample release: every task detail (gold, sources, pool with quality), neighbours', async () => {
    await compareDetails(sample);
  });

  it('sample release: free-text hits', async () => {
    await compareHits(sample);
  });

  it('mini fixture (docs.parquet, build/ files)', async () => {
    await compare(mini);
    await compareDetails(mini);
  });

  it('an embed learns a task’s source quality from its own sources’ rows', async () => {
    const tables = taskTables(sample.release);
    const light = new TaskStore(tables, true);
    const parquet = sample.release.parquet.find((p) => p.kind === 'docs')!;
    const docs = await ParquetDocs.open(parquet.file);
    const { rows } = await q.taskRows(sample.sql, {}, { by: 'row_no', desc: false }, 0, 60);
    for (const r of rows) {
      const detail = await light.taskDetail(r.task_id, r.split, docs, undefined);
      expect(detail?.source_quality, r.task_id).toEqual(r.source_quality);
    }
  });
});

describe.skipIf(!hasShared)(`the real v1.0 files (${sharedNote})`, () => {
  let v10: Loaded;
  beforeAll(async () => {
    v10 = await open(releaseDir);
  }, 120_000);
  afterAll(async () => {
    await v10?.sql.close();
  });

  it('1,088 tasks, no corpus: pages, facets, details', { timeout: 300_000 }, async () => {
    expect(v10.store.size).toBe(1088);
    await compare(v10);
    await compareDetails(v10, 5);
  });
});
