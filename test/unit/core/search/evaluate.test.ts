import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import {
  benchmarkNdcgAt10,
  benchmarkRecallAt,
  parseRun,
  qrelsFromGold,
  trecEval,
} from '../../../../src/core/retrieval/index.ts';
import { evaluateRankings, parseModelManifest, SearchSession, snippetOf } from '../../../../src/core/search/index.ts';

const sample = path.resolve(__dirname, '../../../../static-data/sample');

describe('SearchSession on the sample release', () => {
  it('evaluate() scores answerable tasks with the benchmark means and trec_eval -c of its own TREC run', async () => {
    const session = await SearchSession.open(new FolderSource(sample));
    const { report, trecRun } = await session.evaluate('bm25', 'full', 20);
    const tasks = await session.tasks('full');
    const answerable = tasks.filter((t) => t.type !== 'unanswerable' && t.type !== 'false_premise');
    expect(report.n).toBe(answerable.length);
    expect(report.excluded).toBe(tasks.length - answerable.length);
    // Recomputed independently from the exported run file.
    const run = parseRun(trecRun);
    expect(run.queries.size).toBe(tasks.length);
    const retrieved = (id: string) => run.queries.get(id)!.map((e) => e.docid);
    const mean = (f: (t: (typeof answerable)[number]) => number) =>
      answerable.reduce((s, t) => s + f(t), 0) / answerable.length;
    expect(report.overall['recall@5']).toBeCloseTo(
      mean((t) => benchmarkRecallAt(retrieved(t.task_id), t.gold_docs, 5)),
      12,
    );
    expect(report.overall['recall@20']).toBeCloseTo(
      mean((t) => benchmarkRecallAt(retrieved(t.task_id), t.gold_docs, 20)),
      12,
    );
    expect(report.overall['ndcg@10']).toBeCloseTo(
      mean((t) => benchmarkNdcgAt10(retrieved(t.task_id), t.gold_docs)),
      12,
    );
    const trec = trecEval(
      new Map(answerable.map((t) => [t.task_id, run.queries.get(t.task_id)!])),
      qrelsFromGold(answerable),
      { complete: true },
    );
    expect(report.trec.map).toBeCloseTo(trec.all.map, 12);
    expect(report.trecNumQ).toBe(trec.numQ);
    expect(report.perType.reduce((s, t) => s + t.n, 0)).toBe(report.n);
    // BM25 finds most single-hop gold documents in the sample (a sanity floor, not a pinned value).
    expect(report.perType.find((t) => t.type === 'single_hop')!['recall@20']).toBeGreaterThan(0.5);
  });

  it('search() returns the ranking with best-chunk snippets from chunks.parquet', async () => {
    const session = await SearchSession.open(new FolderSource(sample));
    const task = (await session.tasks('full'))[0]!;
    const result = await session.search(task.question, 'bm25', 5);
    expect(result.docs.map((d) => d.doc_id)).toEqual(
      (await session.rank('bm25', task.question, 5)).map((d) => d.doc_id),
    );
    for (const d of result.docs) {
      expect(d.chunk_id!.startsWith(`${d.doc_id}#`)).toBe(true);
      expect(d.snippet!.length).toBeGreaterThan(0);
    }
  });
});

describe('evaluateRankings', () => {
  it('leaves refusal types out and scores a missing ranking as empty', () => {
    const r = evaluateRankings(
      'bm25',
      20,
      [
        { task_id: 'a', type: 'single_hop', question: 'q', gold_docs: ['d1', 'd2'] },
        { task_id: 'b', type: 'single_hop', question: 'q', gold_docs: ['d3'] },
        { task_id: 'c', type: 'unanswerable', question: 'q', gold_docs: [] },
      ],
      new Map([
        [
          'a',
          [
            { doc_id: 'd2', score: 2 },
            { doc_id: 'x', score: 1 },
          ],
        ],
      ]),
    );
    expect(r.n).toBe(2);
    expect(r.excluded).toBe(1);
    expect(r.overall['recall@5']).toBe(0.25);
    expect(r.trecNumQ).toBe(2);
  });
});

describe('model manifest and snippets', () => {
  it('rejects a manifest with a bad field, naming it', () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ version: 1, kind: 'transformers.js', model: 'm', dim: 0 }));
    expect(() => parseModelManifest(bytes, 'index/model.json')).toThrow(/index\/model.json: field "dim"/);
    const escape = {
      version: 1,
      kind: 'transformers.js',
      model: 'm',
      dim: 8,
      pooling: 'mean',
      normalize: true,
      max_chars: 8000,
      path: '../x',
      dtype: 'fp32',
    };
    expect(() => parseModelManifest(new TextEncoder().encode(JSON.stringify(escape)), 'm.json')).toThrow(/"path"/);
  });

  it('cuts snippets at a word boundary', () => {
    expect(snippetOf('a  b\n c')).toBe('a b c');
    expect(snippetOf('word '.repeat(100), 20)).toBe('word word word word…');
  });
});

describe('SearchSession with lazily decoded BM25 postings (the search worker)', () => {
  it('ranks every task like the eager session, before and after the background decoding ends', async () => {
    const eager = await SearchSession.open(new FolderSource(sample));
    const lazy = await SearchSession.open(new FolderSource(sample), { lazyPostings: true });
    const questions = (await eager.tasks('full')).map((t) => t.question);
    const index = await lazy.loadBm25();
    expect(index.data.lazy?.complete).toBe(false);
    expect(await lazy.rank('bm25', questions[0]!, 20)).toEqual(await eager.rank('bm25', questions[0]!, 20));
    await lazy.postingsDecoded();
    expect(index.data.lazy?.complete).toBe(true);
    for (const q of questions) expect(await lazy.rank('bm25', q, 20)).toEqual(await eager.rank('bm25', q, 20));
  });
});
