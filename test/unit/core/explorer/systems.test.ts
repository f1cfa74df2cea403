import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import { SystemsIndex, type SystemsMatrix, type SystemTaskNumbers } from '../../../../src/core/explorer/systems.ts';
import { idPrefixTest } from '../../../../src/core/explorer/id-prefixes.ts';
import { systemsTable, type SystemsQuery } from '../../../../src/core/explorer/systems-view.ts';
import { loadRelease, type LoadedRelease } from '../../../../src/core/release/load.ts';
import { pyMean } from '../../../../src/core/python/sum.ts';
import { hasShared, sharedNote, v10Dir as releaseDir } from '../../../support/shared.ts';

const sampleDir = path.resolve(import.meta.dirname, '../../../../static-data/sample');

function indexOf(release: LoadedRelease): SystemsIndex {
  return new SystemsIndex((split) => release.splits[split]?.tasks, release.submissions);
}

/** The scorer's averages, from the per-task numbers the view shows: they must be the committed ones, bit for bit. */
function expectScorerMeans(release: LoadedRelease, matrix: SystemsMatrix): void {
  matrix.systems.forEach((system, s) => {
    const scores = release.submissions.find((x) => x.slug === system.slug)!.scores!;
    const cells = matrix.cells.map((row) => row[s]!).filter((c) => c.recall5 !== null);
    expect(pyMean(cells.map((c) => c.recall5!))).toBe(scores.retrieval['recall@5']);
    expect(pyMean(cells.map((c) => c.recall20!))).toBe(scores.retrieval['recall@20']);
    expect(pyMean(cells.map((c) => c.ndcg10!))).toBe(scores.retrieval['ndcg@10']);
    expect(pyMean(cells.map((c) => c.citationPrecision!))).toBe(scores.citation_precision);
    expect(pyMean(cells.map((c) => c.citationRecall!))).toBe(scores.citation_recall);
  });
}

describe('the systems of a release, side by side', () => {
  it("the sample's three submissions: per-task numbers average to each committed scores.json, bit for bit", async () => {
    const release = await loadRelease(new FolderSource(sampleDir));
    const matrix = indexOf(release).matrix('full');
    expect(matrix.systems.map((s) => s.slug).sort()).toEqual([
      'always-refuse-sample-control',
      'bm25-top-doc-sample',
      'closed-book-sample-control',
    ]);
    expect(matrix.systems.every((s) => s.issues === 0 && s.predictions === 150)).toBe(true);
    expect(matrix.tasks).toHaveLength(150);
    expectScorerMeans(release, matrix);
  });

  it('a task: each answer, citations marked gold or not, and the rank of each gold document', async () => {
    const release = await loadRelease(new FolderSource(sampleDir));
    const index = indexOf(release);
    const task = release.splits.full!.tasks!.find((t) => t.type === 'single_hop')!;
    const systems = index.task(task.task_id, 'full');
    const bm25 = systems.find((s) => s.slug === 'bm25-top-doc-sample')!;
    const line = JSON.parse(
      release.submissions
        .find((s) => s.slug === 'bm25-top-doc-sample')!
        .predictionsText!.split('\n')
        .find((l) => l.includes(task.task_id))!,
    ) as { answer: string; citations: string[]; retrieved: string[] };
    expect(bm25.answer).toBe(line.answer);
    expect(bm25.citations.map((c) => c.doc_id)).toEqual(line.citations);
    expect(bm25.citations.map((c) => c.gold)).toEqual(line.citations.map((c) => task.gold_docs.includes(c)));
    expect(bm25.goldRanks).toEqual(
      task.gold_docs.map((d) => ({
        doc_id: d,
        rank: line.retrieved.includes(d) ? line.retrieved.indexOf(d) + 1 : null,
      })),
    );
    expect(index.task('no-such-task', 'full')).toEqual([]);
  });

  it.skipIf(!hasShared)(
    `v1.0 bm25-reference: the per-task numbers average to its scores.json (${sharedNote})`,
    async () => {
      const release = await loadRelease(new FolderSource(releaseDir));
      const matrix = indexOf(release).matrix('full');
      expect(matrix.systems.map((s) => s.slug)).toEqual(['bm25-reference']);
      expect(matrix.leftOut).toEqual([
        { slug: 'dense-reference', why: 'dense (reference): the release has no predictions.jsonl for it' },
      ]);
      expectScorerMeans(release, matrix);
    },
  );
});

describe('systemsTable filters, metric and order', () => {
  const n = (o: Partial<SystemTaskNumbers>): SystemTaskNumbers => ({
    answered: true,
    recall5: 0,
    recall20: 0,
    ndcg10: 0,
    citations: 1,
    citedGold: 0,
    citationPrecision: 0,
    citationRecall: 0,
    retrievedGold: 0,
    citedOutside: 0,
    gateOutside: 0,
    ...o,
  });
  const hit = n({ recall5: 1, recall20: 1, ndcg10: 1, citedGold: 1, citationPrecision: 1, retrievedGold: 1 });
  const retrievedOnly = n({ recall20: 0.5, retrievedGold: 1 });
  const miss = n({});
  const noGold = n({ recall5: null, recall20: null, ndcg10: null, citationPrecision: null, citationRecall: null });
  const matrix: SystemsMatrix = {
    split: 'full',
    systems: ['a', 'b', 'c'].map((slug) => ({ slug, name: slug, split: 'full', predictions: 4, issues: 0 })),
    tasks: [
      { task_id: 't-all-missed', type: 'single_hop', question: 'Who flew first?', gold: 1 },
      { task_id: 't-one-cited', type: 'single_hop', question: 'Who flew second?', gold: 2 },
      { task_id: 't-all-cited', type: 'aggregation', question: 'Which flights?', gold: 3 },
      { task_id: 't-refusal', type: 'unanswerable', question: 'Unknowable?', gold: 0 },
    ],
    cells: [
      [miss, miss, miss],
      [hit, retrievedOnly, miss],
      [hit, hit, hit],
      [noGold, null, n({ ...noGold, citations: 0 })],
    ],
    leftOut: [],
    parseMs: 0,
  };
  const query = (o: Partial<SystemsQuery>): SystemsQuery => ({
    types: [],
    filter: 'all',
    metric: 'recall@20',
    hidden: [],
    sort: 'task',
    desc: false,
    text: '',
    page: 0,
    pageSize: 50,
    ...o,
  });
  const ids = (q: Partial<SystemsQuery>, verdicts?: Parameters<typeof systemsTable>[1]) =>
    systemsTable(matrix, verdicts, query(q)).rows.map((r) => r.task.task_id);

  it('keeps what each filter says, counting every filter, and only gold tasks for gold filters', () => {
    expect(ids({ filter: 'all-missed' })).toEqual(['t-all-missed']);
    expect(ids({ filter: 'none-cited' })).toEqual(['t-all-missed']);
    expect(ids({ filter: 'one-cited' })).toEqual(['t-one-cited']);
    expect(ids({ filter: 'all-cited' })).toEqual(['t-all-cited']);
    expect(ids({ filter: 'retrieved-not-cited' })).toEqual(['t-one-cited']);
    const counts = systemsTable(matrix, undefined, query({})).counts;
    expect(counts).toMatchObject({ all: 4, 'all-missed': 1, 'one-cited': 1, 'all-cited': 1, 'none-correct': 0 });
  });

  it('a hidden system leaves the filters: without "a", nobody cited gold on the second task', () => {
    expect(ids({ filter: 'none-cited', hidden: ['a'] })).toEqual(['t-all-missed', 't-one-cited']);
    expect(systemsTable(matrix, undefined, query({ hidden: ['a'] })).shown).toEqual([1, 2]);
  });

  it('verdict filters need a verdict for every shown system', () => {
    const verdicts = {
      a: { 't-all-missed': [0, 0], 't-one-cited': [1, 1] },
      b: { 't-all-missed': [0, 0], 't-one-cited': [0, 1] },
      c: { 't-all-missed': [0, 0] },
    } as Record<string, Record<string, [number, number]>>;
    expect(ids({ filter: 'none-correct' }, verdicts)).toEqual(['t-all-missed']);
    expect(ids({ filter: 'one-correct' }, verdicts)).toEqual([]);
    expect(ids({ filter: 'one-correct', hidden: ['c'] }, verdicts)).toEqual(['t-one-cited']);
    const cells = systemsTable(matrix, verdicts, query({ metric: 'correct' })).rows[1]!.cells;
    expect(cells.map((c) => c.text)).toEqual(['1', '0', '?']);
  });

  it('shows the metric per cell, sorts by a system (no value last) or by spread, pages, and finds by text', () => {
    const table = systemsTable(matrix, undefined, query({ metric: 'cited-gold' }));
    expect(table.rows[1]!.cells.map((c) => c.text)).toEqual(['1/1', '0/1', '0/1']);
    expect(table.rows[3]!.cells.map((c) => c.text)).toEqual(['1 cited', '·', '—']);
    expect(ids({ sort: 'b', desc: true })).toEqual(['t-all-cited', 't-one-cited', 't-all-missed', 't-refusal']);
    expect(ids({ sort: 'spread', desc: true })[0]).toBe('t-one-cited');
    const paged = systemsTable(matrix, undefined, query({ pageSize: 3, page: 1 }));
    expect(paged.rows.map((r) => r.task.task_id)).toEqual(['t-refusal']);
    expect(paged.pages).toBe(2);
    expect(ids({ text: 'flew second' })).toEqual(['t-one-cited']);
    expect(ids({ text: 't-all-c' })).toEqual(['t-all-cited']);
    expect(ids({ types: ['aggregation', 'unanswerable'] })).toEqual(['t-all-cited', 't-refusal']);
  });

  it("keeps only a map selection's tasks (id prefixes of any length), counting the filters over them alone", () => {
    expect(ids({ idPrefixes: ['t-all-c', 't-refu'] })).toEqual(['t-all-cited', 't-refusal']);
    expect(ids({ idPrefixes: ['t-one-cited', 't-a'] })).toEqual(['t-all-missed', 't-one-cited', 't-all-cited']);
    expect(ids({ idPrefixes: ['nothing'] })).toEqual([]);
    expect(ids({ idPrefixes: [] })).toEqual([]);
    expect(ids({ idPrefixes: undefined })).toHaveLength(4);
    const table = systemsTable(matrix, undefined, query({ idPrefixes: ['t-all-c', 't-refu'] }));
    expect(table.total).toBe(2);
    expect(table.counts).toMatchObject({ all: 2, 'all-missed': 0, 'one-cited': 0, 'all-cited': 1 });
    // with the other filters: the selection narrows them, and they it
    expect(ids({ idPrefixes: ['t-all-c', 't-refu'], types: ['unanswerable'] })).toEqual(['t-refusal']);
    expect(ids({ idPrefixes: ['t-all-c', 't-refu'], filter: 'all-missed' })).toEqual([]);
  });
});

describe('idPrefixTest', () => {
  it('matches ids starting with any prefix, of mixed lengths; no prefixes keep every id, an empty list none', () => {
    const test = idPrefixTest(['0a1b2c3d', 'ff']);
    expect(['0a1b2c3d-9', 'ff00', '0a1b2c3e', 'f', 'xff'].filter(test)).toEqual(['0a1b2c3d-9', 'ff00']);
    expect(idPrefixTest(undefined)('anything')).toBe(true);
    expect(idPrefixTest([])('anything')).toBe(false);
  });
});
