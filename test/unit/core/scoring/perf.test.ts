/**
 * Timing of the two paths a user waits on, on a synthetic full-size split (1,038 tasks).
 * Goals: < 200 ms and < 1 s on an idle machine (measured: ~15-50 ms and ~150-400 ms). The times
 * are printed, never asserted (unit tests share two cores); the assertions check the work was done.
 */
import { describe, expect, it } from 'vitest';
import type { Task, TaskType } from '../../../../src/core/release/types.ts';
import { parsePredictions } from '../../../../src/core/scoring/predictions.ts';
import { computeDeterministicMetrics, scoreSubmission } from '../../../../src/core/scoring/score.ts';
import { jsonl, task, items, testProfile } from './fixtures.ts';

const COUNTS: [TaskType, number][] = [
  ['aggregation', 111],
  ['single_hop', 823],
  ['timeline', 27],
  ['dossier', 7],
  ['unanswerable', 32],
  ['false_premise', 38],
];

function fullSizeSplit(): { tasks: Task[]; text: string } {
  const tasks: Task[] = [];
  const rows: object[] = [];
  let n = 0;
  for (const [type, count] of COUNTS) {
    for (let i = 0; i < count; i++, n++) {
      const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const gold = Array.from({ length: 6 }, (_, j) => `EFTA${String(n * 10 + j).padStart(8, '0')}`);
      const list = type === 'aggregation' || type === 'dossier';
      tasks.push(
        task(id, type, {
          gold_docs: type === 'unanswerable' || type === 'false_premise' ? [] : gold,
          items: list ? items(['x', [gold[0]!]], ['y', []]) : null,
        }),
      );
      rows.push({
        task_id: id,
        answer: `An answer of about a hundred characters for task ${n}, citing documents and giving dates like 2015-01-10.`,
        citations: gold.slice(0, 4),
        retrieved: Array.from({ length: 20 }, (_, j) => `EFTA${String(n * 10 + j * 3).padStart(8, '0')}`),
        usage: { input_tokens: 7000 + n, output_tokens: 500 },
        cost_usd: 0.03 + n / 1e6,
      });
    }
  }
  return { tasks, text: jsonl(rows) };
}

describe('scorer at full split size (1,038 predictions); times are printed, not asserted', () => {
  const { tasks, text } = fullSizeSplit();

  it('validates and computes the judge-free metrics (goal 200 ms)', () => {
    parsePredictions(text, tasks); // warm up the JIT once
    const start = performance.now();
    const predictions = parsePredictions(text, tasks);
    const metrics = computeDeterministicMetrics(tasks, predictions);
    const ms = performance.now() - start;
    console.log(`validation + deterministic metrics: ${ms.toFixed(1)} ms`);
    expect(predictions.ok).toBe(true);
    expect(metrics.n_tasks).toBe(1038);
  });

  it('builds the full report from a warm cache (goal 1 s)', async () => {
    const predictions = parsePredictions(text, tasks);
    const judge = async (call: { tag: string }) =>
      call.tag === 'AGGJUDGE'
        ? '{"matched_items": [true, false], "extra_items": 1}'
        : call.tag === 'PREMISEID'
          ? '{"identified": true}'
          : '{"correct": true, "is_refusal": true}';
    const profile = { ...testProfile, bootstrap: { ...testProfile.bootstrap, iterations: 1000 } };
    const start = performance.now();
    const outcome = await scoreSubmission({ tasks, predictions, profile, judge });
    const ms = performance.now() - start;
    console.log(`full report from a warm cache: ${ms.toFixed(1)} ms (${outcome.calls.length} judge calls)`);
    expect(outcome.calls.length).toBe(1038 + 38);
  });
});
