/**
 * The numbers of a committed scores.json that follow from its predictions and the answer key
 * without any judge verdict (docs/benchmark-spec.md 5): the retrieval block, citation precision
 * and recall (when no judge error removed tasks from them), n_tasks, the token and cost
 * telemetry, and the per-type task counts (as the key order of per_type and the micro means they
 * weigh). Each is recomputed with the scorer's own code and set beside the committed value.
 */
import type { Task, TaskType } from '../release/types.ts';
import { pySum, pyTrueDiv } from '../python/sum.ts';
import type { PredictionsResult } from './predictions.ts';
import { computeDeterministicMetrics } from './score.ts';

/** Two numbers agree when they differ by at most this much (they are in fact equal bit for bit). */
export const RECOMPUTE_TOLERANCE = 1e-12;

export interface RecomputedNumber {
  /** The report path, e.g. "retrieval.recall@5". */
  key: string;
  /** undefined when the key is absent. */
  committed: number | undefined;
  recomputed: number | undefined;
  /** Both absent, or both numbers within RECOMPUTE_TOLERANCE. */
  equal: boolean;
  /** Both absent, or the very same double. */
  identical: boolean;
  /** How the recomputed value was obtained, when it is not plainly the scorer's. */
  how?: string;
}

export interface RecomputeResult {
  numbers: RecomputedNumber[];
  /** Task counts per type, in the order each type first appears in the tasks file. */
  typeCounts: Array<[TaskType, number]>;
  /** Whether per_type and per_type_uncited list the types in that order. */
  typeOrder: Array<{ key: 'per_type' | 'per_type_uncited'; committed: string[]; equal: boolean }>;
  /** The micro means as the counts weigh the committed per-type means (Σ n_t·mean_t / N): a check of the counts. */
  countChecks: RecomputedNumber[];
  /** Numbers left out, and why (e.g. citation P/R after judge errors). */
  skipped: Array<{ key: string; why: string }>;
  /** Report keys that need judge verdicts (never recomputed here). */
  needJudge: string[];
  ok: boolean;
}

const NEED_JUDGE = [
  'overall_cited_correctness',
  'overall_cited_correctness_ci95',
  'overall_cited_correctness_micro',
  'per_type',
  'overall_uncited_correctness',
  'overall_uncited_correctness_ci95',
  'overall_uncited_correctness_micro',
  'per_type_uncited',
  'premise_id_rate',
  'premise_refused_n',
];

function numberAt(report: Record<string, unknown>, key: string): number | undefined {
  let at: unknown = report;
  for (const part of key.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return typeof at === 'number' ? at : undefined;
}

function compare(key: string, committed: number | undefined, recomputed: number | undefined, how?: string) {
  const both = committed !== undefined && recomputed !== undefined;
  return {
    key,
    committed,
    recomputed,
    equal: both ? Math.abs(committed - recomputed) <= RECOMPUTE_TOLERANCE : committed === recomputed,
    identical: both ? Object.is(committed, recomputed) : committed === recomputed,
    ...(how ? { how } : {}),
  } satisfies RecomputedNumber;
}

/**
 * `report` is the committed scores.json as parsed JSON; `predictions` must be valid for `tasks`
 * (computeDeterministicMetrics throws otherwise).
 */
export function recomputeJudgeFree(
  report: Record<string, unknown>,
  tasks: readonly Task[],
  predictions: PredictionsResult,
): RecomputeResult {
  const m = computeDeterministicMetrics(tasks, predictions);
  const numbers: RecomputedNumber[] = [];
  const skipped: RecomputeResult['skipped'] = [];
  const add = (key: string, recomputed: number | undefined, how?: string) =>
    numbers.push(compare(key, numberAt(report, key), recomputed, how));

  add('n_tasks', m.n_tasks);
  add('retrieval.recall@5', m.retrieval['recall@5']);
  add('retrieval.recall@20', m.retrieval['recall@20']);
  add('retrieval.ndcg@10', m.retrieval['ndcg@10']);
  const judgeErrors = numberAt(report, 'judge_errors');
  if (judgeErrors === 0) {
    add('citation_precision', m.citation_precision);
    add('citation_recall', m.citation_recall);
  } else {
    const why =
      judgeErrors === undefined
        ? 'the report has no judge_errors, so the tasks it left out are unknown'
        : `judge_errors is ${judgeErrors}: the tasks whose judge call failed are left out of it, and which they were is not published`;
    skipped.push({ key: 'citation_precision', why }, { key: 'citation_recall', why });
  }
  add('tokens_total', m.tokens_total);
  add('tokens_per_task', m.tokens_per_task);
  add('cost_usd_total', m.cost_usd_total);
  add('cost_usd_per_task', m.cost_usd_per_task);

  const typeCounts = [...m.type_counts.entries()];
  const order = typeCounts.map(([t]) => t);
  const typeOrder: RecomputeResult['typeOrder'] = [];
  const countChecks: RecomputedNumber[] = [];
  for (const [key, micro] of [
    ['per_type', 'overall_cited_correctness_micro'],
    ['per_type_uncited', 'overall_uncited_correctness_micro'],
  ] as const) {
    const perType = report[key];
    if (typeof perType !== 'object' || perType === null) {
      typeOrder.push({ key, committed: [], equal: false });
      continue;
    }
    const values = perType as Record<string, unknown>;
    const committed = Object.keys(values);
    typeOrder.push({ key, committed, equal: committed.join() === order.join() });
    // The counts weigh the committed per-type means into the micro mean: Σ n_t·mean_t / N.
    const weighted = typeCounts.map(([t, n]) => n * (typeof values[t] === 'number' ? values[t] : NaN));
    const fromCounts = m.n_tasks ? pyTrueDiv(pySum(weighted), m.n_tasks) : undefined;
    countChecks.push(compare(micro, numberAt(report, micro), fromCounts, `Σ n_t × ${key}[t] / n_tasks`));
  }

  return {
    numbers,
    typeCounts,
    typeOrder,
    countChecks,
    skipped,
    needJudge: NEED_JUDGE.filter((k) => k in report),
    ok: numbers.every((n) => n.equal) && countChecks.every((n) => n.equal) && typeOrder.every((t) => t.equal),
  };
}
