import { JudgeError } from './errors.ts';

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Attempts in all, the first included (canonical scorer: 5). */
  maxAttempts?: number;
  /** Wait after failed attempt n (0-based) is min(baseDelayMs * 2^n, maxDelayMs) without a server hint. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A server wait hint (Retry-After) above this is ignored in favour of the backoff. */
  maxRetryAfterMs?: number;
  /** Injected in tests so they need not wait. */
  sleep?: Sleep;
  /** Runs before every attempt, retries included (the runner's pause gate). */
  beforeAttempt?: (signal: AbortSignal) => Promise<void>;
  onRetry?: (info: { attempt: number; delayMs: number; error: JudgeError }) => void;
}

export const CANONICAL_RETRY = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 };

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(cancelled());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** The wait before the next attempt after failed attempt `attempt` (0-based). */
export function retryDelayMs(attempt: number, error: JudgeError, options: RetryOptions = {}): number {
  const maxRetryAfterMs = options.maxRetryAfterMs ?? CANONICAL_RETRY.maxRetryAfterMs;
  if (error.retryAfterMs !== undefined && error.retryAfterMs <= maxRetryAfterMs) return error.retryAfterMs;
  const base = options.baseDelayMs ?? CANONICAL_RETRY.baseDelayMs;
  return Math.min(base * 2 ** attempt, options.maxDelayMs ?? CANONICAL_RETRY.maxDelayMs);
}

/** Runs `attempt` until it succeeds, fails for good, or the attempts run out; then throws a JudgeError. */
export async function withRetries<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  signal: AbortSignal,
  options: RetryOptions = {},
): Promise<T> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? CANONICAL_RETRY.maxAttempts);
  const sleep = options.sleep ?? abortableSleep;
  for (let n = 0; ; n++) {
    if (signal.aborted) throw cancelled();
    await options.beforeAttempt?.(signal);
    if (signal.aborted) throw cancelled();
    try {
      return await attempt(signal);
    } catch (error) {
      if (!(error instanceof JudgeError)) throw error;
      if (error.kind === 'cancelled' || signal.aborted) throw cancelled();
      if (!error.retryable || n + 1 >= maxAttempts) throw error.withAttempts(n + 1);
      const delayMs = retryDelayMs(n, error, options);
      options.onRetry?.({ attempt: n, delayMs, error });
      try {
        await sleep(delayMs, signal);
      } catch {
        throw cancelled();
      }
    }
  }
}

function cancelled(): JudgeError {
  return new JudgeError('Judge run cancelled', { kind: 'cancelled', retryable: false });
}
