import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenDir, hasShared, sharedNote } from '../../../support/shared.ts';
import {
  benchmarkNdcgAt10,
  benchmarkRecallAt,
  benchmarkRetrievalScores,
  formatFixed4,
  formatTrecEval,
  trecEval,
  trecEvalQuery,
} from '../../../../src/core/retrieval/metrics.ts';
import { parseQrels, parseRun, qrelsFromGold } from '../../../../src/core/retrieval/trec.ts';

describe("benchmark retrieval diagnostics (spec 2.3, test_score.py's cases)", () => {
  it('recall@k: half of the gold found gives 0.5; empty gold gives 0', () => {
    expect(benchmarkRecallAt(['a', 'x'], ['a', 'b'], 5)).toBe(0.5);
    expect(benchmarkRecallAt(['x', 'a'], ['a'], 1)).toBe(0);
    expect(benchmarkRecallAt(['a'], [], 5)).toBe(0);
  });

  it('ndcg@10: a single gold doc at rank 2 gives 1/log2(3)', () => {
    expect(benchmarkNdcgAt10(['x', 'a'], ['a'])).toBe(1 / Math.log2(3));
    expect(benchmarkNdcgAt10(['a', 'b'], ['a', 'b'])).toBe(1);
  });

  it('deduplicates the retrieved list in order before cutting', () => {
    expect(benchmarkRecallAt(['x', 'x', 'x', 'x', 'x', 'a'], ['a'], 5)).toBe(1);
    expect(benchmarkNdcgAt10(['x', 'x', 'a'], ['a'])).toBe(1 / Math.log2(3));
  });

  it('IDCG counts min(|gold|, 10) ideal hits', () => {
    const gold = Array.from({ length: 12 }, (_, i) => `g${i}`);
    expect(benchmarkNdcgAt10(gold.slice(0, 10), gold)).toBe(1);
    let idcg = 0;
    for (let i = 0; i < 3; i++) idcg += 1 / Math.log2(i + 2);
    expect(benchmarkNdcgAt10(['g0'], ['g0', 'g1', 'g2'])).toBe(1 / idcg);
  });

  const cases = ['dev-seed7', 'sample-a-seed5'];
  it.skipIf(!hasShared)(`equals the canonical scorer's retrieval block (${sharedNote})`, () => {
    for (const name of cases) {
      const dir = path.join(goldenDir, 'scoring', name);
      const lines = (f: string) =>
        readFileSync(path.join(dir, f), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      const retrieved = new Map(
        lines('predictions.jsonl').map((p) => [
          p['task_id'] as string,
          ((p['retrieved'] as unknown[] | undefined) ?? []).map(String),
        ]),
      );
      const counted = lines('tasks.jsonl')
        .filter((t) => t['type'] !== 'unanswerable' && t['type'] !== 'false_premise')
        .map((t) => ({
          gold: t['gold_docs'] as string[],
          retrieved: [...new Set(retrieved.get(t['task_id'] as string) ?? [])].slice(0, 20),
        }));
      const report = JSON.parse(readFileSync(path.join(dir, 'scores.json'), 'utf8')) as {
        retrieval: Record<string, number>;
      };
      expect(benchmarkRetrievalScores(counted)).toEqual(report.retrieval);
    }
  });
});

describe('trec_eval measures', () => {
  const judged = new Map([
    ['d1', 1],
    ['d2', 2],
    ['d3', 0],
    ['d4', 1],
  ]);

  it('computes P, recall, recip_rank, map and ndcg_cut by their definitions', () => {
    const run = [
      { docid: 'd3', score: 5 },
      { docid: 'd1', score: 4 },
      { docid: 'x', score: 3 },
      { docid: 'd2', score: 2 },
    ];
    const v = trecEvalQuery(run, judged);
    expect(v.num_rel).toBe(3);
    expect(v.num_ret).toBe(4);
    expect(v.num_rel_ret).toBe(2);
    expect(v.P_5).toBe(2 / 5);
    expect(v.recall_5).toBe(2 / 3);
    expect(v.recip_rank).toBe(1 / 2);
    expect(v.map).toBe((1 / 2 + 2 / 4) / 3);
    const dcg = 1 / Math.log2(3) + 2 / Math.log2(5);
    const idcg = 2 + 1 / Math.log2(3) + 1 / Math.log2(4);
    expect(v.ndcg_cut_5).toBeCloseTo(dcg / idcg, 15);
    expect(v.ndcg_cut_10).toBeCloseTo(dcg / idcg, 15);
  });

  it('re-sorts by score, breaking ties by docid descending, ignoring file order', () => {
    const v = trecEvalQuery(
      [
        { docid: 'a', score: 1 },
        { docid: 'd1', score: 1 },
      ],
      judged,
    );
    // 'd1' > 'a', so d1 ranks first.
    expect(v.recip_rank).toBe(1);
  });

  it('evaluates only queries in both run and qrels; empty gold sets are excluded; -c counts missing ones', () => {
    const qrels = qrelsFromGold([
      { task_id: 'q1', gold_docs: ['a'] },
      { task_id: 'q2', gold_docs: [] },
      { task_id: 'q3', gold_docs: ['b'] },
    ]);
    expect([...qrels.keys()]).toEqual(['q1', 'q3']);
    const run = new Map([
      ['q1', [{ docid: 'a', score: 1 }]],
      ['q2', [{ docid: 'z', score: 1 }]],
    ]);
    const plain = trecEval(run, qrels);
    expect(plain.numQ).toBe(1);
    expect(plain.all.recall_5).toBe(1);
    const complete = trecEval(run, qrels, { complete: true });
    expect(complete.numQ).toBe(2);
    expect(complete.all.recall_5).toBe(0.5);
    expect(complete.all.num_rel).toBe(2);
  });

  it('formats like trec_eval, rounding exact ties half to even as printf does', () => {
    expect(formatFixed4(1 / 32)).toBe('0.0312');
    expect(formatFixed4(3 / 32)).toBe('0.0938');
    expect(formatFixed4(2 / 3)).toBe('0.6667');
    const qrels = new Map([['q1', new Map([['a', 1]])]]);
    const text = formatTrecEval(trecEval(new Map([['q1', [{ docid: 'a', score: 1 }]]]), qrels), 'myrun');
    expect(text.split('\n')[0]).toBe(`${'runid'.padEnd(22)}\tall\tmyrun`);
    expect(text).toContain(`${'map'.padEnd(22)}\tall\t1.0000\n`);
    expect(text).toContain(`${'num_rel_ret'.padEnd(22)}\tall\t1\n`);
  });
});

describe('trec_eval 10 (HEAD) on its conventions for -c, -l and queries missing from the run', () => {
  // Output of trec_eval HEAD (usnistgov/trec_eval f425365) with -m num_ret -m num_rel -m num_rel_ret
  // -m map -m recip_rank -m P.5,10,20 -m recall.5,10,20,100 -m ndcg_cut.5,10,20
  const qrelsText = '# a comment\nq1 0 d1 2.0\nq1 0 d\u00a0x 1\nq1 0 d3 0\nq2 0 d4 1\nq3 0 d9 2\n';
  const runText =
    '  # run comment\nq1 Q0 d1 1 3.0 tagA extra text here\nq1 Q0 d\u00a0x 2 2.0 tagA\nq1 Q0 d3 3 1.0 tagA\nq2 Q0 d5 1 1.0 tagB\n';
  const allLines = (text: string) =>
    text
      .split('\n')
      .filter((l) => l.includes('\tall\t') && !/^(runid|num_q) /.test(l))
      .join('\n');
  const qrels = parseQrels(qrelsText);
  const run = parseRun(runText).queries;

  it('-c -l 2: per-query relevance at level 2, but the all line counts num_rel as rel > 0 (4, not 2)', () => {
    const result = trecEval(run, qrels, { complete: true, relevanceLevel: 2 });
    expect(allLines(formatTrecEval(result, 'tagB'))).toBe(
      [
        'num_ret               \tall\t4',
        'num_rel               \tall\t4',
        'num_rel_ret           \tall\t1',
        'map                   \tall\t0.3333',
        'recip_rank            \tall\t0.3333',
        'P_5                   \tall\t0.0667',
        'P_10                  \tall\t0.0333',
        'P_20                  \tall\t0.0167',
        'recall_5              \tall\t0.3333',
        'recall_10             \tall\t0.3333',
        'recall_20             \tall\t0.3333',
        'recall_100            \tall\t0.3333',
        'ndcg_cut_5            \tall\t0.3333',
        'ndcg_cut_10           \tall\t0.3333',
        'ndcg_cut_20           \tall\t0.3333',
      ].join('\n'),
    );
    expect([...result.perQuery.values()].map((v) => v.num_rel)).toEqual([1, 0, 1]);
  });

  it('-c: a qrels query missing from the run scores zeros and is listed', () => {
    const result = trecEval(run, qrels, { complete: true });
    expect(result.numQ).toBe(3);
    expect(result.missingFromRun).toEqual(['q3']);
    expect(allLines(formatTrecEval(result, 'tagB')).split('\n').slice(0, 4)).toEqual([
      'num_ret               \tall\t4',
      'num_rel               \tall\t4',
      'num_rel_ret           \tall\t2',
      'map                   \tall\t0.3333',
    ]);
  });

  it('without -c (trec_eval HEAD exits 4 here): the missing query is left out and listed in missingFromRun', () => {
    const result = trecEval(run, qrels);
    expect(result.numQ).toBe(2);
    expect(result.missingFromRun).toEqual(['q3']);
    // trec_eval HEAD, on the same files without q3, prints these
    const withoutQ3 = trecEval(run, parseQrels(qrelsText.replace('q3 0 d9 2\n', '')));
    expect(withoutQ3.missingFromRun).toEqual([]);
    expect(allLines(formatTrecEval(withoutQ3, 'tagB')).split('\n').slice(0, 5)).toEqual([
      'num_ret               \tall\t4',
      'num_rel               \tall\t3',
      'num_rel_ret           \tall\t2',
      'map                   \tall\t0.5000',
      'recip_rank            \tall\t0.5000',
    ]);
    expect(allLines(formatTrecEval(result, 'tagB'))).toBe(allLines(formatTrecEval(withoutQ3, 'tagB')));
  });
});
