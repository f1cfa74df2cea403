import { JudgeError, redactSecret } from './errors.ts';
import { parseRetryAfterMs } from '../net/retry-after.ts';

export interface PostJsonOptions {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Whole-run cancellation. */
  signal: AbortSignal;
  timeoutMs: number;
  /** Removed from every error message. */
  secret: string;
  maxResponseBytes: number;
  fetchImpl?: typeof fetch;
  now?: () => number;
}

const MAX_ERROR_EXCERPT = 300;

/** Sends one POST and returns the parsed JSON body of a 2xx answer; any failure is a JudgeError. */
export async function postJson(options: PostJsonOptions): Promise<unknown> {
  const { signal, secret } = options;
  if (signal.aborted) throw cancelledError();
  const attempt = new AbortController();
  let timedOut = false;
  const onRunAbort = (): void => attempt.abort();
  signal.addEventListener('abort', onRunAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort();
  }, options.timeoutMs);
  const failure = (error: unknown): JudgeError => {
    if (error instanceof JudgeError) return error;
    if (signal.aborted) return cancelledError();
    if (timedOut) {
      return new JudgeError(`Judge request timed out after ${options.timeoutMs} ms`, {
        kind: 'timeout',
        retryable: true,
      });
    }
    return networkError(error, secret);
  };
  try {
    const fetchImpl = options.fetchImpl ?? globalThis.fetch;
    let response: Response;
    try {
      response = await fetchImpl(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: JSON.stringify(options.body),
        signal: attempt.signal,
        // A redirect could carry the key (x-api-key survives cross-origin redirects) to another host.
        redirect: 'error',
        credentials: 'omit',
      });
    } catch (error) {
      throw failure(error);
    }
    let text: string;
    try {
      text = await readTextCapped(response, options.maxResponseBytes);
    } catch (error) {
      throw failure(error);
    }
    if (!response.ok) throw httpError(response, text, secret, options.now?.() ?? Date.now());
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new JudgeError(
        `Judge endpoint answered HTTP ${response.status} with a body that is not JSON: ` +
          `${JSON.stringify(redactSecret(excerpt(text), secret))}`,
        { kind: 'invalid_response', status: response.status, retryable: true },
      );
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onRunAbort);
  }
}

function cancelledError(): JudgeError {
  return new JudgeError('Judge run cancelled', { kind: 'cancelled', retryable: false });
}

function networkError(error: unknown, secret: string): JudgeError {
  const cause = describeCause(error);
  return new JudgeError(
    redactSecret(
      `Judge request failed before an HTTP answer (${cause}). Likely causes: wrong base URL, server down, ` +
        'a provider that does not allow browser (CORS) requests, a blocking browser extension, or (Anthropic) ' +
        'a missing anthropic-dangerous-direct-browser-access header.',
      secret,
    ),
    { kind: 'network', retryable: true },
  );
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return `${error.message}: ${typeof code === 'string' ? code : cause.message}`;
  }
  return error.message;
}

interface ServerError {
  code: string | undefined;
  message: string | undefined;
}

/** OpenAI: {error: {code, type, message}}; Anthropic: {type: 'error', error: {type, message}}. */
function readServerError(text: string): ServerError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { code: undefined, message: text.trim() === '' ? undefined : text };
  }
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
  if (error === undefined) return { code: undefined, message: text };
  const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : undefined;
  const message = typeof error.message === 'string' ? error.message : undefined;
  return { code, message };
}

function httpError(response: Response, text: string, secret: string, nowMs: number): JudgeError {
  const status = response.status;
  const { code, message } = readServerError(text);
  const retryAfterMs = parseRetryAfterMs(response.headers, nowMs);
  const isQuota = status === 402 || QUOTA_CODES.has(code ?? '') || (status < 500 && QUOTA_TEXT.test(message ?? ''));
  const isAuth = status === 401 || status === 403;
  const neverRetry = isQuota || isAuth || status === 400;
  const shouldRetryHeader = response.headers.get('x-should-retry');
  let retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  if (shouldRetryHeader === 'true') retryable = true;
  if (shouldRetryHeader === 'false') retryable = false;
  if (neverRetry) retryable = false;
  const kind = isQuota ? 'quota' : isAuth ? 'auth' : 'http';
  const detail = message === undefined ? '' : `: ${excerpt(message)}`;
  const label = code === undefined ? '' : ` (${excerpt(code)})`;
  return new JudgeError(redactSecret(`Judge endpoint answered HTTP ${status}${label}${detail}`, secret), {
    kind,
    status,
    retryable,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** Out of money rather than rate-limited: OpenAI's codes, and the wording of Anthropic's and OpenRouter's refusals. */
const QUOTA_CODES: ReadonlySet<string> = new Set([
  'insufficient_quota',
  'billing_hard_limit_reached',
  'quota_exceeded',
]);
const QUOTA_TEXT = /exceeded your current quota|credit balance is too low|insufficient (credits|funds|balance)/i;

/**
 * The server's text, bounded, on one line, with control and bidirectional-override characters
 * shown as escapes: it is untrusted and ends up in the page and on terminals.
 */
function excerpt(text: string): string {
  const short = text.length <= MAX_ERROR_EXCERPT ? text : `${text.slice(0, MAX_ERROR_EXCERPT)}…`;
  return short.replace(
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readTextCapped(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw new JudgeError(`Judge endpoint answer is larger than ${maxBytes} bytes`, {
        kind: 'invalid_response',
        status: response.status,
        retryable: false,
      });
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
