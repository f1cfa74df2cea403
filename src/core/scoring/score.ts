/**
 * Scoring a submission as score.py does, in three steps a UI can show one by one:
 * computeDeterministicMetrics (no judge), planJudgeCalls (every first-phase call up front),
 * planPremiseCalls (the premise-id calls, which depend on the answer verdicts), and
 * scoreSubmission, which drives an injected judge function (cache lookup offline, an API
 * client live) and builds the report.
 */
import { errorMessage } from '../error-message.ts';
import type { JudgeProfile, ScoreReport, Task, TaskType } from '../release/types.ts';
import { BootstrapCancelled, createBootstrapRng, stratifiedBootstrapCiSliced } from './bootstrap.ts';
import { citationGold, citationPrecisionRecall, ndcgAtK, recallAtK } from './metrics.ts';
import { pyMean, pyTrueDiv } from '../python/sum.ts';
import type { PredictionsResult, ScoringPrediction } from './predictions.ts';
import { judgeCacheKey, renderAggregationPrompt, renderAnswerPrompt, renderPremisePrompt } from './prompts.ts';
import type { JudgeTag } from './prompts.ts';
import { CanonicalScorerCrash } from '../python/semantics.ts';
import { pyRound } from '../python/round.ts';
import type { ReportPyValues } from './report.ts';
import type { PyNumberValue } from '../python/semantics.ts';
import { formatScoresJson, orderReport } from './report.ts';
import { NO_GOLD_TYPES, isListType, scoreListTask, scoreRefusalTask, scoreSingleAnswerTask } from './task-score.ts';
import type { TaskScore } from './task-score.ts';
import { JudgeReplyError, readAggregationVerdict, readAnswerVerdict, readPremiseVerdict } from './verdicts.ts';

const RECALL_KS = [5, 20] as const;
const NDCG_K = 10;

export interface JudgeCall {
  key: string;
  model: string;
  system: string;
  prompt: string;
  tag: JudgeTag;
  task_id: string;
}

/** Returns the raw reply text; throwing means the call failed (a judge error, like LLMError). */
export type JudgeFn = (call: JudgeCall) => Promise<string>;

/** Thrown by a judge function that has no reply and must not call out (offline cache miss). */
export class JudgeCallMissingError extends Error {
  constructor(readonly call: JudgeCall) {
    super(`judge call ${call.key} (${call.tag}, task ${call.task_id}) is not in the judge cache`);
  }
}

/** Scoring stopped: every missing call of the phases that could be planned. */
export class JudgeCallsMissingError extends Error {
  constructor(readonly calls: JudgeCall[]) {
    super(`${calls.length} judge call(s) are not in the judge cache`);
  }
}

export class ScoringAbortedError extends Error {
  constructor(
    readonly reason: 'judge_errors' | 'canonical_crash',
    message: string,
  ) {
    super(message);
  }
}

/** Scoring was cancelled during the bootstrap (its signal aborted): iterations done of both intervals. */
export class ScoringCancelledError extends Error {
  constructor(readonly bootstrap: { done: number; total: number }) {
    super(`scoring cancelled during the bootstrap, after ${bootstrap.done} of ${bootstrap.total} iterations`);
    this.name = 'ScoringCancelledError';
  }
}

export interface DeterministicMetrics {
  n_tasks: number;
  /** Task counts per type, in order of first appearance. */
  type_counts: Map<TaskType, number>;
  retrieval: { 'recall@5': number; 'recall@20': number; 'ndcg@10': number };
  /** Over every answerable task (final values leave out tasks whose judge call fails). */
  citation_precision: number;
  citation_recall: number;
  /** Per task, null for the no-gold types. */
  per_task_citation: ({ precision: number; recall: number } | null)[];
  /** tokens_total / cost_usd_total as JS numbers (for display); `exact` holds them as Python values. */
  tokens_total?: number;
  tokens_per_task?: number;
  cost_usd_total?: number;
  cost_usd_per_task?: number;
  exact: ReportPyValues;
}

function predictionOf(predictions: PredictionsResult, task: Task): ScoringPrediction {
  const p = predictions.byTaskId.get(task.task_id);
  if (!p) throw new Error(`no valid prediction for task ${task.task_id}; validate the predictions first`);
  return p;
}

function assertValid(predictions: PredictionsResult): void {
  if (!predictions.ok) {
    const first = predictions.summary[0] ?? predictions.issues[0]?.message ?? 'invalid predictions';
    throw new Error(`predictions cannot be scored (${predictions.issueCount} problem(s)): ${first}`);
  }
}

/** round(total / n_tasks, digits) with Python's int/float division. */
function perTask(total: PyNumberValue, n: number, digits: number): number {
  return n ? pyRound(pyTrueDiv(total, BigInt(n)), digits) : 0;
}

export function computeDeterministicMetrics(
  tasks: readonly Task[],
  predictions: PredictionsResult,
): DeterministicMetrics {
  assertValid(predictions);
  const typeCounts = new Map<TaskType, number>();
  const recalls: number[][] = RECALL_KS.map(() => []);
  const ndcgs: number[] = [];
  const perTaskCitation: DeterministicMetrics['per_task_citation'] = [];
  for (const task of tasks) {
    typeCounts.set(task.type, (typeCounts.get(task.type) ?? 0) + 1);
    const pred = predictionOf(predictions, task);
    if (NO_GOLD_TYPES.has(task.type)) {
      perTaskCitation.push(null);
      continue;
    }
    const gold = task.gold_docs ?? [];
    RECALL_KS.forEach((k, i) => recalls[i]!.push(recallAtK(pred.retrieved, gold, k)));
    ndcgs.push(ndcgAtK(pred.retrieved, gold, NDCG_K));
    perTaskCitation.push(citationPrecisionRecall(pred.citations, citationGold(task)));
  }
  const cit = perTaskCitation.filter((c) => c !== null);
  const n = tasks.length;
  const out: DeterministicMetrics = {
    n_tasks: n,
    type_counts: typeCounts,
    retrieval: { 'recall@5': pyMean(recalls[0]!), 'recall@20': pyMean(recalls[1]!), 'ndcg@10': pyMean(ndcgs) },
    citation_precision: pyMean(cit.map((c) => c.precision)),
    citation_recall: pyMean(cit.map((c) => c.recall)),
    per_task_citation: perTaskCitation,
    exact: {},
  };
  const { tokens, cost } = predictions.telemetry;
  if (tokens !== null) {
    out.exact.tokens_total = tokens;
    out.tokens_total = Number(tokens);
    out.tokens_per_task = perTask(tokens, n, 1);
  }
  if (cost !== null) {
    // round(int, 4) stays an int
    const total = typeof cost === 'bigint' ? cost : pyRound(cost, 4);
    out.exact.cost_usd_total = total;
    out.cost_usd_total = Number(total);
    out.cost_usd_per_task = perTask(cost, n, 6);
  }
  return out;
}

async function makeCall(profile: JudgeProfile, tag: JudgeTag, task: Task, prompt: string): Promise<JudgeCall> {
  const key = await judgeCacheKey(profile.judge_model, profile.system, prompt);
  return { key, model: profile.judge_model, system: profile.system, prompt, tag, task_id: task.task_id };
}

/** The first judge call of a task, or null when the task needs none (an answerable task with an empty answer). */
async function firstCall(profile: JudgeProfile, task: Task, pred: ScoringPrediction): Promise<JudgeCall | null> {
  const answer = pred.answer;
  if (NO_GOLD_TYPES.has(task.type))
    return makeCall(profile, 'SCOREJUDGE', task, renderAnswerPrompt(profile, task, answer || '(empty)'));
  if (!answer) return null;
  if (isListType(task.type)) return makeCall(profile, 'AGGJUDGE', task, renderAggregationPrompt(profile, task, answer));
  return makeCall(profile, 'SCOREJUDGE', task, renderAnswerPrompt(profile, task, answer));
}

/** Every first-phase judge call, in task order. */
export async function planJudgeCalls(
  tasks: readonly Task[],
  predictions: PredictionsResult,
  profile: JudgeProfile,
): Promise<JudgeCall[]> {
  assertValid(predictions);
  const calls = await Promise.all(tasks.map((task) => firstCall(profile, task, predictionOf(predictions, task))));
  return calls.filter((c): c is JudgeCall => c !== null);
}

/**
 * The premise-id calls: one per false_premise task whose answer verdict is a refusal.
 * `replies` maps first-phase cache keys to reply texts; tasks without a usable reply are skipped.
 */
export async function planPremiseCalls(
  tasks: readonly Task[],
  predictions: PredictionsResult,
  profile: JudgeProfile,
  replies: ReadonlyMap<string, string>,
): Promise<JudgeCall[]> {
  const out: JudgeCall[] = [];
  for (const task of tasks) {
    if (task.type !== 'false_premise') continue;
    const pred = predictionOf(predictions, task);
    const call = await firstCall(profile, task, pred);
    const reply = call ? replies.get(call.key) : undefined;
    if (reply === undefined) continue;
    let refused: boolean;
    try {
      refused = readAnswerVerdict(reply).isRefusal;
    } catch {
      continue;
    }
    if (refused) out.push(await makeCall(profile, 'PREMISEID', task, renderPremisePrompt(profile, task, pred.answer)));
  }
  return out;
}

export interface JudgeCallRecord extends JudgeCall {
  /** The raw reply, or null when the call failed. */
  reply: string | null;
  error?: string;
}

export interface TaskOutcome {
  task_id: string;
  type: TaskType;
  cited: number;
  uncited: number;
  judge_error: boolean;
  premise_refused: boolean | null;
  premise_identified: boolean | null;
}

export interface ScoringOutcome {
  report: ScoreReport;
  /** Report values a JS number cannot hold exactly (see ReportPyValues). */
  exact: ReportPyValues;
  /** json.dumps(report, indent=2), byte-compatible with the canonical scores.json. */
  scoresJson: string;
  /** Every judge call in the canonical scorer's order (task order; a premise call follows its answer call). */
  calls: JudgeCallRecord[];
  tasks: TaskOutcome[];
  deterministic: DeterministicMetrics;
}

export interface ScoreSubmissionInput {
  tasks: readonly Task[];
  predictions: PredictionsResult;
  profile: JudgeProfile;
  judge: JudgeFn;
  /** Tasks judged at once. Default 8. */
  concurrency?: number;
  /** Appended to the report like validate/submit do. */
  extras?: { system_name?: string; split?: string; dataset_version?: string };
  onTaskDone?: (done: number, total: number) => void;
  /** The bootstrap's progress: iterations done of both intervals (cited, then uncited). */
  onBootstrap?: (done: number, total: number) => void;
  /** Stops the bootstrap between slices of iterations (ScoringCancelledError); the judge calls made stay cached. */
  signal?: AbortSignal;
}

interface TaskRun {
  outcome: TaskOutcome;
  calls: JudgeCallRecord[];
  missing: JudgeCall[];
}

async function runCall(
  judge: JudgeFn,
  call: JudgeCall,
  records: JudgeCallRecord[],
  missing: JudgeCall[],
): Promise<string | null> {
  try {
    const reply = await judge(call);
    records.push({ ...call, reply });
    return reply;
  } catch (error) {
    if (error instanceof JudgeCallMissingError) {
      missing.push(call);
      return null;
    }
    records.push({ ...call, reply: null, error: errorMessage(error) });
    throw new JudgeReplyError('judge call failed');
  }
}

async function scoreTask(input: ScoreSubmissionInput, task: Task): Promise<TaskRun> {
  const { profile, judge } = input;
  const pred = predictionOf(input.predictions, task);
  const gate = pred.citations.slice(0, profile.gate_max_citations);
  const outcome: TaskOutcome = {
    task_id: task.task_id,
    type: task.type,
    cited: 0,
    uncited: 0,
    judge_error: false,
    premise_refused: null,
    premise_identified: null,
  };
  const calls: JudgeCallRecord[] = [];
  const missing: JudgeCall[] = [];
  try {
    const call = await firstCall(profile, task, pred);
    let score: TaskScore = { cited: 0, uncited: 0 };
    if (call) {
      const reply = await runCall(judge, call, calls, missing);
      if (reply === null) return { outcome, calls, missing };
      if (NO_GOLD_TYPES.has(task.type)) score = scoreRefusalTask(readAnswerVerdict(reply));
      else if (isListType(task.type)) score = scoreListTask(task, gate, readAggregationVerdict(reply));
      else score = scoreSingleAnswerTask(task, gate, readAnswerVerdict(reply));
    }
    outcome.cited = score.cited;
    outcome.uncited = score.uncited;
    if (task.type === 'false_premise') {
      const refused = score.uncited >= 1;
      outcome.premise_refused = refused;
      if (refused) {
        const premise = await makeCall(profile, 'PREMISEID', task, renderPremisePrompt(profile, task, pred.answer));
        const reply = await runCall(judge, premise, calls, missing);
        if (reply === null) return { outcome, calls, missing };
        outcome.premise_identified = readPremiseVerdict(reply);
      }
    }
  } catch (error) {
    // score.py catches only LLMError; the scores already assigned stay (a failed premise call keeps the refusal score)
    if (!(error instanceof JudgeReplyError)) throw error;
    outcome.judge_error = true;
    const last = calls[calls.length - 1];
    if (last && last.reply !== null && last.error === undefined) last.error = error.message;
  }
  return { outcome, calls, missing };
}

/**
 * fn over items with at most `limit` in flight, results in item order. When some calls throw,
 * the error thrown is the one of the first item in item order, whatever finished first (the
 * canonical scorer goes through the tasks one by one and stops at the first); items after a
 * failed one are not started.
 */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let firstFailed = items.length;
  let firstError: unknown;
  const worker = async (): Promise<void> => {
    while (next < items.length && next < firstFailed) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (error) {
        if (i < firstFailed) {
          firstFailed = i;
          firstError = error;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (firstFailed < items.length) throw firstError;
  return results;
}

export async function scoreSubmission(input: ScoreSubmissionInput): Promise<ScoringOutcome> {
  const { tasks, profile } = input;
  const deterministic = computeDeterministicMetrics(tasks, input.predictions);
  let done = 0;
  let runs: TaskRun[];
  try {
    runs = await mapLimited(tasks, input.concurrency ?? 8, async (task) => {
      const run = await scoreTask(input, task);
      input.onTaskDone?.(++done, tasks.length);
      return run;
    });
  } catch (error) {
    if (error instanceof CanonicalScorerCrash) throw new ScoringAbortedError('canonical_crash', error.message);
    throw error;
  }
  const missing = runs.flatMap((r) => r.missing);
  if (missing.length > 0) throw new JudgeCallsMissingError(missing);

  const n = tasks.length;
  const errors = runs.filter((r) => r.outcome.judge_error).length;
  const limit = Math.max(1, Math.trunc(n * profile.judge_error_abort_ratio));
  if (errors > limit) {
    throw new ScoringAbortedError(
      'judge_errors',
      `judge failed on ${errors}/${n} tasks (more than ${limit}): aborting instead of scoring unjudgeable tasks as zero`,
    );
  }

  const cited = new Map<string, number[]>();
  const uncited = new Map<string, number[]>();
  const citPrec: number[] = [];
  const citRec: number[] = [];
  let refused = 0;
  let identified = 0;
  runs.forEach(({ outcome }, i) => {
    if (!cited.has(outcome.type)) {
      cited.set(outcome.type, []);
      uncited.set(outcome.type, []);
    }
    cited.get(outcome.type)!.push(outcome.cited);
    uncited.get(outcome.type)!.push(outcome.uncited);
    const cit = deterministic.per_task_citation[i];
    if (cit && !outcome.judge_error) {
      citPrec.push(cit.precision);
      citRec.push(cit.recall);
    }
    if (outcome.premise_refused) {
      refused++;
      if (outcome.premise_identified) identified++;
    }
  });

  const perType = Object.fromEntries([...cited].map(([t, v]) => [t, pyMean(v)]));
  const perTypeUncited = Object.fromEntries([...uncited].map(([t, v]) => [t, pyMean(v)]));
  const rng = createBootstrapRng(profile.bootstrap.seed);
  const iterations = profile.bootstrap.iterations;
  const ciOf = async (values: ReadonlyMap<string, readonly number[]>, before: number): Promise<[number, number]> => {
    try {
      return await stratifiedBootstrapCiSliced(values, rng, {
        iterations,
        percentiles: profile.bootstrap.percentiles,
        ...(input.signal ? { signal: input.signal } : {}),
        ...(input.onBootstrap
          ? { onProgress: (done: number) => input.onBootstrap!(before + done, 2 * iterations) }
          : {}),
      });
    } catch (error) {
      if (error instanceof BootstrapCancelled)
        throw new ScoringCancelledError({ done: before + error.done, total: 2 * iterations });
      throw error;
    }
  };
  // the cited interval draws first: both share the generator
  const citedCi = await ciOf(cited, 0);
  const uncitedCi = await ciOf(uncited, iterations);
  const report: ScoreReport = {
    overall_cited_correctness: pyMean(Object.values(perType)),
    overall_cited_correctness_ci95: citedCi,
    overall_cited_correctness_micro: pyMean(runs.map((r) => r.outcome.cited)),
    per_type: perType,
    overall_uncited_correctness: pyMean(Object.values(perTypeUncited)),
    overall_uncited_correctness_ci95: uncitedCi,
    overall_uncited_correctness_micro: pyMean(runs.map((r) => r.outcome.uncited)),
    per_type_uncited: perTypeUncited,
    citation_precision: pyMean(citPrec),
    citation_recall: pyMean(citRec),
    retrieval: deterministic.retrieval,
    n_tasks: n,
    judge_model: profile.judge_model,
    judge_prompt_version: profile.judge_prompt_version,
    judge_errors: errors,
  };
  if (refused) {
    report.premise_id_rate = identified / refused;
    report.premise_refused_n = refused;
  }
  if (deterministic.tokens_total !== undefined) {
    report.tokens_total = deterministic.tokens_total;
    report.tokens_per_task = deterministic.tokens_per_task!;
  }
  if (deterministic.cost_usd_total !== undefined) {
    report.cost_usd_total = deterministic.cost_usd_total;
    report.cost_usd_per_task = deterministic.cost_usd_per_task!;
  }
  const extras = input.extras ?? {};
  if (extras.system_name !== undefined) report.system_name = extras.system_name;
  if (extras.split !== undefined) report.split = extras.split;
  if (extras.dataset_version !== undefined) report.dataset_version = extras.dataset_version;

  const ordered = orderReport(report);
  return {
    report: ordered,
    exact: deterministic.exact,
    scoresJson: formatScoresJson(ordered, deterministic.exact),
    calls: runs.flatMap((r) => r.calls),
    tasks: runs.map((r) => r.outcome),
    deterministic,
  };
}

/**
 * Each task's outcome as scoreSubmission would give it, for the tasks whose judge calls the
 * judge function answers; undefined for a task with a call it lacks (JudgeCallMissingError).
 * No report, no abort on judge errors: for showing the verdicts a judge cache already holds.
 */
export async function scoreCoveredTasks(
  input: Omit<ScoreSubmissionInput, 'extras' | 'onTaskDone'>,
): Promise<Array<TaskOutcome | undefined>> {
  assertValid(input.predictions);
  return mapLimited(input.tasks, input.concurrency ?? 8, async (task) => {
    const run = await scoreTask(input, task);
    return run.missing.length > 0 ? undefined : run.outcome;
  });
}
