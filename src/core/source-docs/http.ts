/**
 * Bounded HTTP reads for the Hub client: JSON pages and byte ranges, each refused past a size
 * limit, with a count of requests and bytes so that every lookup can say what it cost.
 */
import { errorMessage } from '../error-message.ts';
import { bodyBytes } from '../net/body-bytes.ts';

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

export type SourceErrorKind =
  'network' | 'http' | 'range' | 'too-large' | 'bad-data' | 'not-found' | 'settings' | 'timeout' | 'cancelled';

/** A failure of the remote source, with what failed in words a user can act on. */
export class SourceError extends Error {
  constructor(
    message: string,
    readonly kind: SourceErrorKind,
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
}

export class Transfer {
  readonly stats: TransferStats = { requests: 0, bytes: 0 };
  /** Per response: the controller that stops its body (silence, the guard's signal). */
  private readonly stops = new WeakMap<
    Response,
    { request: AbortController; idle: () => SourceError; release: () => void }
  >();

  /** `totals`, when given, counts this transfer's traffic too (one lookup's cost within a session's). */
  constructor(
    private readonly fetchFn: FetchFn,
    private readonly totals?: TransferStats,
    private readonly guard: TransferGuard = {},
  ) {}

  private count(requests: number, bytes: number): void {
    this.stats.requests += requests;
    this.stats.bytes += bytes;
    if (this.totals) {
      this.totals.requests += requests;
      this.totals.bytes += bytes;
    }
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    const { signal, idleMs } = this.guard;
    if (signal?.aborted) throw asSourceError(signal.reason, url, 'stopped');
    this.count(1, 0);
    const request = new AbortController();
    const host = new URL(url).host;
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
      const response = await this.fetchFn(url, { ...init, signal: request.signal });
      this.stops.set(response, { request, idle, release });
      return response;
    } catch (e) {
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

  /** A JSON body of at most maxBytes, with the response headers (Link pagination). */
  async json(url: string, maxBytes: number): Promise<{ body: unknown; headers: Headers }> {
    const response = await this.send(url, { headers: { accept: 'application/json' } });
    if (response.status === 404) {
      await discard(response);
      throw new SourceError(`${shownUrl(url)}: not found (HTTP 404)`, 'not-found');
    }
    if (!response.ok) {
      await discard(response);
      throw new SourceError(`${shownUrl(url)}: HTTP ${response.status} ${response.statusText}`.trim(), 'http');
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
    const response = await this.send(url, { headers: { Range: `bytes=${start}-${end - 1}` } });
    if (response.status !== 206) {
      await discard(response);
      if (response.status === 200)
        throw new SourceError(
          `${shownUrl(url)}: the server ignored the byte range and would send the whole file; refused`,
          'range',
        );
      throw new SourceError(
        `${shownUrl(response.url || url)}: HTTP ${response.status} ${response.statusText} for bytes ${start}-${end - 1}`.trim(),
        response.status === 404 ? 'not-found' : 'http',
      );
    }
    const contentRange = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
    if (contentRange && Number(contentRange[1]) !== start) {
      await discard(response);
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
    return { bytes, finalUrl: response.url || url };
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
      await discard(response);
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

/** A stop or time limit keeps its own words (a SourceError); anything else is the network's. */
function asSourceError(e: unknown, _url: string, otherwise: string): SourceError {
  if (e instanceof SourceError) return e;
  return new SourceError(otherwise, 'network');
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
