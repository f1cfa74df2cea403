/**
 * A system's paired-comparison input from the Systems view's matrix (the scorer's per-task
 * numbers, computed once in the data worker) and, for correctness, the per-task verdict scores
 * read from a judge cache. The overall is the scorer's mean of those very values in task order, so
 * it equals the scorer's number bit for bit.
 */
import type { SystemTaskNumbers, SystemsMatrix } from '../explorer/systems.ts';
import type { TaskType } from '../release/types.ts';
import { pyMean } from '../python/sum.ts';
import type { PairedMetric, SystemMetric, TaskValue } from './paired-metrics.ts';

/** Per task: [cited, uncited] scores from cached verdicts. */
export type TaskVerdictScores = Readonly<Record<string, readonly [number, number]>>;

const NUMBER_OF: Record<Exclude<PairedMetric, 'cited' | 'uncited'>, keyof SystemTaskNumbers> = {
  'recall@20': 'recall20',
  'recall@5': 'recall5',
  'ndcg@10': 'ndcg10',
  citation_precision: 'citationPrecision',
  citation_recall: 'citationRecall',
};

export type MatrixMetric = { ok: true; metric: SystemMetric } | { ok: false; why: string };

export function matrixSystemMetric(
  matrix: SystemsMatrix,
  system: number,
  metric: PairedMetric,
  verdicts?: TaskVerdictScores,
): MatrixMetric {
  const info = matrix.systems[system];
  if (!info) return { ok: false, why: `no system ${system}` };
  const missing = matrix.tasks.filter((_, t) => matrix.cells[t]![system] === null).length;
  if (missing > 0)
    return {
      ok: false,
      why: `${info.name} has no valid prediction for ${missing} task(s); the scorer would not score it`,
    };
  if (metric === 'cited' || metric === 'uncited') {
    const k = metric === 'cited' ? 0 : 1;
    const perTask: TaskValue[] = [];
    let lacking = 0;
    for (const t of matrix.tasks) {
      const v = verdicts?.[t.task_id];
      if (v === undefined) lacking++;
      else perTask.push({ task_id: t.task_id, type: t.type, value: v[k] });
    }
    if (lacking > 0)
      return {
        ok: false,
        why: `the judge cache lacks ${info.name}'s verdicts on ${lacking} of ${matrix.tasks.length} tasks`,
      };
    const byType = new Map<TaskType, number[]>();
    for (const v of perTask) byType.set(v.type, [...(byType.get(v.type) ?? []), v.value]);
    return { ok: true, metric: { overall: pyMean([...byType.values()].map((v) => pyMean(v))), perTask } };
  }
  const key = NUMBER_OF[metric];
  const perTask: TaskValue[] = [];
  matrix.tasks.forEach((t, i) => {
    const value = matrix.cells[i]![system]![key];
    if (typeof value === 'number') perTask.push({ task_id: t.task_id, type: t.type, value });
  });
  return { ok: true, metric: { overall: pyMean(perTask.map((v) => v.value)), perTask } };
}
