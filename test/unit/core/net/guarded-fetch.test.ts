import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchTimedOut, guardedFetch, LoadCancelled } from '../../../../src/core/net/guarded-fetch.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok') {
      res.writeHead(206, { 'Content-Range': 'bytes 0-4/10', 'X-Test': 'kept' });
      res.end('hello');
    } else if (req.url === '/stalls') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first part, then nothing');
    } // anything else: never answered
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const guarded = (timeoutMs = 300, signal = new AbortController().signal) =>
  guardedFetch((...a) => fetch(...a), { signal, timeoutMs });

describe('guardedFetch', () => {
  it('passes an answer through: status, headers and body', async () => {
    // A timeout no busy machine reaches: this answer must never be cut off.
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
    // Long enough for the headers to arrive on a busy machine; the body then stalls for good.
    const r = await guarded(2_000)(`${base}/stalls`);
    await expect(r.text()).rejects.toThrow('the server stopped sending data for 2 s');
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
