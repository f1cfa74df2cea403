/**
 * Why a judge call failed.
 * - http: an HTTP status that is not auth/quota (429 rate limit, 5xx, other 4xx)
 * - invalid_response: the server answered 2xx but the body is not the expected JSON shape
 */
export type JudgeErrorKind = 'http' | 'timeout' | 'network' | 'quota' | 'auth' | 'cancelled' | 'invalid_response';

export interface JudgeErrorDetails {
  kind: JudgeErrorKind;
  /** HTTP status when the server answered. */
  status?: number;
  /** Whether another attempt could succeed. */
  retryable: boolean;
  /** The server's wait hint in ms (retry-after-ms / Retry-After), when it gave one. */
  retryAfterMs?: number;
  /** How many attempts were made before giving up (set by the retry loop). */
  attempts?: number;
}

/** A failed judge call. Its message never contains the API key (see redactSecret). */
export class JudgeError extends Error {
  readonly kind: JudgeErrorKind;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number | undefined;

  constructor(message: string, details: JudgeErrorDetails) {
    super(message);
    this.name = 'JudgeError';
    this.kind = details.kind;
    this.status = details.status;
    this.retryable = details.retryable;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts;
  }

  withAttempts(attempts: number): JudgeError {
    return new JudgeError(`${this.message} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`, {
      kind: this.kind,
      status: this.status,
      retryable: this.retryable,
      retryAfterMs: this.retryAfterMs,
      attempts,
    });
  }
}

export function isJudgeError(value: unknown): value is JudgeError {
  return value instanceof JudgeError;
}

/** Replaces every occurrence of the secret (and of long-enough parts a server may echo) in text. */
export function redactSecret(text: string, secret: string): string {
  if (secret.length === 0) return text;
  let out = text.split(secret).join('[redacted key]');
  // Servers echo partly masked keys ("sk-abc...wxyz"); mask any 12+ char run of the key that survived.
  if (secret.length >= 16) {
    for (const piece of [secret.slice(0, 12), secret.slice(-12)]) out = out.split(piece).join('[redacted]');
  }
  return out;
}
