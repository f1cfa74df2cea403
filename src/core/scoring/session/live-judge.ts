/**
 * A live judge run of the Score page: the answer/aggregation calls, then the premise-id calls
 * they lead to, against the user's endpoint, with pause, resume and cancel. The key is held only
 * while the run lasts.
 */
import { errorMessage } from '../../error-message.ts';
import { JudgeError } from '../../judge/errors.ts';
import { createJudgeProvider } from '../../judge/providers.ts';
import { JudgeRunControl } from '../../judge/run-control.ts';
import { runJudgeCalls, type CallLock } from '../../judge/runner.ts';
import type { JudgeCache, JudgeEndpoint, JudgeProgress } from '../../judge/types.ts';
import type { JudgeProfile, Task } from '../../release/types.ts';
import type { PredictionsResult } from '../predictions.ts';
import { planJudgeCalls, planPremiseCalls } from '../score.ts';
import type { ScoreRunResult } from './views.ts';

export interface LiveJudgeOptions {
  endpoint: JudgeEndpoint;
  concurrency?: number;
  /** Attempts per call in all (default: the canonical scorer's 5). */
  maxAttempts?: number;
}

export type LiveOutcome =
  | {
      status: 'done';
      failures: Map<string, JudgeError>;
      progress: JudgeProgress;
      /** Replies that arrived but the cache's store refused (kept in memory). */
      unsavedWrites: number;
    }
  | { status: 'stopped'; result: ScoreRunResult };

export class LiveJudge {
  private control?: JudgeRunControl;

  /** `lock` coordinates tabs: a call another tab is making is waited for, then read from the cache. */
  constructor(private readonly lock?: CallLock) {}

  pause(): void {
    this.control?.pause();
  }

  resume(): void {
    this.control?.resume();
  }

  cancel(): void {
    this.control?.cancel();
  }

  async run(
    input: { tasks: Task[]; profile: JudgeProfile; predictions: PredictionsResult; cache: JudgeCache },
    live: LiveJudgeOptions,
    onProgress?: (p: JudgeProgress) => void,
  ): Promise<LiveOutcome> {
    const { tasks, profile, predictions } = input;
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
    const common = {
      cache: input.cache,
      provider,
      control,
      retry: live.maxAttempts !== undefined ? { maxAttempts: live.maxAttempts } : {},
      ...(live.concurrency ? { concurrency: live.concurrency } : {}),
      ...(this.lock ? { lock: this.lock } : {}),
    };
    try {
      const phase1 = await planJudgeCalls(tasks, predictions, profile);
      const first = await runJudgeCalls({ ...common, calls: phase1, ...(onProgress ? { onProgress } : {}) });
      if (first.stopped) {
        return { status: 'stopped', result: { status: 'stopped', ...first.stopped, progress: first.progress } };
      }
      if (first.cancelled) return { status: 'stopped', result: { status: 'cancelled', progress: first.progress } };
      const premise = await planPremiseCalls(tasks, predictions, profile, first.replies);
      const base = first.progress;
      const sum = (p: JudgeProgress): JudgeProgress => {
        const first = base.firstFailure ?? p.firstFailure;
        const later = base.firstFailure ? p.firstFailure : undefined;
        const same = later && later.reason === first?.reason ? later.count : 0;
        return {
          total: base.total + p.total,
          done: base.done + p.done,
          cached: base.cached + p.cached,
          failed: base.failed + p.failed,
          inFlight: p.inFlight,
          ...(first ? { firstFailure: { reason: first.reason, count: first.count + same } } : {}),
        };
      };
      const second = await runJudgeCalls({ ...common, calls: premise, onProgress: (p) => onProgress?.(sum(p)) });
      const progress = sum({ ...second.progress, inFlight: 0 });
      if (second.stopped) return { status: 'stopped', result: { status: 'stopped', ...second.stopped, progress } };
      if (second.cancelled) return { status: 'stopped', result: { status: 'cancelled', progress } };
      return {
        status: 'done',
        failures: new Map([...first.failures, ...second.failures]),
        progress,
        unsavedWrites: first.cacheWriteErrors.length + second.cacheWriteErrors.length,
      };
    } catch (error) {
      return { status: 'stopped', result: { status: 'error', message: errorMessage(error) } };
    } finally {
      if (this.control === control) this.control = undefined;
    }
  }
}
