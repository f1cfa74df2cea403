/**
 * A fetch that gives up: on a server that sends nothing for `timeoutMs` (no headers, or a
 * body that stops flowing), and at once when its load is cancelled (a newer load started).
 * Without it a release URL that never answers keeps a load pending forever.
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
    stage: 'answer' | 'body',
  ) {
    super(
      stage === 'answer'
        ? `${url}: no answer from the server in ${seconds} s. Check the address and your connection, then load again.`
        : `${url}: the server stopped sending data for ${seconds} s. Check your connection, then load again.`,
    );
    this.name = 'FetchTimedOut';
  }
}

export interface FetchGuard {
  /** Aborted when the load is cancelled; its reason is what pending fetches reject with. */
  signal: AbortSignal;
  timeoutMs: number;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function urlOf(input: RequestInfo | URL): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** Wraps `fetchFn` so that every request follows the guard. */
export function guardedFetch(fetchFn: typeof fetch, guard: FetchGuard): typeof fetch {
  const seconds = Math.round(guard.timeoutMs / 100) / 10;
  // One listener for the load, not one per request: a load makes hundreds of range requests.
  const active = new Set<AbortController>();
  guard.signal.addEventListener('abort', () => active.forEach((c) => c.abort(guard.signal.reason)), { once: true });
  return async (input, init) => {
    const url = urlOf(input);
    if (guard.signal.aborted) throw guard.signal.reason;
    const request = new AbortController();
    active.add(request);
    const done = () => active.delete(request);
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
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        timer = setTimeout(() => request.abort(new FetchTimedOut(url, seconds, 'body')), guard.timeoutMs);
        try {
          const { done: end, value } = await reader.read();
          if (end) {
            done();
            controller.close();
          } else controller.enqueue(value);
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
