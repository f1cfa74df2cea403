/**
 * Pool bias of one submission (rules.ts): what it cites outside the gold sets, and, with
 * judge verdicts from a cache, the answers judged (partly) correct whose gate held no
 * supporting document but did cite one outside the pool, so the cited score was 0.
 */
import type { JudgeProfile, SplitName, Task, TaskType } from '../release/types.ts';
import { citationGold } from '../scoring/metrics.ts';
import type { PredictionsResult } from '../scoring/predictions.ts';
import { NO_GOLD_TYPES } from '../scoring/task-score.ts';
import { judgedScore, type ReplyLookup } from './judged.ts';

export interface PoolBiasRow {
  task_id: string;
  type: TaskType;
  question: string;
  answer: string;
  /** Distinct cited documents outside the gold set, in citation order. */
  outside: string[];
  /** Of those, the ones in the gate (the first gate_max_citations citations). */
  outsideInGate: string[];
  gateHasGold: boolean;
  /** The scorer's (cited, uncited) from cached verdicts, when the cache holds the task's call. */
  judged: { cited: number; uncited: number } | null;
  /** Judged (partly) correct, gate without support, gate citing outside the gold set. */
  correctWithoutGold: boolean;
}

export interface PoolBiasJudge {
  /** Answerable tasks whose verdict the cache holds (or that need none: empty answers). */
  covered: number;
  notCached: number;
  judgeErrors: number;
  /** Judged (partly) correct with a cited score of 0, whatever was cited. */
  correctGateZero: number;
  /** Of those, the gate cited a document outside the gold set: the pool-bias figure. */
  correctWithoutGold: number;
}

export interface PoolBias {
  slug: string;
  system_name: string | null;
  split: SplitName;
  /** Answerable tasks of the split with a prediction. */
  tasks: number;
  /** Tasks citing anything, and distinct (task, document) citations. */
  tasksCiting: number;
  citedPairs: number;
  /** Distinct (task, document) citations outside the gold set, the tasks they are on, the distinct documents. */
  outsidePairs: number;
  tasksWithOutside: number;
  outsideDocs: number;
  /** Tasks whose gate cites something but nothing in the gold set. */
  tasksGateAllOutside: number;
  judge: PoolBiasJudge | null;
  /** Why verdicts were not used (no judge profile, no cache). */
  judgeNote?: string;
  /** Problems of the predictions file (the valid lines were audited), and the first of them. */
  predictionIssues: number;
  firstPredictionIssue?: string;
  /** The tasks with a citation outside the gold set. */
  rows: PoolBiasRow[];
}

export interface PoolBiasInput {
  slug: string;
  system_name?: string | null;
  split: SplitName;
  tasks: readonly Task[];
  predictions: PredictionsResult;
  profile?: JudgeProfile;
  lookup?: ReplyLookup;
  gateSize?: number;
}

export async function poolBias(input: PoolBiasInput): Promise<PoolBias> {
  const gateSize = input.profile?.gate_max_citations ?? input.gateSize ?? 3;
  const useJudge = input.profile !== undefined && input.lookup !== undefined;
  const judge: PoolBiasJudge = {
    covered: 0,
    notCached: 0,
    judgeErrors: 0,
    correctGateZero: 0,
    correctWithoutGold: 0,
  };
  const rows: PoolBiasRow[] = [];
  const outsideIds = new Set<string>();
  let tasks = 0;
  let tasksCiting = 0;
  let citedPairs = 0;
  let outsidePairs = 0;
  let tasksGateAllOutside = 0;
  for (const task of input.tasks) {
    if (NO_GOLD_TYPES.has(task.type)) continue;
    const pred = input.predictions.byTaskId.get(task.task_id);
    if (!pred) continue;
    tasks++;
    const gold = citationGold(task);
    const cited = [...new Set(pred.citations)];
    const gate = new Set(pred.citations.slice(0, gateSize));
    const outside = cited.filter((d) => !gold.has(d));
    const outsideInGate = outside.filter((d) => gate.has(d));
    const gateHasGold = [...gate].some((d) => gold.has(d));
    if (cited.length) tasksCiting++;
    citedPairs += cited.length;
    outsidePairs += outside.length;
    for (const d of outside) outsideIds.add(d);
    if (gate.size > 0 && !gateHasGold) tasksGateAllOutside++;

    let judged: PoolBiasRow['judged'] = null;
    let correctWithoutGold = false;
    if (useJudge) {
      const s = await judgedScore(input.profile!, task, pred, input.lookup!);
      if (s.status === 'not_cached') judge.notCached++;
      else if (s.status === 'judge_error') {
        judge.covered++;
        judge.judgeErrors++;
      } else {
        judge.covered++;
        judged = { cited: s.cited, uncited: s.uncited };
        if (s.uncited > 0 && s.cited === 0) {
          judge.correctGateZero++;
          if (outsideInGate.length > 0) {
            correctWithoutGold = true;
            judge.correctWithoutGold++;
          }
        }
      }
    }
    if (outside.length > 0)
      rows.push({
        task_id: task.task_id,
        type: task.type,
        question: task.question,
        answer: pred.answer,
        outside,
        outsideInGate,
        gateHasGold,
        judged,
        correctWithoutGold,
      });
  }
  const out: PoolBias = {
    slug: input.slug,
    system_name: input.system_name ?? null,
    split: input.split,
    tasks,
    tasksCiting,
    citedPairs,
    outsidePairs,
    tasksWithOutside: rows.length,
    outsideDocs: outsideIds.size,
    tasksGateAllOutside,
    judge: useJudge ? judge : null,
    predictionIssues: input.predictions.issueCount,
    rows,
  };
  const first = input.predictions.summary[0] ?? input.predictions.issues[0]?.message;
  if (input.predictions.issueCount > 0 && first) out.firstPredictionIssue = first;
  if (!useJudge) out.judgeNote = input.profile ? 'no judge cache' : 'no judge profile in this release';
  return out;
}
