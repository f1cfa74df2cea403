import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchTimedOut, guardedFetch, LoadCancelled } from '../../../../src/core/net/guarded-fetch.ts';
import { listenLocal, type LocalServer } from '../../../support/local-server.ts';

let server: LocalServer;
let base: string;

beforeAll(async () => {
  server = await listenLocal((req, res) => {
    if (req.url === '/ok') {
      res.writeHead(206, { 'Content-Range': 'bytes 0-4/10', 'X-Test': 'kept' });
      res.end('hello');
    } else if (req.url === '/trickle') {
      // The attack: one byte at a time, each well inside the idle limit, for ever.
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      const drip = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(drip));
    } // anything else: never answered
  });
  base = server.origin;
});
afterAll(() => server.close());

const guarded = (timeoutMs = 300, signal = new AbortController().signal) =>
  guardedFetch((...a) => fetch(...a), { signal, timeoutMs });

describe('guardedFetch', () => {
  it('passes an answer through: status, headers and body', async () => {
    // A long limit: on a busy machine the first answer may take longer than the 0.3 s of the timeout tests.
    const r = await guarded(60_000)(`${base}/ok`);
    expect(r.status).toBe(206);
    expect(r.headers.get('x-test')).toBe('kept');
    expect(await r.text()).toBe('hello');
  });

  it('gives up on a server that never answers, naming the URL', async () => {
    await expect(guarded()(`${base}/never`)).rejects.toThrow(FetchTimedOut);
    await expect(guarded()(`${base}/never`)).rejects.toThrow(`${base}/never: no answer from the server in 0.3 s`);
  });

  it('gives up on a body that stops coming', async () => {
    // The headers are there at once (no race with the answer timeout); the body sends one part,
    // then nothing until the request is aborted, as fetch's own bodies do.
    const stalledFetch = async (_input: RequestInfo | URL, init?: RequestInit) => {
      const signal = init!.signal!;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('first part, then nothing'));
          signal.addEventListener('abort', () => c.error(signal.reason), { once: true });
        },
      });
      return new Response(body, { status: 200 });
    };
    const fetcher = guardedFetch(stalledFetch, { signal: new AbortController().signal, timeoutMs: 300 });
    const r = await fetcher(`${base}/stalls`);
    await expect(r.text()).rejects.toThrow(`${base}/stalls: the server stopped sending data for 0.3 s`);
  });

  it('gives up on a server that trickles a byte at a time, however long it would go on', async () => {
    const fetcher = guardedFetch((...a) => fetch(...a), {
      signal: new AbortController().signal,
      timeoutMs: 300,
      minBytes: 1024,
    });
    const r = await fetcher(`${base}/trickle`);
    await expect(r.arrayBuffer()).rejects.toThrow(
      /\/trickle: the server sent only \d+ bytes in [\d.]+ s, far too slowly/,
    );
  });

  it('gives up on a request past its total time, even while bytes keep coming fast enough', async () => {
    const fetcher = guardedFetch((...a) => fetch(...a), {
      signal: new AbortController().signal,
      timeoutMs: 60_000,
      minBytes: 1,
      totalMs: 400,
    });
    const r = await fetcher(`${base}/trickle`);
    await expect(r.arrayBuffer()).rejects.toThrow(`${base}/trickle: not complete after 0.4 s`);
  });

  it('a cancelled load rejects its requests at once, and refuses new ones', async () => {
    const load = new AbortController();
    const fetcher = guarded(60_000, load.signal);
    const pending = fetcher(`${base}/never`);
    load.abort(new LoadCancelled());
    await expect(pending).rejects.toThrow(LoadCancelled);
    await expect(fetcher(`${base}/ok`)).rejects.toThrow('Cancelled: another release started loading.');
  });
});
