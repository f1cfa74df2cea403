import { describe, expect, it } from 'vitest';
import { firstCallKey } from '../../../../src/core/audit/judged.ts';
import { poolBias } from '../../../../src/core/audit/pool-bias.ts';
import type { Task } from '../../../../src/core/release/types.ts';
import { parsePredictions } from '../../../../src/core/scoring/predictions.ts';
import { scoreSubmission } from '../../../../src/core/scoring/score.ts';
import { CORRECT, REFUSAL, WRONG, items, jsonl, task, testProfile } from '../scoring/fixtures.ts';

const tasks: Task[] = [
  // correct, cites only outside docs in the gate: the pool-bias case
  task('a', 'single_hop', { gold_docs: ['G1'] }),
  // correct, gold in the gate, one more citation outside the gold set
  task('b', 'single_hop', { gold_docs: ['G1', 'G2'] }),
  // wrong, cites outside
  task('c', 'timeline', { gold_docs: ['G3'] }),
  // correct, gold cited only at position 4 (outside the gate), outside doc in the gate
  task('d', 'single_hop', { gold_docs: ['G4'] }),
  // correct without citations: cited score 0, but no pool bias
  task('e', 'single_hop', { gold_docs: ['G5'] }),
  // an item doc outside gold_docs counts as gold for citations
  task('f', 'aggregation', {
    gold_docs: ['G6'],
    items: items(['one', ['I6']], ['two', []]),
  }),
  // aggregation matched item, gate without support, cites outside
  task('g', 'dossier', { gold_docs: ['G7'], items: items(['x', ['G7']], ['y', ['G7']]) }),
  // refusal types are not pooled: left out
  task('u', 'unanswerable'),
  // not in the cache
  task('h', 'single_hop', { gold_docs: ['G8'] }),
];
const predictions = [
  { task_id: 'a', answer: 'A', citations: ['X1', 'X2'] },
  { task_id: 'b', answer: 'B', citations: ['G2', 'X3', 'X3'] },
  { task_id: 'c', answer: 'C', citations: ['X1'] },
  { task_id: 'd', answer: 'D', citations: ['X4', 'X4', 'X5', 'G4'] },
  { task_id: 'e', answer: 'E', citations: [] },
  { task_id: 'f', answer: 'F', citations: ['I6', 'X6'] },
  { task_id: 'g', answer: 'G', citations: ['X7'] },
  { task_id: 'u', answer: 'no', citations: ['X9'] },
  { task_id: 'h', answer: 'H', citations: ['X8'] },
];
const replies: Record<string, string> = {
  a: CORRECT,
  b: CORRECT,
  c: WRONG,
  d: CORRECT,
  e: CORRECT,
  f: '{"matched_items": [true, false], "extra_items": 0}',
  g: '{"matched_items": [true, true], "extra_items": 0}',
  u: REFUSAL,
};

async function cacheOf(): Promise<Map<string, string>> {
  const cache = new Map<string, string>();
  for (const p of predictions) {
    const t = tasks.find((x) => x.task_id === p.task_id)!;
    const key = await firstCallKey(testProfile, t, p.answer);
    if (key && replies[p.task_id]) cache.set(key, replies[p.task_id]!);
  }
  return cache;
}

describe('pool bias of one submission', () => {
  const parsed = parsePredictions(jsonl(predictions), tasks);

  it('counts citations outside the gold set without a judge', async () => {
    const b = await poolBias({ slug: 's', split: 'full', tasks, predictions: parsed, gateSize: 3 });
    expect(b).toMatchObject({
      tasks: 8,
      tasksCiting: 7,
      // a: X1 X2; b: X3; c: X1; d: X4 X5; f: X6; g: X7; h: X8  (distinct per task)
      citedPairs: 2 + 2 + 1 + 3 + 2 + 1 + 1,
      outsidePairs: 9,
      tasksWithOutside: 7,
      outsideDocs: 8,
      // a, c, d (G4 is 4th), g, h
      tasksGateAllOutside: 5,
      judge: null,
    });
    expect(b.rows.find((r) => r.task_id === 'd')).toMatchObject({
      outside: ['X4', 'X5'],
      outsideInGate: ['X4', 'X5'],
      gateHasGold: false,
    });
    expect(b.rows.find((r) => r.task_id === 'f')!.outside).toEqual(['X6']);
  });

  it('finds the answers judged correct whose gate held no gold but an outside document', async () => {
    const cache = await cacheOf();
    const b = await poolBias({
      slug: 's',
      split: 'full',
      tasks,
      predictions: parsed,
      profile: testProfile,
      lookup: async (k) => cache.get(k),
    });
    expect(b.judge).toEqual({
      covered: 7,
      notCached: 1,
      judgeErrors: 0,
      correctGateZero: 4, // a, d, e, g
      correctWithoutGold: 3, // a, d, g (e cited nothing)
    });
    expect(b.rows.filter((r) => r.correctWithoutGold).map((r) => r.task_id)).toEqual(['a', 'd', 'g']);
    expect(b.rows.find((r) => r.task_id === 'b')!.judged).toEqual({ cited: 1, uncited: 1 });
  });

  it("agrees with the scorer's own per-task scores", async () => {
    const scoredTasks = tasks.filter((t) => t.task_id !== 'h');
    const scoredPreds = parsePredictions(jsonl(predictions.filter((p) => p.task_id !== 'h')), scoredTasks);
    const cache = await cacheOf();
    const outcome = await scoreSubmission({
      tasks: scoredTasks,
      predictions: scoredPreds,
      profile: { ...testProfile, judge_error_abort_ratio: 1 },
      judge: async (call) => cache.get(call.key) ?? '{"identified": true}',
    });
    const b = await poolBias({
      slug: 's',
      split: 'full',
      tasks: scoredTasks,
      predictions: scoredPreds,
      profile: testProfile,
      lookup: async (k) => cache.get(k),
    });
    for (const row of b.rows) {
      const t = outcome.tasks.find((x) => x.task_id === row.task_id)!;
      expect(row.judged).toEqual({ cited: t.cited, uncited: t.uncited });
    }
  });
});
