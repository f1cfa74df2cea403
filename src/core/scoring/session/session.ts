/**
 * The Score page's engine, run in the score worker and exposed to the page as it is (comlink):
 * the inputs (score-inputs.ts), the judge cache (cache-store.ts), live judging (live-judge.ts),
 * and here the predictions of the two slots, validation, planning, scoring and the views of
 * the results.
 */
import { errorMessage } from '../../error-message.ts';
import type { SourceSpec } from '../../release/source-spec.ts';
import type { JudgeError } from '../../judge/errors.ts';
import { estimateJudgeCost, uncachedCalls } from '../../judge/estimate.ts';
import type { CallLock } from '../../judge/runner.ts';
import type { JudgeProgress } from '../../judge/types.ts';
import type { SplitName, SubmissionMetadata, Task, JudgeProfile } from '../../release/types.ts';
import { chunksOf } from '../blob-chunks.ts';
import { parsePredictionsStream, type PredictionsResult } from '../predictions.ts';
import { defaultReportFields, type ReportFields } from '../report-fields.ts';
import {
  computeDeterministicMetrics,
  JudgeCallMissingError,
  JudgeCallsMissingError,
  planJudgeCalls,
  planPremiseCalls,
  scoreSubmission,
  ScoringAbortedError,
  ScoringCancelledError,
  type JudgeFn,
  type ScoringOutcome,
  type ScoreSubmissionInput,
} from '../score.ts';
import { SessionJudgeCache, type CacheImportResult, type CacheInfo, type JudgeCacheStore } from './cache-store.ts';
import { cachedVerdicts, type CachedVerdicts } from './cached-verdicts.ts';
import { LiveJudge, type LiveJudgeOptions } from './live-judge.ts';
import {
  MAX_INPUT_BYTES,
  ScoreInputs,
  type InputsState,
  type ProfileChoice,
  type ReleaseInfo,
  type TasksChoice,
} from './score-inputs.ts';
import {
  compareOutcomes,
  deterministicView,
  leaderboardPlace,
  taskDetail,
  taskRows,
  type BootstrapProgress,
  type ComparisonView,
  type PlanView,
  type PredictionSlot,
  type ScoreRunResult,
  type TaskDetail,
  type ValidationView,
} from './views.ts';

const SHOWN_ISSUES = 200;

export interface ScoreOptions {
  extras?: ScoreSubmissionInput['extras'];
  live?: LiveJudgeOptions;
}

export interface ScoreSessionOptions {
  /** Where relative release URLs resolve (the worker's location). */
  baseHref: string;
  /** Held around each live judge call so that two tabs send it once (Web Locks in the browser). */
  lock?: CallLock;
}

interface PredictionsState {
  name: string;
  blob: Blob;
  metadata?: SubmissionMetadata;
  result?: PredictionsResult;
  outcome?: ScoringOutcome;
}

/** The commonest causes of failed judge calls, for the message of an aborted scoring. */
function failureCauses(failures: ReadonlyMap<string, JudgeError>): string {
  const counts = new Map<string, number>();
  for (const error of failures.values()) counts.set(error.message, (counts.get(error.message) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([text, n]) => `${n} × ${text}`)
    .join('; ');
}

export class ScoreSession {
  protected readonly inputsOf: ScoreInputs;
  protected readonly cache: SessionJudgeCache;
  private readonly live: LiveJudge;
  private readonly slots: Partial<Record<PredictionSlot, PredictionsState>> = {};
  private readonly store: Promise<JudgeCacheStore>;
  /** The scoring under way: a Cancel aborts its bootstrap. */
  private scoring?: AbortController;

  constructor(store: JudgeCacheStore | Promise<JudgeCacheStore>, options: ScoreSessionOptions) {
    this.store = Promise.resolve(store);
    this.inputsOf = new ScoreInputs(options.baseHref);
    this.cache = new SessionJudgeCache(this.store);
    this.live = new LiveJudge(options.lock);
  }

  // ---- inputs ----

  async useRelease(spec: SourceSpec): Promise<ReleaseInfo> {
    const info = await this.inputsOf.useRelease(spec);
    this.cache.useShipped(this.inputsOf.release?.shippedCache ?? new Map());
    this.clearOutcomes();
    return info;
  }

  /** Reads a dropped tasks.jsonl and selects it; throws with the file, line and field at fault. */
  async useTasksFile(name: string, blob: Blob): Promise<InputsState> {
    await this.inputsOf.useTasksFile(name, blob);
    this.clearOutcomes();
    return this.inputs();
  }

  async useProfileFile(name: string, blob: Blob): Promise<InputsState> {
    await this.inputsOf.useProfileFile(name, blob);
    this.clearOutcomes();
    return this.inputs();
  }

  choose(tasks: TasksChoice, profile: ProfileChoice): InputsState {
    this.inputsOf.choose(tasks, profile);
    this.clearOutcomes();
    return this.inputs();
  }

  inputs(): InputsState {
    return this.inputsOf.state();
  }

  private clearOutcomes(): void {
    for (const slot of Object.values(this.slots)) {
      slot.result = undefined;
      slot.outcome = undefined;
    }
  }

  // ---- predictions ----

  async setPredictions(
    slot: PredictionSlot,
    name: string,
    blob: Blob,
    metadata?: SubmissionMetadata,
  ): Promise<ValidationView> {
    this.slots[slot] = { name, blob, ...(metadata ? { metadata } : {}) };
    return this.validate(slot);
  }

  /** A reference submission of the loaded release as the predictions of a slot. */
  async useReleaseSubmission(
    slot: PredictionSlot,
    slug: string,
  ): Promise<ValidationView & { metadata?: SubmissionMetadata }> {
    const sub = this.inputsOf.release?.submissions.find((s) => s.slug === slug);
    if (!sub?.predictionsText) throw new Error(`the release has no predictions for submission ${slug}`);
    const view = await this.setPredictions(
      slot,
      `${slug}/predictions.jsonl`,
      new Blob([sub.predictionsText]),
      sub.metadata,
    );
    return { ...view, ...(sub.metadata ? { metadata: sub.metadata } : {}) };
  }

  async validate(slot: PredictionSlot): Promise<ValidationView> {
    const state = this.slots[slot];
    if (!state) throw new Error(`no predictions file for ${slot}`);
    const tasks = this.inputsOf.tasks();
    if (!tasks) throw new Error(this.inputs().error ?? 'choose the tasks first');
    const started = performance.now();
    state.result = undefined;
    state.outcome = undefined;
    const base = {
      file: state.name,
      lineCount: 0,
      validCount: 0,
      issues: [],
      summary: [],
      warnings: [],
      warningCount: 0,
    };
    const fatal = (text: string): ValidationView => ({
      ...base,
      ok: false,
      fatal: text,
      issueCount: 1,
      millis: performance.now() - started,
    });
    if (state.blob.size === 0) {
      return fatal(
        `${state.name} is empty: expected one JSON prediction per line, one line per task (${tasks.tasks.length} tasks)`,
      );
    }
    if (state.blob.size > 4 * MAX_INPUT_BYTES) {
      return fatal(`${state.name}: ${state.blob.size} bytes is more than the ${4 * MAX_INPUT_BYTES} allowed`);
    }
    // read as score.py reads it: what only `validate` refuses is scored, with a warning each
    const result = await parsePredictionsStream(chunksOf(state.blob), tasks.tasks, {
      mode: 'score',
      maxIssues: SHOWN_ISSUES,
    });
    state.result = result;
    const view: ValidationView = {
      file: state.name,
      ok: result.ok,
      lineCount: result.lineCount,
      validCount: result.byTaskId.size,
      issueCount: result.issueCount,
      issues: result.issues,
      summary: result.summary,
      warnings: result.warnings,
      warningCount: result.warningCount,
      millis: 0,
    };
    if (result.byTaskId.size === 0 && result.issueCount > 0 && result.issues.every((i) => i.code === 'missing_task')) {
      view.fatal = `${state.name} holds no prediction: expected one JSON prediction per line, one line per task (${tasks.tasks.length} tasks)`;
    }
    if (result.ok) view.deterministic = deterministicView(computeDeterministicMetrics(tasks.tasks, result));
    view.millis = performance.now() - started;
    return view;
  }

  // ---- judge cache ----

  async cachePersistent(): Promise<boolean> {
    return (await this.store).persistent;
  }

  cacheInfo(): Promise<CacheInfo> {
    return this.cache.info();
  }

  importCache(name: string, blob: Blob): Promise<CacheImportResult> {
    return this.cache.importFile(name, blob);
  }

  importCacheFolder(files: ReadonlyArray<{ path: string; file: Blob }>): Promise<CacheImportResult> {
    return this.cache.importFolder(files);
  }

  exportCacheJson(): Promise<string> {
    return this.cache.exportJson();
  }

  /** The zip as a Blob: it crosses to the page without a copy, like the dropped files coming in. */
  async exportCacheZip(): Promise<Blob> {
    return new Blob([(await this.cache.exportZip()) as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
  }

  clearCache(): Promise<void> {
    return this.cache.clear();
  }

  // ---- planning, judging, scoring ----

  protected ready(slot: PredictionSlot): {
    tasks: Task[];
    profile: JudgeProfile;
    state: PredictionsState & { result: PredictionsResult };
  } {
    const tasks = this.inputsOf.tasks();
    const profile = this.inputsOf.profile();
    const state = this.slots[slot];
    if (!tasks || !profile) throw new Error(this.inputs().error ?? 'choose the tasks and the judge profile first');
    if (!state?.result) throw new Error('choose a predictions file first');
    if (!state.result.ok)
      throw new Error(`${state.name} has ${state.result.issueCount} problem(s); fix them before scoring`);
    return {
      tasks: tasks.tasks,
      profile: profile.profile,
      state: state as PredictionsState & { result: PredictionsResult },
    };
  }

  async plan(slot: PredictionSlot): Promise<PlanView> {
    const { tasks, profile, state } = this.ready(slot);
    const phase1 = await planJudgeCalls(tasks, state.result, profile);
    const replies = new Map<string, string>();
    for (const call of phase1) {
      const reply = await this.cache.get(call.key);
      if (reply !== undefined) replies.set(call.key, reply);
    }
    const premise = await planPremiseCalls(tasks, state.result, profile, replies);
    const uncached = await uncachedCalls([...phase1, ...premise], this.cache);
    // counted as a live run counts its progress: every distinct call known now, premise checks included
    const known = new Set([...phase1, ...premise].map((c) => c.key));
    const pendingPremise = tasks.filter((t) => {
      if (t.type !== 'false_premise') return false;
      const call = phase1.find((c) => c.task_id === t.task_id);
      return call !== undefined && !replies.has(call.key);
    }).length;
    return {
      calls: known.size,
      cached: known.size - uncached.length,
      pendingPremise,
      estimate: estimateJudgeCost(uncached),
    };
  }

  /**
   * The report fields a slot's scores.json gets when the page's fields are left empty, by the
   * CLI's rule (report-fields.ts): the submission's metadata.json, else the release split scored.
   */
  reportFieldDefaults(slot: PredictionSlot): ReportFields {
    return defaultReportFields(this.slots[slot]?.metadata, this.inputsOf.tasksPlace()).fields;
  }

  pause(): void {
    this.live.pause();
  }

  resume(): void {
    this.live.resume();
  }

  /** Stops a live run's judging, or the bootstrap of a scoring under way. */
  cancel(): void {
    this.live.cancel();
    this.scoring?.abort();
  }

  /** Judges what the cache lacks (live runs only), then scores from the cache. */
  async score(
    slot: PredictionSlot,
    options: ScoreOptions = {},
    onProgress?: (progress: JudgeProgress) => void,
    onBootstrap?: (progress: BootstrapProgress) => void,
  ): Promise<ScoreRunResult> {
    const control = new AbortController();
    this.scoring?.abort();
    this.scoring = control;
    try {
      return await this.scoreWith(slot, options, control.signal, onProgress, onBootstrap);
    } finally {
      if (this.scoring === control) this.scoring = undefined;
    }
  }

  private async scoreWith(
    slot: PredictionSlot,
    options: ScoreOptions,
    signal: AbortSignal,
    onProgress?: (progress: JudgeProgress) => void,
    onBootstrap?: (progress: BootstrapProgress) => void,
  ): Promise<ScoreRunResult> {
    let ctx: ReturnType<ScoreSession['ready']>;
    try {
      ctx = this.ready(slot);
    } catch (error) {
      return { status: 'error', message: errorMessage(error) };
    }
    const { tasks, profile, state } = ctx;
    const failures = new Map<string, JudgeError>();
    let progress: JudgeProgress | undefined;
    if (options.live) {
      const live = await this.live.run(
        { tasks, profile, predictions: state.result, cache: this.cache },
        options.live,
        onProgress,
      );
      if (live.status !== 'done') return live.result;
      progress = live.progress;
      for (const [k, v] of live.failures) failures.set(k, v);
    }
    const judge: JudgeFn = async (call) => {
      const reply = await this.cache.get(call.key);
      if (reply !== undefined) return reply;
      const failure = failures.get(call.key);
      if (failure) throw failure;
      throw new JudgeCallMissingError(call);
    };
    const extras = { ...this.reportFieldDefaults(slot), ...options.extras };
    try {
      const outcome = await scoreSubmission({
        tasks,
        predictions: state.result,
        profile,
        judge,
        extras,
        signal,
        ...(onBootstrap ? { onBootstrap: (done: number, total: number) => onBootstrap({ done, total }) } : {}),
      });
      state.outcome = outcome;
      const name = extras.system_name ?? state.metadata?.system_name ?? state.name;
      const leaderboard = this.inputsOf.release?.leaderboard;
      const info = await this.cache.info();
      return {
        status: 'scored',
        ...(progress ? { progress } : {}),
        ...(info.unsaved > 0
          ? { unsaved: { count: info.unsaved, ...(info.unsavedReason ? { reason: info.unsavedReason } : {}) } }
          : {}),
        scorecard: {
          report: outcome.report,
          scoresJson: outcome.scoresJson,
          rows: taskRows(outcome, state.result),
          callCount: outcome.calls.length,
          ...(leaderboard && leaderboard.entries.length > 0
            ? { leaderboard: leaderboardPlace(leaderboard, outcome.report, name) }
            : {}),
        },
      };
    } catch (error) {
      if (error instanceof ScoringCancelledError) {
        return { status: 'cancelled', bootstrap: error.bootstrap, ...(progress ? { progress } : {}) };
      }
      if (error instanceof JudgeCallsMissingError) {
        return {
          status: 'missing',
          missing: error.calls.length,
          examples: error.calls.slice(0, 5).map((c) => ({ key: c.key, tag: c.tag, task_id: c.task_id })),
        };
      }
      if (error instanceof ScoringAbortedError) {
        const causes =
          error.reason === 'judge_errors' && failures.size > 0 ? ` Causes: ${failureCauses(failures)}` : '';
        return { status: 'aborted', message: `${error.message}.${causes}` };
      }
      return { status: 'error', message: errorMessage(error) };
    }
  }

  /**
   * The verdict-based scores the judge cache already holds for the release's submissions on a
   * split, judged with the current judge profile (cached-verdicts.ts). Nothing is sent to a judge.
   */
  async cachedVerdicts(
    slugs: readonly string[],
    split: SplitName,
    taskIds?: readonly string[],
  ): Promise<CachedVerdicts> {
    const tasks = this.inputsOf.release?.tasks[split];
    const profile = this.inputsOf.profile();
    if (!tasks || !profile) {
      return { systems: {}, reason: !tasks ? `the release has no ${split} answer key` : 'no judge profile is chosen' };
    }
    const info = await this.cache.info();
    if (info.stored === 0 && info.shipped === 0 && info.unsaved === 0)
      return { systems: {}, reason: 'the judge cache is empty' };
    return cachedVerdicts({
      cache: this.cache,
      tasks,
      profile: profile.profile,
      submissions: this.inputsOf.release?.submissions ?? [],
      slugs,
      ...(taskIds ? { taskIds } : {}),
    });
  }

  detail(slot: PredictionSlot, taskId: string): TaskDetail | undefined {
    const state = this.slots[slot];
    const task = this.inputsOf.tasks()?.tasks.find((t) => t.task_id === taskId);
    if (!state?.outcome || !state.result || !task) return undefined;
    return taskDetail(task, state.outcome, state.result);
  }

  compare(): ComparisonView | undefined {
    const a = this.slots.primary;
    const b = this.slots.second;
    if (!a?.outcome || !b?.outcome) return undefined;
    return compareOutcomes(a.metadata?.system_name ?? a.name, a.outcome, b.metadata?.system_name ?? b.name, b.outcome);
  }
}
