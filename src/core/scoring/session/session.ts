/**
 * The Score page's engine, run in the score worker: holds the chosen tasks, judge profile,
 * predictions and judge cache; validates, plans, judges (offline from the cache or live with
 * the user's key) and scores. The key is only held for the duration of a run.
 */
import { errorMessage } from '../../error-message.ts';
import { sourceOf, type SourceSpec } from '../../release/source-spec.ts';
import { serializeVerdictsJson } from '../../judge/cache.ts';
import { writeCacheZip } from '../../judge/cache-zip.ts';
import { JudgeError } from '../../judge/errors.ts';
import { estimateJudgeCost, uncachedCalls } from '../../judge/estimate.ts';
import { createJudgeProvider } from '../../judge/providers.ts';
import { JudgeRunControl } from '../../judge/run-control.ts';
import { runJudgeCalls } from '../../judge/runner.ts';
import type { JudgeCache, JudgeEndpoint, JudgeProgress } from '../../judge/types.ts';
import type { JudgeProfile, SplitName, SubmissionMetadata, Task } from '../../release/types.ts';
import { parsePredictions, parsePredictionsStream, type PredictionsResult } from '../predictions.ts';
import {
  computeDeterministicMetrics,
  JudgeCallMissingError,
  JudgeCallsMissingError,
  planJudgeCalls,
  planPremiseCalls,
  scoreCoveredTasks,
  scoreSubmission,
  ScoringAbortedError,
  type JudgeFn,
  type ScoringOutcome,
  type ScoreSubmissionInput,
} from '../score.ts';
import { parseJudgeProfile, parseTasksJsonl } from '../scoring-inputs.ts';
import { importCacheFile, importCacheFolder } from './cache-io.ts';
import { loadReleaseScoringInputs, type ReleaseScoringInputs } from './release-inputs.ts';
import {
  compareOutcomes,
  deterministicView,
  leaderboardPlace,
  taskDetail,
  taskRows,
  type ComparisonView,
  type PlanView,
  type PredictionSlot,
  type ScoreRunResult,
  type TaskDetail,
  type ValidationView,
} from './views.ts';

/** A judge cache that can also be imported into, listed and cleared (IndexedDB, or memory). */
export interface JudgeCacheStore extends JudgeCache {
  setMany(entries: Iterable<readonly [string, string]>): Promise<number>;
  entries(): Promise<Map<string, string>>;
  count(): Promise<number>;
  clear(): Promise<void>;
}

export const MAX_INPUT_BYTES = 256 * 1024 * 1024;
const SHOWN_ISSUES = 200;

export type TasksChoice = { kind: 'release'; split: SplitName } | { kind: 'file' };
export type ProfileChoice = 'release' | 'file';

export interface ReleaseInfo {
  label: string;
  datasetVersion: string;
  splits: Array<{ split: SplitName; tasks: number }>;
  hasProfile: boolean;
  profileModel?: string;
  submissions: Array<{ slug: string; system_name?: string; split?: string }>;
  shippedCacheEntries: number;
  shippedCacheError?: string;
  leaderboardEntries: number;
}

/** What the judge cache says about the release's submissions (see ScoreSession.cachedVerdicts). */
export interface CachedVerdicts {
  /** By submission slug: [cited, uncited] score by task id, for the tasks judged without error. */
  systems: Record<string, { scores: Record<string, [number, number]>; covered: number; errors: number; tasks: number }>;
  /** The judge the verdicts are of. */
  profile?: string;
  /** Why there are none. */
  reason?: string;
}

export interface InputsState {
  tasks?: { source: string; count: number };
  profile?: { source: string; model: string; promptVersion: string; responseFormat?: string };
  error?: string;
}

export interface LiveJudgeOptions {
  endpoint: JudgeEndpoint;
  concurrency?: number;
  /** Attempts per call in all (default: the canonical scorer's 5). */
  maxAttempts?: number;
}

export interface ScoreOptions {
  extras?: ScoreSubmissionInput['extras'];
  live?: LiveJudgeOptions;
  onProgress?: (progress: JudgeProgress) => void;
}

interface PredictionsState {
  name: string;
  blob: Blob;
  metadata?: SubmissionMetadata;
  result?: PredictionsResult;
  outcome?: ScoringOutcome;
}

async function* chunksOf(blob: Blob): AsyncGenerator<Uint8Array> {
  const reader = blob.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

async function readTextCapped(name: string, blob: Blob): Promise<string> {
  if (blob.size > MAX_INPUT_BYTES)
    throw new Error(`${name}: ${blob.size} bytes, more than the ${MAX_INPUT_BYTES} allowed`);
  return blob.text();
}

export class ScoreSession {
  private release?: ReleaseScoringInputs;
  private tasksFile?: { name: string; tasks: Task[] };
  private profileFile?: { name: string; profile: JudgeProfile };
  private tasksChoice: TasksChoice = { kind: 'release', split: 'full' };
  private profileChoice: ProfileChoice = 'release';
  private readonly slots: Partial<Record<PredictionSlot, PredictionsState>> = {};
  private control?: JudgeRunControl;

  constructor(private readonly store: JudgeCacheStore) {}

  // ---- inputs ----

  async useRelease(spec: SourceSpec, baseHref: string): Promise<ReleaseInfo> {
    this.release = await loadReleaseScoringInputs(sourceOf(spec, baseHref));
    this.clearOutcomes();
    return this.releaseInfo(this.release);
  }

  private releaseInfo(r: ReleaseScoringInputs): ReleaseInfo {
    return {
      label: r.label,
      datasetVersion: r.datasetVersion,
      splits: (Object.entries(r.tasks) as Array<[SplitName, Task[]]>).map(([split, tasks]) => ({
        split,
        tasks: tasks.length,
      })),
      hasProfile: r.profile !== undefined,
      ...(r.profile ? { profileModel: r.profile.judge_model } : {}),
      submissions: r.submissions.map((s) => ({
        slug: s.slug,
        ...(s.metadata?.system_name !== undefined ? { system_name: s.metadata.system_name } : {}),
        ...(s.metadata?.split !== undefined ? { split: s.metadata.split } : {}),
      })),
      shippedCacheEntries: r.shippedCache.size,
      ...(r.shippedCacheError ? { shippedCacheError: r.shippedCacheError } : {}),
      leaderboardEntries: r.leaderboard?.entries.length ?? 0,
    };
  }

  /** Reads a dropped tasks.jsonl and selects it; throws with the file, line and field at fault. */
  async useTasksFile(name: string, blob: Blob): Promise<InputsState> {
    this.tasksFile = { name, tasks: parseTasksJsonl(await readTextCapped(name, blob), name) };
    this.tasksChoice = { kind: 'file' };
    this.clearOutcomes();
    return this.inputs();
  }

  async useProfileFile(name: string, blob: Blob): Promise<InputsState> {
    let value: unknown;
    try {
      value = JSON.parse(await readTextCapped(name, blob));
    } catch (error) {
      throw new Error(`${name}: expected a JSON judge profile, found invalid JSON (${errorMessage(error)})`, {
        cause: error,
      });
    }
    this.profileFile = { name, profile: parseJudgeProfile(value, name) };
    this.profileChoice = 'file';
    this.clearOutcomes();
    return this.inputs();
  }

  choose(tasks: TasksChoice, profile: ProfileChoice): InputsState {
    this.tasksChoice = tasks;
    this.profileChoice = profile;
    this.clearOutcomes();
    return this.inputs();
  }

  inputs(): InputsState {
    const state: InputsState = {};
    const tasks = this.currentTasks();
    if (tasks) state.tasks = { source: tasks.source, count: tasks.tasks.length };
    const profile = this.currentProfile();
    if (profile) {
      state.profile = {
        source: profile.source,
        model: profile.profile.judge_model,
        promptVersion: profile.profile.judge_prompt_version,
        ...(profile.profile.response_format ? { responseFormat: profile.profile.response_format.type } : {}),
      };
    }
    if (!tasks)
      state.error =
        this.tasksChoice.kind === 'file'
          ? 'Drop a tasks.jsonl.'
          : `The release has no tasks for the ${this.tasksChoice.split} split.`;
    else if (!profile)
      state.error = this.profileChoice === 'file' ? 'Drop a judge-profile.json.' : 'The release has no judge profile.';
    return state;
  }

  private currentTasks(): { source: string; tasks: Task[] } | undefined {
    if (this.tasksChoice.kind === 'file')
      return this.tasksFile ? { source: this.tasksFile.name, tasks: this.tasksFile.tasks } : undefined;
    const tasks = this.release?.tasks[this.tasksChoice.split];
    return tasks ? { source: `${this.release!.label}, ${this.tasksChoice.split} split`, tasks } : undefined;
  }

  private currentProfile(): { source: string; profile: JudgeProfile } | undefined {
    if (this.profileChoice === 'file')
      return this.profileFile ? { source: this.profileFile.name, profile: this.profileFile.profile } : undefined;
    return this.release?.profile ? { source: `${this.release.label}`, profile: this.release.profile } : undefined;
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
    const sub = this.release?.submissions.find((s) => s.slug === slug);
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
    const tasks = this.currentTasks();
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
    if (state.blob.size === 0) {
      return {
        ...base,
        ok: false,
        fatal: `${state.name} is empty: expected one JSON prediction per line, one line per task (${tasks.tasks.length} tasks)`,
        issueCount: 1,
        millis: performance.now() - started,
      };
    }
    if (state.blob.size > 4 * MAX_INPUT_BYTES) {
      return {
        ...base,
        ok: false,
        fatal: `${state.name}: ${state.blob.size} bytes is more than the ${4 * MAX_INPUT_BYTES} allowed`,
        issueCount: 1,
        millis: performance.now() - started,
      };
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

  private readonly layered: JudgeCache = {
    get: async (key) => this.release?.shippedCache.get(key) ?? (await this.store.get(key)),
    set: (key, text) => this.store.set(key, text),
  };

  async cacheInfo(): Promise<{ stored: number; shipped: number }> {
    return { stored: await this.store.count(), shipped: this.release?.shippedCache.size ?? 0 };
  }

  async importCache(name: string, blob: Blob): Promise<{ imported: number; skipped: number }> {
    const { map, skipped } = await importCacheFile(name, blob);
    return { imported: await this.store.setMany(map), skipped };
  }

  async importCacheFolder(
    files: ReadonlyArray<{ path: string; file: Blob }>,
  ): Promise<{ imported: number; skipped: number }> {
    const { map, skipped } = await importCacheFolder(files);
    return { imported: await this.store.setMany(map), skipped };
  }

  private async allEntries(): Promise<Map<string, string>> {
    const map = new Map(this.release?.shippedCache ?? []);
    for (const [k, v] of await this.store.entries()) map.set(k, v);
    return map;
  }

  async exportCacheJson(): Promise<string> {
    return serializeVerdictsJson(await this.allEntries());
  }

  async exportCacheZip(): Promise<Uint8Array> {
    return writeCacheZip(await this.allEntries());
  }

  async clearCache(): Promise<void> {
    await this.store.clear();
  }

  // ---- planning, judging, scoring ----

  private ready(slot: PredictionSlot): {
    tasks: Task[];
    profile: JudgeProfile;
    state: PredictionsState & { result: PredictionsResult };
  } {
    const tasks = this.currentTasks();
    const profile = this.currentProfile();
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
      const reply = await this.layered.get(call.key);
      if (reply !== undefined) replies.set(call.key, reply);
    }
    const premise = await planPremiseCalls(tasks, state.result, profile, replies);
    const uncached = await uncachedCalls([...phase1, ...premise], this.layered);
    const firstKeys = new Set(phase1.map((c) => c.key));
    const fpTasks = tasks.filter((t) => t.type === 'false_premise');
    const pendingPremise = fpTasks.filter((t) => {
      const call = phase1.find((c) => c.task_id === t.task_id);
      return call !== undefined && !replies.has(call.key);
    }).length;
    return {
      calls: firstKeys.size,
      cached: [...firstKeys].filter((k) => replies.has(k)).length,
      pendingPremise,
      estimate: estimateJudgeCost(uncached),
    };
  }

  pause(): void {
    this.control?.pause();
  }

  resume(): void {
    this.control?.resume();
  }

  cancel(): void {
    this.control?.cancel();
  }

  /** Judges what the cache lacks (live runs only), then scores from the cache. */
  async score(slot: PredictionSlot, options: ScoreOptions = {}): Promise<ScoreRunResult> {
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
      const live = await this.judgeLive(tasks, profile, state.result, options.live, options.onProgress);
      if (live.status !== 'done') return live.result;
      progress = live.progress;
      for (const [k, v] of live.failures) failures.set(k, v);
    }
    const judge: JudgeFn = async (call) => {
      const reply = await this.layered.get(call.key);
      if (reply !== undefined) return reply;
      const failure = failures.get(call.key);
      if (failure) throw failure;
      throw new JudgeCallMissingError(call);
    };
    const extras = options.extras ?? {};
    try {
      const outcome = await scoreSubmission({ tasks, predictions: state.result, profile, judge, extras });
      state.outcome = outcome;
      const name = extras.system_name ?? state.metadata?.system_name ?? state.name;
      const leaderboard = this.release?.leaderboard;
      return {
        status: 'scored',
        ...(progress ? { progress } : {}),
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
      if (error instanceof JudgeCallsMissingError) {
        return {
          status: 'missing',
          missing: error.calls.length,
          examples: error.calls.slice(0, 5).map((c) => ({ key: c.key, tag: c.tag, task_id: c.task_id })),
        };
      }
      if (error instanceof ScoringAbortedError) return { status: 'aborted', message: error.message };
      return { status: 'error', message: errorMessage(error) };
    }
  }

  private async judgeLive(
    tasks: Task[],
    profile: JudgeProfile,
    predictions: PredictionsResult,
    live: LiveJudgeOptions,
    onProgress?: (p: JudgeProgress) => void,
  ): Promise<
    | { status: 'done'; failures: Map<string, JudgeError>; progress: JudgeProgress }
    | { status: 'stopped'; result: ScoreRunResult }
  > {
    if (live.endpoint.model !== profile.judge_model) {
      return {
        status: 'stopped',
        result: {
          status: 'error',
          message: `the judge model must be the profile's ${profile.judge_model} (its cache keys depend on it), not ${live.endpoint.model}`,
        },
      };
    }
    let provider;
    try {
      provider = createJudgeProvider(
        live.endpoint,
        profile.response_format && live.endpoint.provider === 'openai'
          ? { responseFormat: profile.response_format }
          : {},
      );
    } catch (error) {
      return { status: 'stopped', result: { status: 'error', message: errorMessage(error) } };
    }
    const control = new JudgeRunControl();
    this.control = control;
    const retry = live.maxAttempts !== undefined ? { maxAttempts: live.maxAttempts } : {};
    const common = {
      cache: this.layered,
      provider,
      control,
      retry,
      ...(live.concurrency ? { concurrency: live.concurrency } : {}),
    };
    try {
      const phase1 = await planJudgeCalls(tasks, predictions, profile);
      const first = await runJudgeCalls({ ...common, calls: phase1, ...(onProgress ? { onProgress } : {}) });
      if (first.cancelled) return { status: 'stopped', result: { status: 'cancelled', progress: first.progress } };
      const premise = await planPremiseCalls(tasks, predictions, profile, first.replies);
      const base = first.progress;
      const second = await runJudgeCalls({
        ...common,
        calls: premise,
        onProgress: (p) =>
          onProgress?.({
            total: base.total + p.total,
            done: base.done + p.done,
            cached: base.cached + p.cached,
            failed: base.failed + p.failed,
            inFlight: p.inFlight,
          }),
      });
      const progress: JudgeProgress = {
        total: base.total + second.progress.total,
        done: base.done + second.progress.done,
        cached: base.cached + second.progress.cached,
        failed: base.failed + second.progress.failed,
        inFlight: 0,
      };
      if (second.cancelled) return { status: 'stopped', result: { status: 'cancelled', progress } };
      return { status: 'done', failures: new Map([...first.failures, ...second.failures]), progress };
    } catch (error) {
      return { status: 'stopped', result: { status: 'error', message: errorMessage(error) } };
    } finally {
      if (this.control === control) this.control = undefined;
    }
  }

  /**
   * The verdict-based scores the judge cache already holds for the release's submissions on a
   * split, judged with the current judge profile: per system, [cited, uncited] by task id for
   * the tasks whose every call is cached. Nothing is sent to a judge.
   */
  async cachedVerdicts(
    slugs: readonly string[],
    split: SplitName,
    taskIds?: readonly string[],
  ): Promise<CachedVerdicts> {
    const tasks = this.release?.tasks[split];
    const profile = this.currentProfile();
    if (!tasks || !profile) {
      return { systems: {}, reason: !tasks ? `the release has no ${split} answer key` : 'no judge profile is chosen' };
    }
    if ((await this.store.count()) === 0 && (this.release?.shippedCache.size ?? 0) === 0)
      return { systems: {}, reason: 'the judge cache is empty' };
    const judge: JudgeFn = async (call) => {
      const reply = await this.layered.get(call.key);
      if (reply === undefined) throw new JudgeCallMissingError(call);
      return reply;
    };
    const systems: CachedVerdicts['systems'] = {};
    for (const slug of slugs) {
      const text = this.release?.submissions.find((s) => s.slug === slug)?.predictionsText;
      if (text === undefined) continue;
      const predictions = parsePredictions(text, tasks, { mode: 'score', maxIssues: 1 });
      if (!predictions.ok) continue;
      const judged = taskIds ? tasks.filter((t) => taskIds.includes(t.task_id)) : tasks;
      const outcomes = await scoreCoveredTasks({ tasks: judged, predictions, profile: profile.profile, judge });
      const scores: Record<string, [number, number]> = {};
      let errors = 0;
      for (const o of outcomes) {
        if (!o) continue;
        if (o.judge_error) errors++;
        else scores[o.task_id] = [o.cited, o.uncited];
      }
      systems[slug] = { scores, covered: Object.keys(scores).length, errors, tasks: judged.length };
    }
    return { systems, profile: `${profile.profile.judge_model} (prompt ${profile.profile.judge_prompt_version})` };
  }

  detail(slot: PredictionSlot, taskId: string): TaskDetail | undefined {
    const state = this.slots[slot];
    const task = this.currentTasks()?.tasks.find((t) => t.task_id === taskId);
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

/** The fallback store when IndexedDB is not available (private windows of some browsers, Node). */
export class MemoryJudgeCacheStore implements JudgeCacheStore {
  private readonly map = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.map.get(key);
  }
  async set(key: string, text: string): Promise<void> {
    this.map.set(key, text);
  }
  async setMany(entries: Iterable<readonly [string, string]>): Promise<number> {
    let n = 0;
    for (const [k, v] of entries) {
      this.map.set(k, v);
      n++;
    }
    return n;
  }
  async entries(): Promise<Map<string, string>> {
    return new Map(this.map);
  }
  async count(): Promise<number> {
    return this.map.size;
  }
  async clear(): Promise<void> {
    this.map.clear();
  }
}
