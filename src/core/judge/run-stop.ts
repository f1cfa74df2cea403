import type { JudgeError } from './errors.ts';

/**
 * Why a judge run stopped before every call was answered:
 * - auth: the endpoint refused the key (401/403): every other call would be refused too
 * - quota: the account is out of quota or credit (402, 429 insufficient_quota, ...)
 * - failing: several calls in a row failed after all their retries (a server down or broken)
 */
export interface JudgeStop {
  reason: 'auth' | 'quota' | 'failing';
  /** HTTP status of the error that stopped the run, when the server answered. */
  httpStatus?: number;
  /** One paragraph for the user: what happened, the server's answer (bounded), what to do. */
  message: string;
}

/**
 * Calls that may fail in a row before the run stops. Each has had its canonical 5 attempts
 * (about 15 s of backoff), so a dead server costs a few dozen requests, not one run's worth.
 */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 5;

/** The stop an error calls for, given how many calls in a row have failed with it included. */
export function stopFor(error: JudgeError, consecutiveFailures: number, limit: number): JudgeStop | undefined {
  const status = error.status === undefined ? {} : { httpStatus: error.status };
  if (error.kind === 'auth') {
    return {
      reason: 'auth',
      ...status,
      message: `The judge endpoint refused the API key. ${error.message}. No more calls were sent: check the key, the provider and the base URL, then run again (answered calls are kept).`,
    };
  }
  if (error.kind === 'quota') {
    return {
      reason: 'quota',
      ...status,
      message: `The judge account is out of quota or credit. ${error.message}. No more calls were sent: add credit or raise the limit, then run again (answered calls are kept).`,
    };
  }
  if (consecutiveFailures >= limit) {
    return {
      reason: 'failing',
      ...status,
      message: `${consecutiveFailures} judge calls in a row failed, each after its retries (last: ${error.message}). No more calls were sent: the endpoint looks down or broken; run again later (answered calls are kept).`,
    };
  }
  return undefined;
}
