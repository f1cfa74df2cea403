/**
 * One system's number on one metric, as the scorer reports it, with the per-task values it is
 * made of (for the paired bootstrap). Judge-free metrics come from the predictions and the
 * answer key through the scorer's own code (computeDeterministicMetrics, so the number equals
 * `recompute`'s bit for bit); cited and uncited correctness from judge replies already cached.
 */
import type { JudgeProfile, Task, TaskType } from '../release/types.ts';
import { pyMean } from '../python/sum.ts';
import { judgedScore, type ReplyLookup } from '../audit/judged.ts';
import { citationGold, citationPrecisionRecall, ndcgAtK, recallAtK } from '../scoring/metrics.ts';
import type { PredictionsResult, ScoringPrediction } from '../scoring/predictions.ts';
import { computeDeterministicMetrics } from '../scoring/score.ts';
import { NO_GOLD_TYPES } from '../scoring/task-score.ts';

export const PAIRED_METRICS = [
  'recall@20',
  'recall@5',
  'ndcg@10',
  'citation_precision',
  'citation_recall',
  'cited',
  'uncited',
] as const;
export type PairedMetric = (typeof PAIRED_METRICS)[number];

export function isPairedMetric(s: string): s is PairedMetric {
  return (PAIRED_METRICS as readonly string[]).includes(s);
}

export function metricNeedsJudge(metric: PairedMetric): boolean {
  return metric === 'cited' || metric === 'uncited';
}

/** The report key the metric's number is, e.g. "retrieval.recall@20". */
export function metricReportKey(metric: PairedMetric): string {
  if (metric === 'cited') return 'overall_cited_correctness';
  if (metric === 'uncited') return 'overall_uncited_correctness';
  if (metric === 'citation_precision' || metric === 'citation_recall') return metric;
  return `retrieval.${metric}`;
}

/** Correctness is the mean of the per-type means; the others the mean over answerable tasks. */
export function metricAggregate(metric: PairedMetric): 'macro' | 'micro' {
  return metricNeedsJudge(metric) ? 'macro' : 'micro';
}

export interface TaskValue {
  task_id: string;
  type: TaskType;
  value: number;
}

export interface SystemMetric {
  /** The number as the scorer reports it. */
  overall: number;
  /** The values it is made of, in task order (answerable tasks only for judge-free metrics). */
  perTask: TaskValue[];
}

function prediction(predictions: PredictionsResult, task: Task): ScoringPrediction {
  const p = predictions.byTaskId.get(task.task_id);
  if (!p) throw new Error(`no valid prediction for task ${task.task_id}`);
  return p;
}

function taskValue(metric: PairedMetric, task: Task, pred: ScoringPrediction): number {
  const gold = task.gold_docs ?? [];
  switch (metric) {
    case 'recall@20':
      return recallAtK(pred.retrieved, gold, 20);
    case 'recall@5':
      return recallAtK(pred.retrieved, gold, 5);
    case 'ndcg@10':
      return ndcgAtK(pred.retrieved, gold, 10);
    case 'citation_precision':
      return citationPrecisionRecall(pred.citations, citationGold(task)).precision;
    case 'citation_recall':
      return citationPrecisionRecall(pred.citations, citationGold(task)).recall;
    default:
      throw new Error(`${metric} needs judge verdicts`);
  }
}

/** A judge-free metric of one system (throws on invalid predictions, as the scorer would not score them). */
export function judgeFreeMetric(
  metric: PairedMetric,
  tasks: readonly Task[],
  predictions: PredictionsResult,
): SystemMetric {
  const m = computeDeterministicMetrics(tasks, predictions);
  const overall =
    metric === 'citation_precision'
      ? m.citation_precision
      : metric === 'citation_recall'
        ? m.citation_recall
        : metric === 'recall@20' || metric === 'recall@5' || metric === 'ndcg@10'
          ? m.retrieval[metric]
          : NaN;
  if (Number.isNaN(overall)) throw new Error(`${metric} needs judge verdicts`);
  const perTask = tasks
    .filter((t) => !NO_GOLD_TYPES.has(t.type))
    .map((t) => ({ task_id: t.task_id, type: t.type, value: taskValue(metric, t, prediction(predictions, t)) }));
  return { overall, perTask };
}

export class VerdictsMissingError extends Error {
  constructor(
    readonly missing: number,
    readonly total: number,
    readonly firstTaskId: string,
  ) {
    super(
      `the judge cache lacks the verdicts of ${missing} of ${total} tasks (first: task ${firstTaskId}); cited and uncited correctness need every one`,
    );
  }
}

/**
 * Cited or uncited correctness from cached judge replies, as the scorer computes it: each task's
 * score (a reply the scorer cannot read is a judge error, scored 0), the mean per type, then the
 * mean of those. Throws VerdictsMissingError when the cache lacks any task's reply.
 */
export async function judgedMetric(
  metric: 'cited' | 'uncited',
  tasks: readonly Task[],
  predictions: PredictionsResult,
  profile: JudgeProfile,
  lookup: ReplyLookup,
): Promise<SystemMetric> {
  const perTask: TaskValue[] = [];
  const missing: string[] = [];
  for (const task of tasks) {
    const s = await judgedScore(profile, task, prediction(predictions, task), lookup);
    if (s.status === 'not_cached') {
      missing.push(task.task_id);
      continue;
    }
    const value = s.status === 'judge_error' ? 0 : metric === 'cited' ? s.cited : s.uncited;
    perTask.push({ task_id: task.task_id, type: task.type, value });
  }
  if (missing.length) throw new VerdictsMissingError(missing.length, tasks.length, missing[0]!);
  const byType = new Map<TaskType, number[]>();
  for (const v of perTask) {
    const list = byType.get(v.type) ?? [];
    list.push(v.value);
    byType.set(v.type, list);
  }
  return { overall: pyMean([...byType.values()].map((v) => pyMean(v))), perTask };
}

export async function systemMetric(
  metric: PairedMetric,
  tasks: readonly Task[],
  predictions: PredictionsResult,
  judge?: { profile: JudgeProfile; lookup: ReplyLookup },
): Promise<SystemMetric> {
  if (metric === 'cited' || metric === 'uncited') {
    if (!judge) throw new Error(`${metric} correctness needs judge verdicts (a judge cache)`);
    return judgedMetric(metric, tasks, predictions, judge.profile, judge.lookup);
  }
  return judgeFreeMetric(metric, tasks, predictions);
}
