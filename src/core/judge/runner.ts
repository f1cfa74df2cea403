import { errorMessage } from '../error-message.ts';
import { JudgeError } from './errors.ts';
import { withRetries, type RetryOptions } from './retry.ts';
import { JudgeRunControl } from './run-control.ts';
import { DEFAULT_MAX_CONSECUTIVE_FAILURES, stopFor, type JudgeStop } from './run-stop.ts';
import { withFailure, type JudgeCache, type JudgeCall, type JudgeProgress, type JudgeProvider } from './types.ts';

export const DEFAULT_JUDGE_CONCURRENCY = 4;

/**
 * Runs `work` while holding the lock named `key`, waiting (abortably) while someone else holds it:
 * Web Locks in the browser, so that two tabs judging the same calls send each one once.
 */
export type CallLock = <T>(key: string, signal: AbortSignal, work: () => Promise<T>) => Promise<T>;

export interface JudgeRunOptions {
  calls: readonly JudgeCall[];
  cache: JudgeCache;
  provider: JudgeProvider;
  /** Most requests in flight at once. */
  concurrency?: number;
  retry?: Omit<RetryOptions, 'beforeAttempt'>;
  /** Pause/resume/cancel from outside; one is made when absent. */
  control?: JudgeRunControl;
  /** Cancels the whole run when aborted. */
  signal?: AbortSignal;
  onProgress?: (progress: JudgeProgress) => void;
  /** Held around each call (cache re-read, request, cache write); absent: no coordination. */
  lock?: CallLock;
  /** The run stops after this many calls in a row failed (default 5). */
  maxConsecutiveFailures?: number;
}

export interface JudgeRunResult {
  /** Raw reply text by cache key, for every key answered (cached or fetched). */
  replies: Map<string, string>;
  /** The final error by cache key, for keys that failed after all retries (the scorer's judge errors). */
  failures: Map<string, JudgeError>;
  /** True when the run was cancelled; keys neither in replies nor failures were not judged. */
  cancelled: boolean;
  /** Set when the run stopped itself (auth, quota, a failing endpoint); unjudged keys are in neither map. */
  stopped?: JudgeStop;
  /** Replies that arrived but could not be stored (the reply is still in `replies`). */
  cacheWriteErrors: Array<{ key: string; message: string }>;
  progress: JudgeProgress;
}

/**
 * Answers each distinct cache key once: from the cache when it holds the key, else from the provider,
 * storing each new reply as soon as it arrives so a restarted run resumes without repeating calls.
 */
export async function runJudgeCalls(options: JudgeRunOptions): Promise<JudgeRunResult> {
  const control = options.control ?? new JudgeRunControl();
  if (options.signal !== undefined) linkSignal(options.signal, control);
  const unique = uniqueCalls(options.calls);
  const progress: JudgeProgress = { total: unique.length, done: 0, cached: 0, failed: 0, inFlight: 0 };
  const emit = (): void => options.onProgress?.({ ...progress });
  const replies = new Map<string, string>();
  const failures = new Map<string, JudgeError>();
  const cacheWriteErrors: JudgeRunResult['cacheWriteErrors'] = [];
  const maxConsecutive = options.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
  let consecutiveFailures = 0;
  let stopped: JudgeStop | undefined;
  const result = (): JudgeRunResult => ({
    replies,
    failures,
    cancelled: control.cancelled && stopped === undefined,
    ...(stopped ? { stopped } : {}),
    cacheWriteErrors,
    progress: { ...progress },
  });

  const misses: JudgeCall[] = [];
  for (const call of unique) {
    const cached = await readCache(options.cache, call.key);
    if (cached === undefined) {
      misses.push(call);
    } else {
      replies.set(call.key, cached);
      progress.cached++;
      progress.done++;
    }
  }
  emit();
  if (misses.length === 0) return result();
  assertProviderModel(misses, options.provider);

  const queue = misses.values();
  const callOne = async (call: JudgeCall): Promise<void> => {
    if (options.lock) {
      // Another tab may have answered this key while we waited for its lock.
      const cached = await readCache(options.cache, call.key);
      if (cached !== undefined) {
        replies.set(call.key, cached);
        progress.cached++;
        progress.done++;
        return;
      }
    }
    try {
      const text = await withRetries(
        (signal) => options.provider.complete({ model: call.model, system: call.system, prompt: call.prompt }, signal),
        control.signal,
        { ...options.retry, beforeAttempt: () => control.whenRunnable() },
      );
      replies.set(call.key, text);
      try {
        await options.cache.set(call.key, text);
      } catch (error) {
        cacheWriteErrors.push({ key: call.key, message: errorMessage(error) });
      }
      consecutiveFailures = 0;
      progress.done++;
    } catch (error) {
      if (!(error instanceof JudgeError)) throw error;
      if (error.kind === 'cancelled' || control.cancelled) return;
      failures.set(call.key, error);
      progress.failed++;
      progress.firstFailure = withFailure(progress, error.message);
      progress.done++;
      const stop = stopFor(error, ++consecutiveFailures, maxConsecutive);
      if (stop !== undefined && stopped === undefined) {
        stopped = stop;
        control.cancel();
      }
    }
  };
  const judgeOne = async (call: JudgeCall): Promise<void> => {
    if (!options.lock) return callOne(call);
    try {
      await options.lock(call.key, control.signal, () => callOne(call));
    } catch (error) {
      // An abandoned wait for the lock: the run was cancelled or stopped.
      if (!control.cancelled) throw error;
    }
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      try {
        await control.whenRunnable();
      } catch {
        return;
      }
      const next = queue.next();
      if (next.done === true) return;
      progress.inFlight++;
      emit();
      try {
        await judgeOne(next.value);
      } catch (error) {
        // Not a JudgeError: a bug or a broken provider; stop the other workers too.
        control.cancel();
        throw error;
      } finally {
        progress.inFlight--;
        emit();
      }
    }
  };
  const poolSize = Math.max(1, Math.min(options.concurrency ?? DEFAULT_JUDGE_CONCURRENCY, misses.length));
  await Promise.all(Array.from({ length: poolSize }, worker));
  return result();
}

function linkSignal(signal: AbortSignal, control: JudgeRunControl): void {
  if (signal.aborted) control.cancel();
  else signal.addEventListener('abort', () => control.cancel(), { once: true });
}

/** One call per key; the same key with different text means the caller built keys wrongly. */
function uniqueCalls(calls: readonly JudgeCall[]): JudgeCall[] {
  const byKey = new Map<string, JudgeCall>();
  for (const call of calls) {
    const seen = byKey.get(call.key);
    if (seen === undefined) {
      byKey.set(call.key, call);
    } else if (seen.model !== call.model || seen.system !== call.system || seen.prompt !== call.prompt) {
      throw new Error(
        `Judge calls for tasks ${seen.task_id} and ${call.task_id} share cache key ${call.key} but differ in ` +
          'model, system or prompt',
      );
    }
  }
  return [...byKey.values()];
}

/** A reply is cached under a key derived from the call's model, so it must come from that model. */
function assertProviderModel(calls: readonly JudgeCall[], provider: JudgeProvider): void {
  const other = calls.find((call) => call.model !== provider.model);
  if (other !== undefined) {
    throw new Error(
      `Judge call for task ${other.task_id} is for model ${JSON.stringify(other.model)} but the endpoint is ` +
        `configured for ${JSON.stringify(provider.model)}`,
    );
  }
}

async function readCache(cache: JudgeCache, key: string): Promise<string | undefined> {
  try {
    return await cache.get(key);
  } catch {
    return undefined;
  }
}
