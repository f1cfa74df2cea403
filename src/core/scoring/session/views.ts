/** Plain, structured-clone-friendly views of scoring results for the Score page. */
import type { JudgeStop } from '../../judge/run-stop.ts';
import type { JudgeProgress } from '../../judge/types.ts';
import type { JudgeCostEstimate } from '../../judge/estimate.ts';
import type { Leaderboard, ScoreReport, Task, TaskType } from '../../release/types.ts';
import type { PredictionIssue, PredictionsResult } from '../predictions.ts';
import type { DeterministicMetrics, ScoringOutcome } from '../score.ts';
import { readAnswerVerdict } from '../verdicts.ts';

export type PredictionSlot = 'primary' | 'second';

export interface DeterministicView {
  n_tasks: number;
  type_counts: Array<{ type: TaskType; count: number }>;
  retrieval: DeterministicMetrics['retrieval'];
  citation_precision: number;
  citation_recall: number;
  tokens_total?: number;
  tokens_per_task?: number;
  cost_usd_total?: number;
  cost_usd_per_task?: number;
}

export interface ValidationView {
  file: string;
  ok: boolean;
  /** A one-line reason when the file cannot be read at all (empty, too big). */
  fatal?: string;
  lineCount: number;
  validCount: number;
  issueCount: number;
  /** The first problems (capped); issueCount says how many there are. */
  issues: PredictionIssue[];
  summary: string[];
  /** Values the scorer reads anyway (what validate would refuse), each naming its line and field; capped like issues. */
  warnings: PredictionIssue[];
  warningCount: number;
  deterministic?: DeterministicView;
  millis: number;
}

export interface TaskRow {
  task_id: string;
  type: TaskType;
  cited: number;
  uncited: number;
  judge_error: boolean;
  /** The judge read the answer as a refusal (answer verdict), or null without one. */
  refused: boolean | null;
  /** The answer contains a <system_answer> fence tag: sent verbatim, flagged here. */
  fence_breakout: boolean;
  answer_preview: string;
}

export interface TaskDetail {
  task_id: string;
  type: TaskType;
  question: string;
  reference_answer: string | null;
  answer: string;
  citations: string[];
  fence_breakout: boolean;
  calls: Array<{ tag: string; key: string; prompt: string; reply: string | null; error?: string }>;
}

export interface LeaderboardPlace {
  /** 1-based rank the new score takes: one more than the entries scoring strictly higher (ties share a rank). */
  rank: number;
  /** Best first; each with its rank (equal scores share one), the new score before its equals. */
  entries: Array<{
    system_name: string;
    overall_cited_correctness: number;
    split?: string;
    isNew: boolean;
    rank: number;
  }>;
}

export interface ScorecardView {
  report: ScoreReport;
  scoresJson: string;
  rows: TaskRow[];
  callCount: number;
  leaderboard?: LeaderboardPlace;
}

/** Bootstrap iterations done of both intervals (cited, then uncited). */
export interface BootstrapProgress {
  done: number;
  total: number;
}

export type ScoreRunResult =
  | {
      status: 'scored';
      scorecard: ScorecardView;
      progress?: JudgeProgress;
      /** Replies the browser's store refused: scored from memory, to be downloaded before a reload. */
      unsaved?: { count: number; reason?: string };
    }
  | ({ status: 'stopped'; progress: JudgeProgress } & JudgeStop)
  | { status: 'missing'; missing: number; examples: Array<{ key: string; tag: string; task_id: string }> }
  | { status: 'aborted'; message: string }
  | { status: 'cancelled'; progress: JudgeProgress }
  /** Cancelled while the bootstrap ran: the verdicts were all in the cache already and stay there. */
  | { status: 'cancelled'; bootstrap: BootstrapProgress; progress?: JudgeProgress }
  | { status: 'error'; message: string };

export interface PlanView {
  /** Distinct first-phase calls. */
  /** Distinct judge calls known now (answer, aggregation and the premise checks their cached replies call for). */
  calls: number;
  /** Of them, those the cache answers. */
  cached: number;
  /** false_premise tasks whose premise-id call depends on a reply not cached yet. */
  pendingPremise: number;
  estimate: JudgeCostEstimate;
}

export interface ComparisonView {
  primary: string;
  second: string;
  overallDelta: number;
  improved: number;
  regressed: number;
  unchanged: number;
  rows: Array<{ task_id: string; type: TaskType; primary: number; second: number; delta: number }>;
}

const FENCE = /<\/?system_answer>/;
const PREVIEW = 240;

export function hasFenceBreakout(answer: string): boolean {
  return FENCE.test(answer);
}

export function deterministicView(d: DeterministicMetrics): DeterministicView {
  const view: DeterministicView = {
    n_tasks: d.n_tasks,
    type_counts: [...d.type_counts].map(([type, count]) => ({ type, count })),
    retrieval: { ...d.retrieval },
    citation_precision: d.citation_precision,
    citation_recall: d.citation_recall,
  };
  if (d.tokens_total !== undefined) view.tokens_total = d.tokens_total;
  if (d.tokens_per_task !== undefined) view.tokens_per_task = d.tokens_per_task;
  if (d.cost_usd_total !== undefined) view.cost_usd_total = d.cost_usd_total;
  if (d.cost_usd_per_task !== undefined) view.cost_usd_per_task = d.cost_usd_per_task;
  return view;
}

function answerRefusal(reply: string | null | undefined): boolean | null {
  if (reply === null || reply === undefined) return null;
  try {
    return readAnswerVerdict(reply).isRefusal;
  } catch {
    return null;
  }
}

export function taskRows(outcome: ScoringOutcome, predictions: PredictionsResult): TaskRow[] {
  const answerReply = new Map<string, string | null>();
  for (const call of outcome.calls) {
    if (call.tag === 'SCOREJUDGE' && !answerReply.has(call.task_id)) answerReply.set(call.task_id, call.reply);
  }
  return outcome.tasks.map((t) => {
    const answer = predictions.byTaskId.get(t.task_id)?.answer ?? '';
    return {
      task_id: t.task_id,
      type: t.type,
      cited: t.cited,
      uncited: t.uncited,
      judge_error: t.judge_error,
      refused: answerRefusal(answerReply.get(t.task_id)),
      fence_breakout: hasFenceBreakout(answer),
      answer_preview: answer.length > PREVIEW ? `${answer.slice(0, PREVIEW)}…` : answer,
    };
  });
}

export function taskDetail(task: Task, outcome: ScoringOutcome, predictions: PredictionsResult): TaskDetail {
  const pred = predictions.byTaskId.get(task.task_id);
  const answer = pred?.answer ?? '';
  return {
    task_id: task.task_id,
    type: task.type,
    question: task.question,
    reference_answer: task.answer ?? null,
    answer,
    citations: pred?.citations ?? [],
    fence_breakout: hasFenceBreakout(answer),
    calls: outcome.calls
      .filter((c) => c.task_id === task.task_id)
      .map((c) => ({
        tag: c.tag,
        key: c.key,
        prompt: c.prompt,
        reply: c.reply,
        ...(c.error !== undefined ? { error: c.error } : {}),
      })),
  };
}

/**
 * Where a score would rank among the leaderboard's entries. Ranks are shared by equal scores
 * (standard competition ranking: 1, 2, 2, 4), and the new score is listed first among its equals.
 */
export function leaderboardPlace(leaderboard: Leaderboard, report: ScoreReport, name: string): LeaderboardPlace {
  const score = report.overall_cited_correctness;
  const existing = leaderboard.entries
    .map((e) => ({
      system_name: e.system_name ?? '(unnamed)',
      overall_cited_correctness: e.overall_cited_correctness,
      ...(e.split !== undefined ? { split: e.split } : {}),
      isNew: false,
    }))
    .sort((a, b) => b.overall_cited_correctness - a.overall_cited_correctness);
  const above = existing.filter((e) => e.overall_cited_correctness > score).length;
  const mine = {
    system_name: name,
    overall_cited_correctness: score,
    ...(report.split !== undefined ? { split: report.split } : {}),
    isNew: true,
  };
  const ordered = [...existing.slice(0, above), mine, ...existing.slice(above)];
  const entries = ordered.map((e) => ({
    ...e,
    rank: 1 + ordered.filter((o) => o.overall_cited_correctness > e.overall_cited_correctness).length,
  }));
  return { rank: above + 1, entries };
}

export function compareOutcomes(
  primaryName: string,
  primary: ScoringOutcome,
  secondName: string,
  second: ScoringOutcome,
): ComparisonView {
  const secondBy = new Map(second.tasks.map((t) => [t.task_id, t]));
  const rows: ComparisonView['rows'] = [];
  let improved = 0;
  let regressed = 0;
  let unchanged = 0;
  for (const t of primary.tasks) {
    const other = secondBy.get(t.task_id);
    if (!other) continue;
    const delta = t.cited - other.cited;
    if (delta > 0) improved++;
    else if (delta < 0) regressed++;
    else unchanged++;
    rows.push({ task_id: t.task_id, type: t.type, primary: t.cited, second: other.cited, delta });
  }
  return {
    primary: primaryName,
    second: secondName,
    overallDelta: primary.report.overall_cited_correctness - second.report.overall_cited_correctness,
    improved,
    regressed,
    unchanged,
    rows,
  };
}
