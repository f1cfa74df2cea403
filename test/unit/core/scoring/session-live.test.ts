/**
 * The Score page's engine judging live against the mock judge server: replies the browser's
 * store refuses are kept and scored from (audit finding 4.3), a refused key stops the run and
 * says why (4.8).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseVerdictsJson } from '../../../../src/core/judge/cache.ts';
import { MemoryJudgeCacheStore, ScoreSession } from '../../../../src/core/scoring/session/index.ts';
import { sampleDir as sample, sampleFiles } from './sample-files.ts';
import { startMockJudgeServer, type MockJudgeServer } from '../../../support/mock-judge-server.ts';

const KEY = 'sk-session-live-0123456789abcdef';

/** The reference predictions with every answer changed, so that no shipped reply applies. */
function livePredictions(): Blob {
  const lines = readFileSync(path.join(sample, 'submissions/bm25-top-doc-sample/predictions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const rec = JSON.parse(line) as { answer: string };
      rec.answer = `${rec.answer} (session live)`;
      return JSON.stringify(rec);
    });
  return new Blob([`${lines.join('\n')}\n`]);
}

function reply(prompt: string): string {
  if (prompt.startsWith('[SAMPLELIST]')) return '{"matched_items": [true], "extra_items": 0}';
  if (prompt.startsWith('[SAMPLEPREMISE]')) return '{"identified": false}';
  return '{"correct": true, "is_refusal": false}';
}

/** IndexedDB over its quota: every write is refused. */
class FullStore extends MemoryJudgeCacheStore {
  override readonly persistent: boolean = true;
  override async set(): Promise<void> {
    throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
  }
  override async setMany(): Promise<number> {
    throw Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
  }
}

let mock: MockJudgeServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function sessionOn(store: MemoryJudgeCacheStore): Promise<{ session: ScoreSession; model: string }> {
  const session = new ScoreSession(store, { baseHref: 'http://localhost/' });
  const info = await session.useRelease({ kind: 'files', label: 'sample', files: sampleFiles() });
  const view = await session.setPredictions('primary', 'predictions.jsonl', livePredictions());
  expect(view.ok).toBe(true);
  return { session, model: info.profileModel! };
}

describe('ScoreSession live judging', () => {
  it('scores from replies the store refused, says how many are only in memory, and exports them', async () => {
    const server = (mock = await startMockJudgeServer({
      fallback: (r) => {
        const body = r.body as { messages: Array<{ content: string }> };
        return { reply: reply(body.messages.at(-1)!.content) };
      },
    }));
    const { session, model } = await sessionOn(new FullStore());
    const result = await session.score('primary', {
      live: { endpoint: { provider: 'openai', baseUrl: `${server.url}/v1`, model, apiKey: KEY } },
    });
    expect(result.status).toBe('scored');
    if (result.status !== 'scored') return;
    expect(server.requests.length).toBeGreaterThan(100);
    expect(result.unsaved?.count).toBe(server.requests.length);
    expect(result.unsaved?.reason).toContain('QuotaExceededError');
    const info = await session.cacheInfo();
    expect(info.unsaved).toBe(server.requests.length);
    const exported = parseVerdictsJson(await session.exportCacheJson());
    expect(exported.size).toBeGreaterThanOrEqual(server.requests.length);
    // A second scoring in the same session needs no call: the replies are in memory.
    const again = await session.score('primary');
    expect(again.status).toBe('scored');
  });

  it('stops at the first 401 with the status and the provider message instead of judging every task', async () => {
    const server = (mock = await startMockJudgeServer({
      fallback: () => ({
        status: 401,
        body: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
      }),
    }));
    const { session, model } = await sessionOn(new MemoryJudgeCacheStore());
    const result = await session.score('primary', {
      live: { endpoint: { provider: 'openai', baseUrl: `${server.url}/v1`, model, apiKey: KEY } },
    });
    expect(result.status).toBe('stopped');
    if (result.status !== 'stopped') return;
    expect(result.reason).toBe('auth');
    expect(result.httpStatus).toBe(401);
    expect(result.message).toContain('Incorrect API key provided');
    expect(result.message).not.toContain(KEY);
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });
});
