/**
 * A fetch that gives up: on a server that sends nothing for `timeoutMs` (no headers, or a
 * body that stops flowing), on one that trickles (less than `minBytes` in `timeoutMs` of
 * waiting: a byte every few seconds keeps the idle timer from ever firing), past `totalMs` for
 * one request, and at once when its load is cancelled (a newer load started). Without it a
 * release URL that never answers keeps a load pending forever.
 */

/** A load was cancelled because another one started (not an error to show). */
export class LoadCancelled extends Error {
  constructor() {
    super('Cancelled: another release started loading.');
    this.name = 'LoadCancelled';
  }
}

/** The server stayed silent too long. */
export class FetchTimedOut extends Error {
  constructor(
    readonly url: string,
    readonly seconds: number,
    stage: 'answer' | 'body' | 'trickle' | 'total',
    bytes = 0,
  ) {
    super(
      stage === 'answer'
        ? `${url}: no answer from the server in ${seconds} s. Check the address and your connection, then load again.`
        : stage === 'body'
          ? `${url}: the server stopped sending data for ${seconds} s. Check your connection, then load again.`
          : stage === 'trickle'
            ? `${url}: the server sent only ${bytes} bytes in ${seconds} s, far too slowly to load from. Check the address and your connection, then load again.`
            : `${url}: not complete after ${seconds} s. Check the address and your connection, then load again.`,
    );
    this.name = 'FetchTimedOut';
  }
}

export interface FetchGuard {
  /** Aborted when the load is cancelled; its reason is what pending fetches reject with. */
  signal: AbortSignal;
  timeoutMs: number;
  /** The least a body must bring in `timeoutMs` of waiting on the server (default 1 KiB). */
  minBytes?: number;
  /** The most one request may take, answer and body (default 10 minutes). */
  totalMs?: number;
}

export const DEFAULT_MIN_BYTES = 1024;
export const DEFAULT_TOTAL_MS = 600_000;

const NULL_BODY = new Set([101, 204, 205, 304]);

function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** Wraps `fetchFn` so that every request follows the guard. */
export function guardedFetch(fetchFn: typeof fetch, guard: FetchGuard): typeof fetch {
  const seconds = Math.round(guard.timeoutMs / 100) / 10;
  const minBytes = guard.minBytes ?? DEFAULT_MIN_BYTES;
  const totalMs = guard.totalMs ?? DEFAULT_TOTAL_MS;
  // One listener for the load, not one per request: a load makes hundreds of range requests.
  const active = new Set<AbortController>();
  guard.signal.addEventListener('abort', () => active.forEach((c) => c.abort(guard.signal.reason)), { once: true });
  return async (input, init) => {
    const url = urlOf(input);
    if (guard.signal.aborted) throw guard.signal.reason;
    const request = new AbortController();
    active.add(request);
    const total = setTimeout(
      () => request.abort(new FetchTimedOut(url, Math.round(totalMs / 100) / 10, 'total')),
      totalMs,
    );
    const done = () => {
      active.delete(request);
      clearTimeout(total);
    };
    let timer = setTimeout(() => request.abort(new FetchTimedOut(url, seconds, 'answer')), guard.timeoutMs);
    let response: Response;
    try {
      response = await fetchFn(input, { ...init, signal: request.signal });
    } catch (e) {
      done();
      throw request.signal.aborted ? request.signal.reason : e;
    } finally {
      clearTimeout(timer);
    }
    if (!response.body || NULL_BODY.has(response.status)) {
      done();
      return response;
    }
    const reader = response.body.getReader();
    // Time spent waiting on the server (not on the reader) and what it brought, per window.
    let waited = 0;
    let brought = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        timer = setTimeout(() => request.abort(new FetchTimedOut(url, seconds, 'body')), guard.timeoutMs);
        const asked = Date.now();
        try {
          const { done: end, value } = await reader.read();
          if (end) {
            done();
            controller.close();
            return;
          }
          waited += Date.now() - asked;
          brought += value.byteLength;
          if (waited >= guard.timeoutMs) {
            if (brought < minBytes) {
              const slow = new FetchTimedOut(url, Math.round(waited / 100) / 10, 'trickle', brought);
              request.abort(slow);
              throw slow;
            }
            waited = 0;
            brought = 0;
          }
          controller.enqueue(value);
        } catch (e) {
          done();
          controller.error(request.signal.aborted ? request.signal.reason : e);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
