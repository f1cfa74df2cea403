/** The paired comparison on the real v1.0 files and the sample's submissions. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { holmAdjust, pairedComparison, pairwiseTable } from '../../../../src/core/analysis/paired.ts';
import { judgeFreeMetric, systemMetric, VerdictsMissingError } from '../../../../src/core/analysis/paired-metrics.ts';
import { parsePredictions, type PredictionsResult } from '../../../../src/core/scoring/predictions.ts';
import { recomputeJudgeFree } from '../../../../src/core/scoring/recompute.ts';
import { parseJudgeProfile, parseTasksJsonl } from '../../../../src/core/scoring/scoring-inputs.ts';
import type { Task } from '../../../../src/core/release/types.ts';
import { matrixSystemMetric } from '../../../../src/core/analysis/matrix-metrics.ts';
import { numbersFor, type SystemsMatrix } from '../../../../src/core/explorer/systems.ts';
import { hasShared, projectRoot, sharedNote, v10Dir } from '../../../support/shared.ts';

const sample = path.join(projectRoot, 'static-data/sample');

function read(file: string): string {
  return readFileSync(file, 'utf8');
}

function tasksOf(dir: string): Task[] {
  const file = path.join(dir, 'full/tasks.jsonl');
  return parseTasksJsonl(read(file), file);
}

function predictionsOf(text: string, tasks: readonly Task[]): PredictionsResult {
  const p = parsePredictions(text, tasks, { mode: 'score' });
  expect(p.ok, p.summary.join('\n')).toBe(true);
  return p;
}

/** Every task answered with nothing: no answer, no citation, nothing retrieved. */
function emptyPredictions(tasks: readonly Task[]): string {
  return tasks.map((t) => JSON.stringify({ task_id: t.task_id, answer: '', citations: [], retrieved: [] })).join('\n');
}

function profileOf(dir: string) {
  const file = path.join(dir, 'judge-profile.json');
  return parseJudgeProfile(JSON.parse(read(file)) as unknown, file);
}

describe.runIf(hasShared)(`paired comparison on v1.0 (${sharedNote})`, () => {
  const tasks = tasksOf(v10Dir);
  const bm25Dir = path.join(v10Dir, 'submissions/bm25-reference');
  const bm25 = predictionsOf(read(path.join(bm25Dir, 'predictions.jsonl')), tasks);
  const nothing = predictionsOf(emptyPredictions(tasks), tasks);
  const { bootstrap } = profileOf(v10Dir);

  it('bm25-reference against itself: difference 0, interval [0, 0], p = 1, every task a tie', () => {
    for (const metric of ['recall@20', 'ndcg@10', 'citation_precision'] as const) {
      const m = judgeFreeMetric(metric, tasks, bm25);
      const r = pairedComparison(metric, m, m, bootstrap);
      expect(r.difference).toBe(0);
      expect(r.ci95).toEqual([0, 0]);
      expect(r.p).toBe(1);
      expect([r.wins, r.losses, r.ties]).toEqual([0, 0, r.n]);
      for (const t of r.perType) expect([t.difference, t.ci95[0], t.ci95[1], t.p]).toEqual([0, 0, 0, 1]);
    }
  });

  it('bm25-reference against a submission that retrieves nothing: p < 0.001, interval above 0', () => {
    const r = pairedComparison(
      'recall@20',
      judgeFreeMetric('recall@20', tasks, bm25),
      judgeFreeMetric('recall@20', tasks, nothing),
      bootstrap,
    );
    expect(r.p).toBeLessThan(0.001);
    expect(r.ci95[0]).toBeGreaterThan(0);
    expect(r.ci95[0]).toBeLessThan(r.difference);
    expect(r.ci95[1]).toBeGreaterThan(r.difference);
    expect(r.losses).toBe(0);
    // answerable tasks of v1.0 per type, as counted from the tasks file here
    const answerable = tasks.filter((t) => t.type !== 'unanswerable' && t.type !== 'false_premise');
    expect(r.n).toBe(answerable.length);
    expect(r.perType.reduce((s, t) => s + t.n, 0)).toBe(answerable.length);
    expect(r.wins).toBe(
      answerable.filter((t) => bm25.byTaskId.get(t.task_id)!.retrieved.some((d) => t.gold_docs!.includes(d))).length,
    );
  });

  it('the point estimate is the difference of the two recompute numbers, bit for bit', () => {
    const committed = JSON.parse(read(path.join(bm25Dir, 'scores.json'))) as Record<string, unknown>;
    const fromRecompute = (p: PredictionsResult, key: string) =>
      recomputeJudgeFree(committed, tasks, p).numbers.find((n) => n.key === key)!.recomputed!;
    for (const [metric, key] of [
      ['recall@20', 'retrieval.recall@20'],
      ['recall@5', 'retrieval.recall@5'],
      ['ndcg@10', 'retrieval.ndcg@10'],
      ['citation_precision', 'citation_precision'],
      ['citation_recall', 'citation_recall'],
    ] as const) {
      const r = pairedComparison(
        metric,
        judgeFreeMetric(metric, tasks, bm25),
        judgeFreeMetric(metric, tasks, nothing),
        bootstrap,
      );
      expect(Object.is(r.difference, fromRecompute(bm25, key) - fromRecompute(nothing, key))).toBe(true);
      // and the committed number itself (bm25-reference's recompute is bit-identical to it)
      expect(Object.is(r.a, fromRecompute(bm25, key))).toBe(true);
    }
  });

  it('the same inputs give the same interval (the seed makes it reproducible), another seed another one', () => {
    const a = judgeFreeMetric('recall@5', tasks, bm25);
    const b = judgeFreeMetric('recall@5', tasks, nothing);
    const once = pairedComparison('recall@5', a, b, bootstrap);
    expect(pairedComparison('recall@5', a, b, bootstrap)).toEqual(once);
    expect(pairedComparison('recall@5', a, b, { ...bootstrap, seed: bootstrap.seed + 1 }).ci95).not.toEqual(once.ci95);
  });
});

describe('paired comparison on the sample (verdicts from its judge cache)', () => {
  const tasks = tasksOf(sample);
  const profile = profileOf(sample);
  const cache = new Map(
    Object.entries(JSON.parse(read(path.join(sample, 'judge-cache.json'))) as Record<string, string>),
  );
  const judge = { profile, lookup: async (k: string) => cache.get(k) };
  const sub = (slug: string) => predictionsOf(read(path.join(sample, 'submissions', slug, 'predictions.jsonl')), tasks);
  const slugs = ['always-refuse-sample-control', 'bm25-top-doc-sample', 'closed-book-sample-control'];

  it('cited correctness: each number equals the committed overall_cited_correctness, and the difference theirs', async () => {
    const metrics = await Promise.all(
      slugs.map(async (s) => ({ slug: s, metric: await systemMetric('cited', tasks, sub(s), judge) })),
    );
    for (const { slug, metric } of metrics) {
      const committed = JSON.parse(read(path.join(sample, 'submissions', slug, 'scores.json'))) as {
        overall_cited_correctness: number;
      };
      expect(metric.overall).toBe(committed.overall_cited_correctness);
      expect(metric.perTask).toHaveLength(tasks.length);
    }
    const table = pairwiseTable('cited', metrics, profile.bootstrap);
    expect(table.rows.map((r) => [r.a, r.b])).toEqual([
      [slugs[0], slugs[1]],
      [slugs[0], slugs[2]],
      [slugs[1], slugs[2]],
    ]);
    const row = table.rows[2]!;
    expect(row.result.difference).toBe(metrics[1]!.metric.overall - metrics[2]!.metric.overall);
    // a pair of the table is the pair compared alone (its own generator from the seed)
    expect(row.result).toEqual(pairedComparison('cited', metrics[1]!.metric, metrics[2]!.metric, profile.bootstrap));
    for (const r of table.rows) expect(r.pHolm).toBeGreaterThanOrEqual(r.result.p);
  });

  it('cited correctness without the verdicts: refused, naming how many tasks lack one', async () => {
    const empty = { profile, lookup: async () => undefined };
    await expect(systemMetric('cited', tasks, sub('bm25-top-doc-sample'), empty)).rejects.toBeInstanceOf(
      VerdictsMissingError,
    );
  });
});

describe('holmAdjust', () => {
  it("is Holm's step-down: sorted p times (m - rank), kept monotone, capped at 1, in input order", () => {
    // m = 4: 0.01*4 = 0.04, 0.02*3 = 0.06, 0.03*2 = 0.06 (monotone), 0.5*1 = 0.5
    expect(holmAdjust([0.5, 0.01, 0.03, 0.02])).toEqual([0.5, 0.04, 0.06, 0.06]);
    expect(holmAdjust([0.4, 0.6])).toEqual([0.8, 0.8]);
    expect(holmAdjust([0.9, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });
});

describe("the Systems view's matrix gives the same inputs as the predictions", () => {
  const tasks = tasksOf(sample);
  const slugs = ['bm25-top-doc-sample', 'closed-book-sample-control'];
  const preds = slugs.map((s) => predictionsOf(read(path.join(sample, 'submissions', s, 'predictions.jsonl')), tasks));
  const matrix: SystemsMatrix = {
    split: 'full',
    systems: slugs.map((slug) => ({ slug, name: slug, split: 'full', predictions: tasks.length, issues: 0 })),
    tasks: tasks.map((t) => ({
      task_id: t.task_id,
      type: t.type,
      question: t.question,
      gold: t.gold_docs?.length ?? 0,
    })),
    cells: tasks.map((t) => preds.map((p) => numbersFor(t, p.byTaskId.get(t.task_id)!))),
    leftOut: [],
    parseMs: 0,
  };

  it('every judge-free metric: the same per-task values and overall, bit for bit', () => {
    for (const metric of ['recall@20', 'recall@5', 'ndcg@10', 'citation_precision', 'citation_recall'] as const)
      preds.forEach((p, i) => {
        const m = matrixSystemMetric(matrix, i, metric);
        expect(m.ok).toBe(true);
        if (!m.ok) return;
        const direct = judgeFreeMetric(metric, tasks, p);
        expect(Object.is(m.metric.overall, direct.overall)).toBe(true);
        expect(m.metric.perTask).toEqual(direct.perTask);
      });
  });

  it('refuses a system with a task unanswered, and correctness without every verdict', () => {
    const holed = { ...matrix, cells: matrix.cells.map((row, t) => (t === 3 ? [row[0]!, null] : row)) };
    expect(matrixSystemMetric(holed, 1, 'recall@20')).toEqual({
      ok: false,
      why: 'closed-book-sample-control has no valid prediction for 1 task(s); the scorer would not score it',
    });
    const some = { [tasks[0]!.task_id]: [1, 1] as const };
    expect(matrixSystemMetric(matrix, 0, 'cited', some)).toMatchObject({
      ok: false,
      why: /lacks .* on 149 of 150 tasks/,
    });
  });
});
