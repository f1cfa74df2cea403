/**
 * A live judge run stops early and says why (audit finding 4.8): at the first authentication or
 * quota error, and after a few calls in a row have failed for good; two runs of the same calls
 * that share a cache and a lock (two tabs) call each key once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryJudgeCache } from '../../../../src/core/judge/cache.ts';
import { createJudgeProvider } from '../../../../src/core/judge/providers.ts';
import { runJudgeCalls, type CallLock } from '../../../../src/core/judge/runner.ts';
import type { JudgeProvider } from '../../../../src/core/judge/types.ts';
import { startMockJudgeServer, type MockJudgeServer } from '../../../support/mock-judge-server.ts';
import { makeCalls, openAIEndpoint, recordingSleep, TEST_KEY } from './judge-fixtures.ts';

let server: MockJudgeServer | undefined;
let provider: JudgeProvider;

async function startServer(options: Parameters<typeof startMockJudgeServer>[0] = {}): Promise<MockJudgeServer> {
  server = await startMockJudgeServer(options);
  provider = createJudgeProvider(openAIEndpoint(server.url), { timeoutMs: 5000 });
  return server;
}
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sleep = recordingSleep().sleep;

describe('a judge run stops at once on authentication and quota errors', () => {
  const cases: Array<[string, number, unknown, 'auth' | 'quota', RegExp]> = [
    ['401', 401, { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }, 'auth', /HTTP 401/],
    ['403', 403, { error: { message: 'Project does not have access' } }, 'auth', /HTTP 403/],
    ['402', 402, { error: { message: 'Insufficient credits' } }, 'quota', /HTTP 402/],
    [
      '429 insufficient_quota',
      429,
      { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } },
      'quota',
      /HTTP 429 \(insufficient_quota\): You exceeded your current quota/,
    ],
    [
      'Anthropic 400 credit balance',
      400,
      { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low' } },
      'quota',
      /credit balance is too low/,
    ],
  ];
  for (const [name, status, body, reason, shown] of cases) {
    it(`${name}: one request per worker, no retries, the status and the provider's message in the reason`, async () => {
      const server = await startServer({ fallback: () => ({ status, body }) });
      const calls = await makeCalls(150);
      const result = await runJudgeCalls({ calls, cache: new MemoryJudgeCache(), provider, retry: { sleep } });
      // Four workers may each have sent their first request before the first answer arrived.
      expect(server.requests.length).toBeLessThanOrEqual(4);
      expect(result.stopped?.reason).toBe(reason);
      expect(result.stopped?.httpStatus).toBe(status);
      expect(result.stopped?.message).toMatch(shown);
      expect(result.stopped?.message).toContain('No more calls were sent');
      expect(result.stopped?.message).not.toContain(TEST_KEY);
      expect(result.cancelled).toBe(false);
      expect(result.replies.size).toBe(0);
    });
  }

  it('shows a long or hostile provider message bounded and with controls neutralised', async () => {
    const hostile = `bad key \u202Egnp.exe\u0007 ${'x'.repeat(5000)}`;
    await startServer({ fallback: () => ({ status: 401, body: { error: { message: hostile } } }) });
    const result = await runJudgeCalls({
      calls: await makeCalls(3),
      cache: new MemoryJudgeCache(),
      provider,
      concurrency: 1,
      retry: { sleep },
    });
    expect(result.stopped?.message.length).toBeLessThan(700);
    expect(result.stopped?.message).not.toContain('\u202E');
    expect(result.stopped?.message).not.toContain('\u0007');
    expect(result.stopped?.message).toContain('bad key');
  });
});

describe('a persistently failing endpoint', () => {
  it('keeps the canonical per-call retries but stops after a few failed calls in a row', async () => {
    const server = await startServer({
      fallback: () => ({ status: 500, body: { error: { message: 'internal error' } } }),
    });
    const calls = await makeCalls(150);
    const result = await runJudgeCalls({
      calls,
      cache: new MemoryJudgeCache(),
      provider,
      retry: { sleep },
      maxConsecutiveFailures: 5,
    });
    expect(result.stopped?.reason).toBe('failing');
    expect(result.stopped?.message).toMatch(/5 judge calls in a row failed/);
    expect(result.stopped?.message).toMatch(/HTTP 500/);
    // Each failed call had its 5 attempts; at most 5 + 3 calls (the other workers) were started.
    expect(server.requests.length).toBeGreaterThanOrEqual(25);
    expect(server.requests.length).toBeLessThanOrEqual(40);
    expect(result.failures.size).toBeGreaterThanOrEqual(5);
  });

  it('a success in between resets the count', async () => {
    let n = 0;
    await startServer({
      fallback: () => (++n % 3 === 0 ? { reply: '{"ok": true}' } : { status: 500, body: 'down' }),
    });
    const calls = await makeCalls(12);
    const result = await runJudgeCalls({
      calls,
      cache: new MemoryJudgeCache(),
      provider,
      concurrency: 1,
      retry: { sleep, maxAttempts: 1 },
      maxConsecutiveFailures: 3,
    });
    expect(result.stopped).toBeUndefined();
    expect(result.progress.done).toBe(12);
  });
});

/** An in-memory stand-in for navigator.locks: one holder per name, the others queue. */
function memoryLocks(): CallLock {
  const tails = new Map<string, Promise<unknown>>();
  return async (name, _signal, work) => {
    const before = tails.get(name) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    tails.set(
      name,
      before.then(() => mine),
    );
    await before;
    try {
      return await work();
    } finally {
      release();
    }
  };
}

describe('two runs of the same calls (two tabs)', () => {
  it('call each key once when they share the cache and a lock', async () => {
    const server = await startServer({
      fallback: () => ({ reply: '{"correct": true, "is_refusal": false}', delayMs: 15 }),
    });
    const calls = await makeCalls(12);
    const cache = new MemoryJudgeCache();
    const lock = memoryLocks();
    const [a, b] = await Promise.all([
      runJudgeCalls({ calls, cache, provider, retry: { sleep }, lock }),
      runJudgeCalls({ calls, cache, provider, retry: { sleep }, lock }),
    ]);
    expect(server.requests).toHaveLength(12);
    expect(a.replies.size).toBe(12);
    expect(b.replies.size).toBe(12);
    expect(a.progress.cached + b.progress.cached).toBe(12);
  });
});
