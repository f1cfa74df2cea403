import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JudgeError } from '../../../../src/core/judge/errors.ts';
import { createJudgeProvider } from '../../../../src/core/judge/providers.ts';
import { parseRetryAfterMs } from '../../../../src/core/net/retry-after.ts';
import {
  abortableSleep,
  retryDelayMs,
  withRetries,
  type RetryOptions,
  type Sleep,
} from '../../../../src/core/judge/retry.ts';
import type { JudgeProvider } from '../../../../src/core/judge/types.ts';
import { startMockJudgeServer, type MockJudgeServer } from '../../../support/mock-judge-server.ts';
import { failureOf, MODEL, openAIEndpoint, recordingSleep, SYSTEM, TEST_KEY } from './judge-fixtures.ts';

let server: MockJudgeServer;
let provider: JudgeProvider;
beforeEach(async () => {
  server = await startMockJudgeServer();
  provider = createJudgeProvider(openAIEndpoint(server.url), { timeoutMs: 10_000 });
});
afterEach(async () => {
  await server.close();
});

function judgeWithRetries(options: RetryOptions, signal = new AbortController().signal): Promise<string> {
  return withRetries((s) => provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, s), signal, options);
}

describe('retries against a live endpoint', () => {
  it('retries a 429 after the Retry-After delay', async () => {
    server.script.push({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { code: 'rate_limit_exceeded' } },
    });
    server.script.push({ reply: '{"ok": 1}' });
    const { sleep, waits } = recordingSleep();
    expect(await judgeWithRetries({ sleep })).toBe('{"ok": 1}');
    expect(server.requests).toHaveLength(2);
    expect(waits).toEqual([7000]);
  });

  it('prefers retry-after-ms and reads HTTP dates', async () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    provider = createJudgeProvider(openAIEndpoint(server.url), { timeoutMs: 10_000, now: () => now });
    server.script.push({ status: 429, headers: { 'retry-after-ms': '250', 'retry-after': '9' }, body: 'slow down' });
    server.script.push({ status: 503, headers: { 'retry-after': new Date(now + 20_000).toUTCString() } });
    server.script.push({ reply: 'done' });
    const { sleep, waits } = recordingSleep();
    expect(await judgeWithRetries({ sleep })).toBe('done');
    expect(waits[0]).toBe(250);
    // The wait is the time from the provider's clock to that date.
    expect(waits[1]).toBe(20_000);
  });

  it('retries a 500 with exponential backoff, then succeeds', async () => {
    server.script.push({ status: 500, body: 'boom' }, { status: 502, body: 'bad gateway' });
    server.script.push({ reply: 'fine' });
    const { sleep, waits } = recordingSleep();
    expect(await judgeWithRetries({ sleep })).toBe('fine');
    expect(server.requests).toHaveLength(3);
    expect(waits).toEqual([1000, 2000]);
  });

  it('does not retry insufficient_quota, auth or bad-request errors', async () => {
    const { sleep, waits } = recordingSleep();
    const cases: Array<[number, unknown, string]> = [
      [429, { error: { code: 'insufficient_quota', message: 'You exceeded your current quota' } }, 'quota'],
      [401, { error: { code: 'invalid_api_key' } }, 'auth'],
      [403, { error: { message: 'forbidden' } }, 'auth'],
      [400, { error: { message: 'Unsupported value: temperature' } }, 'http'],
    ];
    for (const [index, [status, body, kind]] of cases.entries()) {
      server.script.push({ status, body });
      const error = await failureOf(judgeWithRetries({ sleep }));
      expect(error.kind).toBe(kind);
      expect(error.status).toBe(status);
      expect(error.attempts).toBe(1);
      expect(server.requests).toHaveLength(index + 1);
    }
    expect(waits).toEqual([]);
  });

  it('retries timeouts, then throws a timeout JudgeError after 5 attempts', async () => {
    server.hold();
    provider = createJudgeProvider(openAIEndpoint(server.url), { timeoutMs: 60 });
    const { sleep, waits } = recordingSleep();
    const error = await failureOf(judgeWithRetries({ sleep }));
    expect(error.kind).toBe('timeout');
    // Attempts, not server arrivals: under load a 60 ms timeout can fire before a request lands.
    expect(error.attempts).toBe(5);
    expect(error.message).toContain('after 5 attempts');
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
  });

  it('gives up on persistent 500s with an http JudgeError carrying the status, and no key', async () => {
    for (let i = 0; i < 5; i++)
      server.script.push({ status: 500, body: { error: { message: `bad key ${TEST_KEY}` } } });
    const { sleep } = recordingSleep();
    const error = await failureOf(judgeWithRetries({ sleep }));
    expect(error.kind).toBe('http');
    expect(error.status).toBe(500);
    expect(server.requests).toHaveLength(5);
    expect(error.message).not.toContain(TEST_KEY);
  });

  it('retries a non-JSON body, then fails with invalid_response', async () => {
    for (let i = 0; i < 2; i++) server.script.push({ body: 'not json at all' });
    const { sleep } = recordingSleep();
    const error = await failureOf(judgeWithRetries({ sleep, maxAttempts: 2 }));
    expect(error.kind).toBe('invalid_response');
    expect(server.requests).toHaveLength(2);
  });

  it('stops retrying when cancelled during a backoff wait', async () => {
    for (let i = 0; i < 5; i++) server.script.push({ status: 500, body: 'x' });
    const controller = new AbortController();
    // The real sleep, with a backoff longer than the test's time limit, cancelled once it waits.
    const sleepThenCancel: Sleep = (ms, signal) => {
      const waiting = abortableSleep(ms, signal);
      controller.abort();
      return waiting;
    };
    const pending = judgeWithRetries({ baseDelayMs: 600_000, sleep: sleepThenCancel }, controller.signal);
    const error = await failureOf(pending);
    expect(error.kind).toBe('cancelled');
    expect(server.requests).toHaveLength(1);
  });
});

describe('retry schedule', () => {
  const serverError = (retryAfterMs?: number): JudgeError =>
    new JudgeError('x', {
      kind: 'http',
      status: 500,
      retryable: true,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });

  it('is 2^attempt seconds capped at 30 s, as the canonical scorer', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, serverError()))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
  });

  it('uses a server hint up to 60 s and falls back to the backoff beyond', () => {
    expect(retryDelayMs(3, serverError(0))).toBe(0);
    expect(retryDelayMs(3, serverError(45_000))).toBe(45_000);
    expect(retryDelayMs(3, serverError(600_000))).toBe(8000);
  });

  it('parses Retry-After forms', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    const headers = (entries: Record<string, string>): Headers => new Headers(entries);
    expect(parseRetryAfterMs(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfterMs(headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(parseRetryAfterMs(headers({ 'retry-after': 'Fri, 01 May 2026 12:00:10 GMT' }), now)).toBe(10_000);
    expect(parseRetryAfterMs(headers({ 'retry-after': 'Fri, 01 May 2026 11:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '20', 'retry-after': '3' }), now)).toBe(20);
    expect(parseRetryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfterMs(headers({}), now)).toBeUndefined();
  });

  it('has an abortable default sleep', async () => {
    const controller = new AbortController();
    // Longer than the test's time limit: only the abort can end it.
    const pending = abortableSleep(600_000, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled' });
    await expect(abortableSleep(5, new AbortController().signal)).resolves.toBeUndefined();
  });
});
