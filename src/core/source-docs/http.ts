/**
 * Bounded HTTP reads for the Hub client: JSON pages and byte ranges, each refused past a size
 * limit, with a count of requests and bytes so that every lookup can say what it cost. Answers
 * 429 and 503 are waited out (as the server says, else with backoff) within bounds, under the
 * session's rate gate; the Hub token goes to the Hub's origin only.
 */
import { errorMessage } from '../error-message.ts';
import { bodyBytes } from '../net/body-bytes.ts';
import { parseRateLimit, parseRetryAfterMs } from '../net/retry-after.ts';
import { inWords, RateGate, SYSTEM_CLOCK, waitCause, WaitSet, type RateClock, type RateWait } from './rate-gate.ts';

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

export type SourceErrorKind =
  | 'network'
  | 'http'
  | 'range'
  | 'too-large'
  | 'bad-data'
  | 'not-found'
  | 'settings'
  | 'timeout'
  | 'cancelled'
  | 'rate-limited'
  | 'auth';

/** A failure of the remote source, with what failed in words a user can act on. */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly kind: SourceErrorKind,
    /** The HTTP status that caused it, when a server answered (an expired signed URL's 403). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface TransferStats {
  /** fetch() calls (a redirect followed inside one call counts once). */
  requests: number;
  /** Response body bytes received. */
  bytes: number;
}

/** A URL without its query string (signed file-host URLs carry tokens): for messages. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.slice(0, 200);
  }
}

/** What stops a transfer's requests: a signal (Cancel, a total time limit) and silence. */
export interface TransferGuard {
  /** Aborted with the reason requests then fail with (a SourceError). */
  signal?: AbortSignal;
  /** A server that sends nothing this long (no answer, or a body that stops) fails the request. */
  idleMs?: number;
  /**
   * When the whole transfer must be over (session clock): a wait ending later fails at once as
   * 'rate-limited' rather than running into the total time limit.
   */
  deadline?: number;
}

/** What all transfers of one Hub session share: the rate gate, the token, how to wait and retry. */
export interface TransferSession {
  gate: RateGate;
  /** Waits longer than this (a 429's Retry-After, a used-up window) fail as 'rate-limited' instead. */
  maxRateWaitMs: number;
  /** Tries after a 429 or 503 before giving up. */
  maxRetries: number;
  /** The first backoff when the server says nothing of when to come back; doubled each try. */
  retryBaseMs: number;
  /**
   * 'fetch' lets fetch() follow redirects (the browser must: it hides redirect answers);
   * 'manual' follows them here, so each hop's rate-limit headers are seen and the token is
   * never sent on to another origin whatever the runtime does.
   */
  redirects: 'fetch' | 'manual';
  /** The Hub's origin: the only one that gets the token, and whose 401/403 mean no access. */
  hubOrigin?: string;
  token?: string;
  /**
   * Words for a 401/403 from the Hub (gated or private dataset, token refused); `errorCode` is the
   * Hub's X-Error-Code when it sent one (RepoNotFound, GatedRepo).
   */
  accessDenied?: (status: 401 | 403, withToken: boolean, errorCode?: string) => string;
}

export function defaultSession(clock: RateClock = SYSTEM_CLOCK): TransferSession {
  return {
    gate: new RateGate(clock, (url) => originOf(url)),
    maxRateWaitMs: 600_000,
    maxRetries: 4,
    retryBaseMs: 500,
    redirects: 'fetch',
  };
}

/** What the gate is told when a request it let go has its answer (none: it failed). */
type Settle = ReturnType<RateGate['start']>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const MAX_BACKOFF_MS = 60_000;

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** Local time of day, HH:MM:SS. */
function clockTime(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

export class Transfer {
  readonly stats: TransferStats = { requests: 0, bytes: 0 };
  /** Per response: the controller that stops its body (silence, the guard's signal). */
  private readonly stops = new WeakMap<
    Response,
    { request: AbortController; idle: () => SourceError; release: () => void }
  >();

  /** This transfer's waits on a server (a lookup's progress shows the earliest resume). */
  private readonly waits: WaitSet;
  private readonly session: TransferSession;

  /** `totals`, when given, counts this transfer's traffic too (one lookup's cost within a session's). */
  constructor(
    private readonly fetchFn: FetchFn,
    private readonly totals?: TransferStats,
    private readonly guard: TransferGuard = {},
    session?: TransferSession,
    onWait?: (wait: RateWait | undefined) => void,
  ) {
    this.session = session ?? defaultSession();
    this.waits = new WaitSet(() => this.session.gate.clock.now(), onWait);
  }

  /** The earliest resume of this transfer's requests while some wait (on a rate limit, a 503). */
  get waiting(): RateWait | undefined {
    return this.waits.current();
  }

  private count(requests: number, bytes: number): void {
    this.stats.requests += requests;
    this.stats.bytes += bytes;
    if (this.totals) {
      this.totals.requests += requests;
      this.totals.bytes += bytes;
    }
  }

  /**
   * One request as the caller sees it: redirects followed (here when the session says so), 429s
   * and 503s waited out. Answers with the response and the URL that gave it.
   */
  private async send(url: string, init: RequestInit): Promise<{ response: Response; url: string }> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const response = await this.retrying(target, init, hop === 0);
      const location = response.headers.get('location');
      if (this.session.redirects !== 'manual' || !REDIRECTS.has(response.status))
        return { response, url: response.url || target };
      await this.drop(response);
      if (!location || hop >= MAX_REDIRECTS)
        throw new SourceError(`${shownUrl(target)}: a redirect without a target, or too many redirects`, 'bad-data');
      target = new URL(location, target).href;
    }
  }

  /** Sends, and sends again after a 429 or 503 once the wait the server asked for (or a backoff) is over. */
  private async retrying(url: string, init: RequestInit, counted: boolean): Promise<Response> {
    const { gate } = this.session;
    const { clock } = gate;
    let target = url;
    for (let attempt = 0; ; attempt++) {
      const settle = await this.admit(target);
      const response = await this.exchange(target, init, counted || attempt > 0, settle);
      const status = response.status;
      if (status !== 429 && status !== 503) return response;
      const answered = response.url || target;
      const hint = this.hintMs(response);
      const waitMs = hint ?? this.backoffMs(attempt);
      const wait = this.waitFor(answered, clock.now() + waitMs, status === 429 ? 'rate-limit' : 'unavailable');
      gate.block(answered, wait.until, status);
      const giveUp = waitMs > this.waitLimitMs() || attempt >= this.session.maxRetries;
      // A 503 that never said when to come back keeps today's failure: HTTP 503 from that host.
      if (giveUp && status === 503 && hint === undefined) return response;
      await this.drop(response);
      if (giveUp) throw refusal(wait, clock.now(), attempt + 1);
      await this.pause(wait);
      // The file host refused after a redirect: try it again directly, not through the Hub.
      target = answered;
    }
  }

  /** The wait a 429/503 asked for: Retry-After, else a RateLimit header's reset when none is left. */
  private hintMs(response: Response): number | undefined {
    const now = this.session.gate.clock.now();
    const retryAfter = parseRetryAfterMs(response.headers, now);
    if (retryAfter !== undefined) return retryAfter;
    const stated = parseRateLimit(response.headers);
    if (stated?.resetMs !== undefined && (stated.remaining ?? 0) === 0) return stated.resetMs;
    return undefined;
  }

  /** Exponential, with jitter so that parallel requests do not come back together. */
  private backoffMs(attempt: number): number {
    const full = Math.min(MAX_BACKOFF_MS, this.session.retryBaseMs * 2 ** attempt);
    return full / 2 + (this.session.gate.clock.random() * full) / 2;
  }

  private waitFor(url: string, until: number, reason: RateWait['reason']): RateWait {
    const origin = originOf(url);
    return { until, host: hostOfUrl(url), hub: origin !== '' && origin === this.session.hubOrigin, reason };
  }

  private waitLimitMs(): number {
    const { deadline } = this.guard;
    const left = deadline === undefined ? Infinity : deadline - this.session.gate.clock.now();
    return Math.min(this.session.maxRateWaitMs, left);
  }

  /**
   * Holds a request while the gate says its budget is used up (no longer than the limit), then
   * counts it as sent in the same step: requests resuming together cannot all take the last slot.
   */
  private async admit(url: string): Promise<Settle> {
    const { gate } = this.session;
    const { clock } = gate;
    for (;;) {
      const until = gate.holdUntil(url);
      if (until === undefined) return gate.start(url);
      const wait = this.waitFor(url, until, 'rate-limit');
      if (until - clock.now() > this.waitLimitMs()) throw refusal(wait, clock.now());
      await this.pause(wait);
    }
  }

  /** A wait cancelled by the guard's signal (Cancel, Stop, a lookup's total time), outside the idle timer. */
  private async pause(wait: RateWait): Promise<void> {
    const end = this.waits.add(wait);
    try {
      await this.session.gate.pause(wait, this.guard.signal);
    } catch (e) {
      throw asSourceError(this.guard.signal?.aborted ? this.guard.signal.reason : e, wait.host, 'stopped');
    } finally {
      end();
    }
  }

  /** The token, only for the Hub's own origin. */
  private headersFor(url: string, init: RequestInit): HeadersInit | undefined {
    const { token, hubOrigin } = this.session;
    if (!token || !hubOrigin || originOf(url) !== hubOrigin) return init.headers;
    return { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${token}` };
  }

  /** One fetch() under the idle timer and the guard's signal; `settle` tells the gate its answer. */
  private async exchange(url: string, init: RequestInit, counted: boolean, settle: Settle): Promise<Response> {
    const { signal, idleMs } = this.guard;
    if (signal?.aborted) {
      settle();
      throw asSourceError(signal.reason, url, 'stopped');
    }
    if (counted) this.count(1, 0);
    const request = new AbortController();
    const host = hostOfUrl(url);
    const idle = () =>
      new SourceError(
        `${host} sent nothing for ${Math.round((idleMs ?? 0) / 100) / 10} s; the read was stopped`,
        'timeout',
      );
    const stop = () => request.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    const release = () => signal?.removeEventListener('abort', stop);
    const timer = idleMs === undefined ? undefined : setTimeout(() => request.abort(idle()), idleMs);
    try {
      const response = await this.fetchFn(url, {
        ...init,
        headers: this.headersFor(url, init),
        signal: request.signal,
        ...(this.session.redirects === 'manual' ? { redirect: 'manual' as const } : {}),
      });
      settle({ url: response.url || url, headers: response.headers });
      this.stops.set(response, { request, idle, release });
      return response;
    } catch (e) {
      settle();
      release();
      throw asSourceError(
        request.signal.aborted ? request.signal.reason : e,
        url,
        `could not reach ${host} (${errorMessage(e)})`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  /** A 401/403 of the Hub itself (a file host's 403 is an expired signed URL, handled by the caller). */
  private accessError(response: Response, url: string): SourceError | undefined {
    const { hubOrigin, accessDenied, token } = this.session;
    if ((response.status !== 401 && response.status !== 403) || !hubOrigin || originOf(url) !== hubOrigin)
      return undefined;
    const code = response.headers.get('x-error-code')?.trim() || undefined;
    const words =
      accessDenied?.(response.status, token !== undefined, code) ??
      `${shownUrl(url)}: HTTP ${response.status}; the Hub refused access`;
    return new SourceError(words, 'auth', response.status);
  }

  private async drop(response: Response): Promise<void> {
    this.stops.get(response)?.release();
    await discard(response);
  }

  /** A JSON body of at most maxBytes, with the response headers (Link pagination). */
  async json(url: string, maxBytes: number): Promise<{ body: unknown; headers: Headers }> {
    const { response, url: answered } = await this.send(url, { headers: { accept: 'application/json' } });
    const denied = this.accessError(response, answered);
    if (denied) {
      await this.drop(response);
      throw denied;
    }
    if (response.status === 404) {
      await this.drop(response);
      throw new SourceError(`${shownUrl(url)}: not found (HTTP 404)`, 'not-found', 404);
    }
    if (!response.ok) {
      await this.drop(response);
      throw new SourceError(
        `${shownUrl(url)}: HTTP ${response.status} ${response.statusText}`.trim(),
        'http',
        response.status,
      );
    }
    const bytes = await this.body(response, maxBytes, url);
    try {
      return { body: JSON.parse(new TextDecoder('utf-8').decode(bytes)), headers: response.headers };
    } catch {
      throw new SourceError(`${shownUrl(url)}: the answer is not JSON`, 'bad-data');
    }
  }

  /**
   * Bytes [start, end) of the file at url. Refuses a server that ignores the range (status 200
   * would mean the whole file) and an answer of another length. Returns the URL the bytes came
   * from after redirects, so that later ranges can skip the redirect.
   */
  async range(url: string, start: number, end: number): Promise<{ bytes: Uint8Array; finalUrl: string }> {
    if (!(end > start) || start < 0) throw new SourceError(`empty byte range ${start}-${end}`, 'range');
    const { response, url: answered } = await this.send(url, { headers: { Range: `bytes=${start}-${end - 1}` } });
    const denied = this.accessError(response, answered);
    if (denied) {
      await this.drop(response);
      throw denied;
    }
    if (response.status !== 206) {
      await this.drop(response);
      if (response.status === 200)
        throw new SourceError(
          `${shownUrl(url)}: the server ignored the byte range and would send the whole file; refused`,
          'range',
          200,
        );
      throw new SourceError(
        `${shownUrl(answered)}: HTTP ${response.status} ${response.statusText} for bytes ${start}-${end - 1}`.trim(),
        response.status === 404 ? 'not-found' : 'http',
        response.status,
      );
    }
    const contentRange = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
    if (contentRange && Number(contentRange[1]) !== start) {
      await this.drop(response);
      throw new SourceError(
        `${shownUrl(url)}: asked for bytes from ${start}, the server sent them from ${contentRange[1]}`,
        'range',
      );
    }
    const bytes = await this.body(response, end - start, url);
    if (bytes.byteLength !== end - start)
      throw new SourceError(
        `${shownUrl(url)}: asked for ${end - start} bytes at ${start}, got ${bytes.byteLength}`,
        'range',
      );
    return { bytes, finalUrl: answered };
  }

  /** Reads a body, stopping (and failing) as soon as it passes maxBytes. */
  private async body(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
    try {
      return await this.readBody(response, maxBytes, url);
    } finally {
      this.stops.get(response)?.release();
    }
  }

  private async readBody(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
    const declared = Number(response.headers.get('content-length'));
    const tooLarge = () =>
      new SourceError(
        `${shownUrl(url)}: answer larger than the ${maxBytes.toLocaleString('en')}-byte limit`,
        'too-large',
      );
    if (Number.isFinite(declared) && declared > maxBytes) {
      await this.drop(response);
      throw tooLarge();
    }
    const guard = this.stops.get(response);
    const idleMs = this.guard.idleMs;
    return bodyBytes(response, {
      what: shownUrl(url),
      maxBytes,
      tooLarge,
      ...(guard && idleMs !== undefined
        ? {
            idleMs,
            idle: () => {
              const silent = guard.idle();
              guard.request.abort(silent);
              return silent;
            },
          }
        : {}),
      onChunk: (_received, chunkBytes) => this.count(0, chunkBytes),
      readError: (e) => {
        const why = guard?.request.signal.aborted ? guard.request.signal.reason : e;
        return asSourceError(why, url, `${shownUrl(url)}: the answer broke off (${errorMessage(e)})`);
      },
    });
  }
}

/** A wait past the limit (or past the tries): when to come back, in words a user can act on. */
function refusal(wait: RateWait, now: number, tries?: number): SourceError {
  const after = tries === undefined ? '' : ` (${tries} ${tries === 1 ? 'try' : 'tries'})`;
  return new SourceError(
    `${waitCause(wait)}${after}; retry after ${clockTime(wait.until)} (${inWords(wait.until - now)})`,
    'rate-limited',
  );
}

function hostOfUrl(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 80);
  }
}

/** A stop or time limit keeps its own words (a SourceError); anything else is the network's. */
function asSourceError(e: unknown, _url: string, otherwise: string): SourceError {
  if (e instanceof SourceError) return e;
  return new SourceError(otherwise, 'network');
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
