import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { goldenDir, hasShared, sharedNote } from '../../../support/shared.ts';
import { MemoryJudgeCache, parseVerdictsJson } from '../../../../src/core/judge/cache.ts';
import { createJudgeProvider } from '../../../../src/core/judge/providers.ts';
import { JudgeRunControl } from '../../../../src/core/judge/run-control.ts';
import { runJudgeCalls } from '../../../../src/core/judge/runner.ts';
import type { JudgeCache, JudgeCall, JudgeProgress, JudgeProvider } from '../../../../src/core/judge/types.ts';
import {
  promptOf,
  startEchoJudge,
  startMockJudgeServer,
  type MockJudgeServer,
} from '../../../support/mock-judge-server.ts';
import { cacheKey, makeCall, makeCalls, MODEL, openAIEndpoint, recordingSleep, TEST_KEY } from './judge-fixtures.ts';

let server: MockJudgeServer;
let provider: JudgeProvider;
beforeEach(async () => {
  server = await startMockJudgeServer();
  provider = createJudgeProvider(openAIEndpoint(server.url), {
    responseFormat: { type: 'json_object' },
    timeoutMs: 60_000,
  });
});
afterEach(async () => {
  await server.close();
});

/** Replies with a text derived from the prompt, so each reply can be checked against its call. */
const replyFor = (prompt: string): string => `{"echo": ${JSON.stringify(prompt.slice(-12))}}`;

async function startEchoServer(): Promise<void> {
  await server.close();
  server = await startEchoJudge(replyFor);
  provider = createJudgeProvider(openAIEndpoint(server.url), {
    responseFormat: { type: 'json_object' },
    timeoutMs: 60_000,
  });
}

/** The provider, counting the calls the runner starts (counted when made, not when they arrive). */
function counting(inner: JudgeProvider): { provider: JudgeProvider; started: () => number } {
  let started = 0;
  return {
    provider: {
      ...inner,
      complete: (request, signal) => {
        started++;
        return inner.complete(request, signal);
      },
    },
    started: () => started,
  };
}

/** Progress as it is reported, and a wait for a given number of finished calls. */
function progressLog(): { onProgress: (p: JudgeProgress) => void; done: (n: number) => Promise<void> } {
  let latest = 0;
  let waiting: Array<{ n: number; resolve: () => void }> = [];
  return {
    onProgress: (p) => {
      latest = p.done;
      waiting = waiting.filter((w) => (w.n <= latest ? (w.resolve(), false) : true));
    },
    done: (n) => (n <= latest ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }))),
  };
}

/** Lets every pending promise callback run (no timers): what a worker would do next has been done. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const sleep = recordingSleep().sleep;

describe('runJudgeCalls', () => {
  it('sends each call with its exact prompt, system and model and returns replies by key', async () => {
    await startEchoServer();
    const calls = await makeCalls(5);
    const cache = new MemoryJudgeCache();
    const result = await runJudgeCalls({ calls, cache, provider, retry: { sleep } });
    expect(result.cancelled).toBe(false);
    expect(result.failures.size).toBe(0);
    expect(server.requests).toHaveLength(5);
    const sentByPrompt = new Map(server.requests.map((request) => [promptOf(request), request.body]));
    for (const call of calls) {
      expect(sentByPrompt.get(call.prompt)).toEqual({
        model: call.model,
        messages: [
          { role: 'system', content: call.system },
          { role: 'user', content: call.prompt },
        ],
        response_format: { type: 'json_object' },
      });
    }
    for (const call of calls) {
      expect(result.replies.get(call.key)).toBe(replyFor(call.prompt));
      expect(cache.entries.get(call.key)).toBe(replyFor(call.prompt));
    }
    expect(result.progress).toEqual({ total: 5, done: 5, cached: 0, failed: 0, inFlight: 0 });
  });

  it('answers cached calls without network, and a second run with the same cache makes zero requests', async () => {
    await startEchoServer();
    const calls = await makeCalls(6);
    const cache = new MemoryJudgeCache([[calls[0]!.key, 'from cache']]);
    const first = await runJudgeCalls({ calls, cache, provider, retry: { sleep } });
    expect(server.requests).toHaveLength(5);
    expect(first.replies.get(calls[0]!.key)).toBe('from cache');
    expect(first.progress.cached).toBe(1);

    const progress: JudgeProgress[] = [];
    const second = await runJudgeCalls({
      calls,
      cache,
      provider,
      retry: { sleep },
      onProgress: (p) => progress.push(p),
    });
    expect(server.requests).toHaveLength(5);
    expect(second.progress).toEqual({ total: 6, done: 6, cached: 6, failed: 0, inFlight: 0 });
    expect([...second.replies.entries()].sort()).toEqual([...first.replies.entries()].sort());
    expect(progress.at(-1)).toEqual({ total: 6, done: 6, cached: 6, failed: 0, inFlight: 0 });
  });

  it('makes one request per distinct key', async () => {
    await startEchoServer();
    const call = await makeCall('same prompt');
    const result = await runJudgeCalls({
      calls: [call, { ...call, task_id: 'other', tag: 'PREMISEID' }, call],
      cache: new MemoryJudgeCache(),
      provider,
      retry: { sleep },
    });
    expect(server.requests).toHaveLength(1);
    expect(result.progress.total).toBe(1);
  });

  it('refuses calls for a model other than the endpoint model, before any request', async () => {
    const calls = await makeCalls(2, 'gpt-4o-mini-2024-07-18');
    await expect(runJudgeCalls({ calls, cache: new MemoryJudgeCache(), provider })).rejects.toThrow(
      /model "gpt-4o-mini-2024-07-18" but the endpoint is configured for "gpt-5.5-2026-04-23"/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('refuses two calls that share a key but differ in prompt', async () => {
    const call = await makeCall('a');
    await expect(
      runJudgeCalls({ calls: [call, { ...call, prompt: 'b' }], cache: new MemoryJudgeCache(), provider }),
    ).rejects.toThrow(/share cache key/);
  });

  it('never has more requests in flight than the concurrency bound', async () => {
    await startEchoServer();
    server.hold();
    const calls = await makeCalls(14);
    let maxReported = 0;
    const pending = runJudgeCalls({
      calls,
      cache: new MemoryJudgeCache(),
      provider,
      concurrency: 3,
      retry: { sleep },
      onProgress: (p) => (maxReported = Math.max(maxReported, p.inFlight)),
    });
    // Answered one at a time: each answer frees one slot, which the runner fills again.
    for (let answered = 0; answered < 14; answered++) {
      await server.waitFor(() => server.held === Math.min(3, 14 - answered));
      await settle();
      expect(server.requests.length).toBe(Math.min(14, answered + 3));
      server.release(1);
    }
    const result = await pending;
    expect(result.replies.size).toBe(14);
    expect(server.maxInFlight).toBe(3);
    expect(maxReported).toBe(3);
  });

  it('writes each reply to the cache as soon as it arrives', async () => {
    await startEchoServer();
    const calls = await makeCalls(6);
    const cache = new MemoryJudgeCache();
    const seen: Array<{ done: number; cachedEntries: number }> = [];
    await runJudgeCalls({
      calls,
      cache,
      provider,
      concurrency: 2,
      retry: { sleep },
      onProgress: (p) => seen.push({ done: p.done, cachedEntries: cache.entries.size }),
    });
    for (const snapshot of seen) expect(snapshot.cachedEntries).toBe(snapshot.done);
    expect(seen.some((s) => s.done > 0 && s.done < 6)).toBe(true);
  });

  it('records failures as JudgeErrors, keeps the rest, and keeps going', async () => {
    const calls = await makeCalls(3);
    server.script.push({
      status: 400,
      body: { error: { code: 'context_length_exceeded', message: `long ${TEST_KEY}` } },
    });
    server.script.push({ reply: 'r2' }, { reply: 'r3' });
    const cache = new MemoryJudgeCache();
    const result = await runJudgeCalls({ calls, cache, provider, concurrency: 1, retry: { sleep } });
    expect(server.requests).toHaveLength(3);
    expect(result.failures.size).toBe(1);
    const [failedKey, error] = [...result.failures.entries()][0]!;
    expect(failedKey).toBe(calls[0]!.key);
    expect(error.kind).toBe('http');
    expect(error.status).toBe(400);
    expect(error.message).not.toContain(TEST_KEY);
    expect(cache.entries.has(calls[0]!.key)).toBe(false);
    expect(result.progress).toEqual({
      total: 3,
      done: 3,
      cached: 0,
      failed: 1,
      inFlight: 0,
      firstFailure: { reason: error.message, count: 1 },
    });
  });

  it("says why calls failed: the first failure's reason and how many share it", async () => {
    const calls = await makeCalls(4);
    const refusal = { status: 400, body: { error: { code: 'context_length_exceeded', message: 'too long' } } };
    server.script.push(refusal, { status: 400, body: { error: { message: 'other' } } }, refusal, { reply: 'r4' });
    const seen: JudgeProgress[] = [];
    const result = await runJudgeCalls({
      calls,
      cache: new MemoryJudgeCache(),
      provider,
      concurrency: 1,
      retry: { sleep },
      onProgress: (p) => seen.push(p),
    });
    const first = result.failures.get(calls[0]!.key)!;
    expect(result.progress.failed).toBe(3);
    expect(result.progress.firstFailure).toEqual({ reason: first.message, count: 2 });
    expect(first.message).toContain('too long');
    // each report is a snapshot: the first failure's count grew in later ones only
    const counts = seen.map((p) => p.firstFailure?.count ?? 0);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts).toContain(1);
    expect(counts.at(-1)).toBe(2);
  });

  it('stops sending requests once cancelled', async () => {
    await startEchoServer();
    server.hold();
    const calls = await makeCalls(20);
    const control = new JudgeRunControl();
    const cache = new MemoryJudgeCache();
    const first = counting(provider);
    const pending = runJudgeCalls({
      calls,
      cache,
      provider: first.provider,
      concurrency: 2,
      control,
      retry: { sleep },
      onProgress: (p) => {
        if (p.done >= 2) control.cancel();
      },
    });
    await server.waitFor(() => server.held === 2);
    server.release(2);
    const result = await pending;
    expect(result.cancelled).toBe(true);
    expect(result.replies.size).toBe(2);
    expect(result.failures.size).toBe(0);
    // The two answered, and at most one each that a worker had started before the cancel.
    const startedAtEnd = first.started();
    expect(startedAtEnd).toBeLessThanOrEqual(4);
    await settle();
    expect(first.started()).toBe(startedAtEnd);

    // A later run with the same cache resumes: it only sends what was not answered.
    server.release();
    const second = counting(provider);
    const resumed = await runJudgeCalls({ calls, cache, provider: second.provider, retry: { sleep } });
    expect(resumed.progress.cached).toBe(2);
    expect(second.started()).toBe(18);
    expect(resumed.replies.size).toBe(20);
  });

  it('cancels from an outside AbortSignal, aborting requests in flight', async () => {
    await startEchoServer();
    server.hold();
    const controller = new AbortController();
    const pending = runJudgeCalls({
      calls: await makeCalls(4),
      cache: new MemoryJudgeCache(),
      provider,
      signal: controller.signal,
      retry: { sleep },
    });
    await server.waitFor(() => server.held === 4);
    controller.abort();
    // Never released: the run can only end, and the requests only close, by the abort.
    const result = await pending;
    await server.waitFor(() => server.inFlight === 0);
    expect(server.held).toBe(0);
    expect(result.cancelled).toBe(true);
    expect(result.replies.size).toBe(0);
    expect(result.failures.size).toBe(0);
  });

  it('pauses (no new requests) and resumes', async () => {
    await startEchoServer();
    server.hold();
    const calls = await makeCalls(8);
    const control = new JudgeRunControl();
    const counted = counting(provider);
    const progress = progressLog();
    const pending = runJudgeCalls({
      calls,
      cache: new MemoryJudgeCache(),
      provider: counted.provider,
      concurrency: 2,
      control,
      retry: { sleep },
      onProgress: progress.onProgress,
    });
    await server.waitFor(() => server.held === 2);
    control.pause();
    // The two requests already sent finish; their workers then wait instead of starting more.
    server.release(2);
    await progress.done(2);
    await settle();
    expect(counted.started()).toBe(2);
    expect(server.requests).toHaveLength(2);
    expect(control.paused).toBe(true);
    control.resume();
    server.release();
    const result = await pending;
    expect(result.replies.size).toBe(8);
    expect(counted.started()).toBe(8);
    expect(server.requests).toHaveLength(8);
  });

  it('keeps a reply whose cache write failed and reports the write error', async () => {
    await startEchoServer();
    const failingCache: JudgeCache = {
      get: async () => undefined,
      set: async () => {
        throw new Error('QuotaExceededError');
      },
    };
    const calls = await makeCalls(2);
    const result = await runJudgeCalls({ calls, cache: failingCache, provider, retry: { sleep } });
    expect(result.replies.size).toBe(2);
    expect(result.cacheWriteErrors.map((e) => e.message)).toEqual(['QuotaExceededError', 'QuotaExceededError']);
  });
});

const goldenCase = path.join(goldenDir, 'scoring/dev-seed7');

describe.skipIf(!hasShared)(`runJudgeCalls on the golden dev-seed7 calls (${sharedNote})`, () => {
  it('fetches every golden call once and yields the golden verdicts', async () => {
    const verdicts = parseVerdictsJson(readFileSync(path.join(goldenCase, 'verdicts.json'), 'utf8'));
    const calls = readFileSync(path.join(goldenCase, 'judge-calls.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as JudgeCall);
    // The mock judge answers like the recorded judge: by the cache key of what it was sent.
    const answering = await startMockJudgeServer({
      fallback: async (request) => {
        const body = request.body as { model: string; messages: Array<{ content: string }> };
        const key = await cacheKey(body.model, body.messages[0]!.content, body.messages[1]!.content);
        const reply = verdicts.get(key);
        return reply === undefined ? { status: 404, body: 'unknown call' } : { reply };
      },
    });
    try {
      const goldenProvider = createJudgeProvider(openAIEndpoint(answering.url, MODEL), {
        responseFormat: { type: 'json_object' },
      });
      const result = await runJudgeCalls({
        calls,
        cache: new MemoryJudgeCache(),
        provider: goldenProvider,
        retry: { sleep },
      });
      const distinct = new Set(calls.map((call) => call.key));
      expect(answering.requests).toHaveLength(distinct.size);
      expect(result.failures.size).toBe(0);
      for (const call of calls) expect(result.replies.get(call.key)).toBe(verdicts.get(call.key));
    } finally {
      await answering.close();
    }
  });
});
