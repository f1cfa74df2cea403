/**
 * Bounded HTTP reads for the Hub client: JSON pages and byte ranges, each refused past a size
 * limit, with a count of requests and bytes so that every lookup can say what it cost.
 */
import { errorMessage } from '../error-message.ts';
import { FetchTimedOut } from '../net/guarded-fetch.ts';

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

export class Transfer {
  readonly stats: TransferStats = { requests: 0, bytes: 0 };

  /** `totals`, when given, counts this transfer's traffic too (one lookup's cost within a session's). */
  constructor(
    private readonly fetchFn: FetchFn,
    private readonly totals?: TransferStats,
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
    this.count(1, 0);
    try {
      return await this.fetchFn(url, init);
    } catch (e) {
      throw asSourceError(e, url, `could not reach ${new URL(url).host} (${errorMessage(e)})`);
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
    if (!response.body) {
      const whole = new Uint8Array(await response.arrayBuffer());
      this.count(0, whole.byteLength);
      if (whole.byteLength > maxBytes) throw tooLarge();
      return whole;
    }
    const reader = response.body.getReader();
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read().catch((e: unknown) => {
        throw asSourceError(e, url, `${shownUrl(url)}: the answer broke off (${errorMessage(e)})`);
      });
      if (done) break;
      total += value.byteLength;
      this.count(0, value.byteLength);
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      parts.push(value);
    }
    if (parts.length === 1) return parts[0]!;
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }
}

/** A stop or time limit keeps its own words; a silent server is a timeout; the rest is the network's. */
function asSourceError(e: unknown, url: string, otherwise: string): SourceError {
  if (e instanceof SourceError) return e;
  if (e instanceof FetchTimedOut)
    return new SourceError(`${new URL(url).host} sent nothing for ${e.seconds} s; the read was stopped`, 'timeout');
  return new SourceError(otherwise, 'network');
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
