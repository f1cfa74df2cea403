import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyArrayBuffer, bodyBytes } from '../../../../src/core/net/body-bytes.ts';
import { FetchTimedOut, guardedFetch, LoadCancelled } from '../../../../src/core/net/guarded-fetch.ts';
import { listenLocal, type LocalServer } from '../../../support/local-server.ts';

const text = (s: string) => new TextEncoder().encode(s);

/** A response whose body sends `parts`, then does what `then` says; `cancelled` records a cancel's reason. */
function streamed(parts: readonly string[], then: 'end' | 'stall' | Error) {
  const cancelled: unknown[] = [];
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(text(p));
      if (then === 'end') c.close();
      else if (then instanceof Error) c.error(then);
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
  return { response: new Response(body), cancelled };
}

let server: LocalServer;
beforeAll(async () => {
  server = await listenLocal((req, res) => {
    // The attack of the release host: a byte at a time, each well inside any idle limit, for ever.
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const drip = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(drip));
  });
});
afterAll(() => server.close());

describe('bodyBytes', () => {
  it('reads a body of many chunks whole, counting each chunk', async () => {
    const { response } = streamed(['ab', 'cde', 'f'], 'end');
    const seen: Array<[number, number]> = [];
    const bytes = await bodyBytes(response, { what: 'x.json', onChunk: (r, n) => seen.push([r, n]) });
    expect(new TextDecoder().decode(bytes)).toBe('abcdef');
    expect(seen).toEqual([
      [2, 2],
      [5, 3],
      [6, 1],
    ]);
    expect(await bodyBytes(new Response(null), { what: 'empty' })).toHaveLength(0);
    const buffer = await bodyArrayBuffer(streamed(['abc', 'd'], 'end').response, { what: 'x' });
    expect(buffer).toBeInstanceOf(ArrayBuffer);
    expect(buffer.byteLength).toBe(4);
  });

  it('fails with the error the stream failed with (a time limit, a cancelled load), not a bare network error', async () => {
    const ours = new FetchTimedOut('https://host.example/release/docs.parquet', 20, 'trickle', 12);
    await expect(bodyBytes(streamed(['{'], ours).response, { what: 'docs.parquet' })).rejects.toBe(ours);
    const cancel = new LoadCancelled();
    await expect(bodyBytes(streamed([], cancel).response, { what: 'docs.parquet' })).rejects.toBe(cancel);
    // the network's own error gets the file's name and says what happened
    await expect(
      bodyBytes(streamed(['{'], new TypeError('Failed to fetch')).response, { what: 'https://h.example/r.json' }),
    ).rejects.toThrow('https://h.example/r.json: the answer broke off (Failed to fetch)');
  });

  it('refuses a body past its size, a silence past idleMs and a read past totalMs, cancelling the stream', async () => {
    const big = streamed(['12345', '67890'], 'stall');
    await expect(bodyBytes(big.response, { what: 'p.json', maxBytes: 8 })).rejects.toThrow(
      'p.json: more than the 8 bytes allowed',
    );
    expect(big.cancelled).toHaveLength(1);

    const silent = streamed(['{'], 'stall');
    const idle = bodyBytes(silent.response, { what: 'p.json', idleMs: 100 });
    await expect(idle).rejects.toThrow(FetchTimedOut);
    await expect(idle).rejects.toThrow('p.json: the server stopped sending data for 0.1 s');
    expect(silent.cancelled).toHaveLength(1);

    // a trickle keeps an idle limit from firing; the total limit still ends it
    const trickle = await fetch(`${server.origin}/release.json`);
    await expect(bodyBytes(trickle, { what: 'release.json', idleMs: 60_000, totalMs: 300 })).rejects.toThrow(
      'release.json: not complete after 0.3 s',
    );
  });

  it("a trickling host read through guardedFetch ends with the guard's message: the file and the reason", async () => {
    const url = `${server.origin}/release/release.json`;
    const fetcher = guardedFetch((...a) => fetch(...a), {
      signal: new AbortController().signal,
      timeoutMs: 300,
      minBytes: 1024,
    });
    await expect(bodyBytes(await fetcher(url), { what: url })).rejects.toThrow(
      /\/release\/release\.json: the server sent only \d+ bytes in [\d.]+ s, far too slowly/,
    );
  });

  it('a thrown onChunk stops the read with its own error', async () => {
    const s = streamed(['ab', 'cd'], 'stall');
    await expect(
      bodyBytes(s.response, {
        what: 'x',
        onChunk: (received) => {
          if (received > 3) throw new Error('x: too big for the tab');
        },
      }),
    ).rejects.toThrow('x: too big for the tab');
    expect(s.cancelled).toHaveLength(1);
  });
});
