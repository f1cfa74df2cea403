/**
 * The Hub's limits (issue 30, item 3) against the mock Hub: 429s with Retry-After or only the
 * RateLimit header are waited out, a wait past the limit fails saying when to retry, 503 bursts
 * are retried, a batch under a small window is paced by the announced budget, a gated dataset
 * needs a token that goes to the Hub only, and expired signed URLs are resolved again. Every wait
 * is on a virtual clock shared with the mock, so no test sleeps real seconds.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemorySourceCache } from '../../../../src/core/source-docs/cache.ts';
import { SourceError, Transfer } from '../../../../src/core/source-docs/http.ts';
import { accessDeniedMessage, hubSession } from '../../../../src/core/source-docs/hub.ts';
import { DEFAULT_LIMITS } from '../../../../src/core/source-docs/limits.ts';
import {
  HfSourceDocs,
  type HfSourceDocsOptions,
  type LookupProgress,
} from '../../../../src/core/source-docs/lookup.ts';
import { waitingLine, type RateWait } from '../../../../src/core/source-docs/rate-gate.ts';
import { readBatch } from '../../../../src/core/source-docs/service.ts';
import { settingsFrom } from '../../../../src/core/source-docs/settings.ts';
import type { HubLimitsConfig } from '../../../support/hub-limits.ts';
import { startMockHub, type MockHub } from '../../../support/mock-hub.ts';
import { makeSourceShards, readSampleDocs, type SampleDoc, type SourceShards } from '../../../support/source-shards.ts';
import { virtualClock, type VirtualClock } from '../../../support/virtual-clock.ts';

let docs: SampleDoc[];
let shards: SourceShards;
let sortedDoc: SampleDoc;
let hub: MockHub | undefined;
let clock: VirtualClock;

const fetchFn = (input: string, init?: RequestInit) => fetch(input, init);

beforeAll(async () => {
  docs = await readSampleDocs();
  sortedDoc = docs[1300]!;
  // Small media blobs: these tests count requests, not media bytes.
  shards = makeSourceShards(docs, { mediaRowBytes: 20_000 });
  expect(shards.shardOf.get(sortedDoc.doc_id)?.sorted).toBe(true);
}, 60_000);

afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

/** A mock Hub with these limits, on a fresh virtual clock it shares with the client. */
async function limitedHub(limits: HubLimitsConfig = {}): Promise<MockHub> {
  clock = virtualClock();
  hub = await startMockHub({ files: shards.files, limits, now: clock.now });
  return hub;
}

const source = (h: MockHub, extra: Partial<HfSourceDocsOptions> = {}) =>
  new HfSourceDocs({
    settings: settingsFrom({ endpoint: h.endpoint }),
    fetch: fetchFn,
    cache: new MemorySourceCache(),
    clock,
    ...extra,
  });

const statuses = (h: MockHub) => h.log.map((e) => e.status);

describe('429: waited out as the Hub says', () => {
  it('waits a Retry-After out and reads the document', async () => {
    // Two API calls a minute, the listing takes three pages: the third is refused.
    const h = await limitedHub({ rateLimit: { requests: 100, apiRequests: 2, windowMs: 60_000, announce: false } });
    const start = clock.now();
    const waits: Array<RateWait | undefined> = [];
    const docsSource = source(h, { onWait: (w) => waits.push(w) });
    const doc = await docsSource.get(sortedDoc.doc_id);
    expect(doc?.row.text_content).toBe(sortedDoc.text);
    expect(h.limits.refused.count).toBe(1);
    expect(statuses(h).filter((s) => s === 429)).toHaveLength(1);
    // Retry-After said 60 s (the window's reset): the read went on after it, not before.
    expect(clock.now() - start).toBeGreaterThanOrEqual(60_000);
    expect(docsSource.rateStats).toMatchObject({ limited: 1, unavailable: 0, waits: 1 });
    expect(docsSource.rateStats.waitMs).toBeGreaterThanOrEqual(60_000);
    // The session's notice: a wait on the Hub began, then ended.
    expect(waits[0]).toMatchObject({ hub: true, reason: 'rate-limit' });
    expect(waits.at(-1)).toBeUndefined();
  });

  it('waits out a 429 that gives only the RateLimit header (no Retry-After)', async () => {
    const h = await limitedHub({
      rateLimit: { requests: 100, apiRequests: 2, windowMs: 60_000, announce: false, retryAfter: false },
    });
    const start = clock.now();
    const doc = await source(h).get(sortedDoc.doc_id);
    expect(doc?.row.text_content).toBe(sortedDoc.text);
    expect(h.limits.refused.count).toBe(1);
    expect(clock.now() - start).toBeGreaterThanOrEqual(60_000);
  });

  it('fails at once as rate-limited, saying when to retry, when the wait is past the limit', async () => {
    const h = await limitedHub({ rateLimit: { requests: 100, apiRequests: 2, windowMs: 3_600_000, announce: false } });
    const docsSource = source(h, { limits: { maxRateWaitMs: 120_000 } });
    const start = clock.now();
    const error = await docsSource.get(sortedDoc.doc_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect(error).toMatchObject({ kind: 'rate-limited' });
    const resume = new Date(start + 3_600_000).toTimeString().slice(0, 8);
    expect((error as Error).message).toBe(`the Hub's rate limit is reached (1 try); retry after ${resume} (in 60 min)`);
    // Nothing was waited for.
    expect(clock.now()).toBe(start);
    expect(clock.slept).toEqual([]);
    // The bucket stays closed: a new lookup of the session fails without asking the Hub.
    const before = h.log.length;
    await expect(docsSource.get(docs[10]!.doc_id)).rejects.toMatchObject({ kind: 'rate-limited' });
    expect(h.log.length).toBe(before);
  });
});

describe('503: retried', () => {
  it('retries a burst of 503s with Retry-After, and one without (backoff)', async () => {
    const h = await limitedHub();
    h.limits.unavailable(2, { retryAfterS: 5, origin: 'files' });
    const start = clock.now();
    const first = source(h);
    expect((await first.get(sortedDoc.doc_id))?.row.text_content).toBe(sortedDoc.text);
    expect(statuses(h).filter((s) => s === 503)).toHaveLength(2);
    expect(clock.now() - start).toBeGreaterThanOrEqual(5_000);
    expect(first.rateStats.unavailable).toBe(2);

    h.log.length = 0;
    h.limits.unavailable(3, { origin: 'hub' });
    const second = source(h);
    expect((await second.get(docs[2000]!.doc_id))?.row.text_content).toBe(docs[2000]!.text);
    expect(statuses(h).slice(0, 3)).toEqual([503, 503, 503]);
    // Exponential backoff from 500 ms with jitter (the clock's random is 0.5): 375, 750, 1500 ms.
    expect(clock.slept.slice(-3)).toEqual([375, 750, 1500]);
  });

  it('gives up on a persistent 503 with a clear message', async () => {
    const h = await limitedHub();
    h.limits.unavailable(1000, { origin: 'hub' });
    const error = await source(h)
      .get(sortedDoc.doc_id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toMatch(/HTTP 503/);
    // The first try and four more, then no more.
    expect(h.log.length).toBe(5);

    h.log.length = 0;
    h.limits.unavailable(1000, { origin: 'hub', retryAfterS: 30 });
    const told = await source(h)
      .get(sortedDoc.doc_id)
      .catch((e: unknown) => e);
    expect(told).toMatchObject({ kind: 'rate-limited' });
    expect((told as Error).message).toMatch(
      /^the Hub is unavailable \(HTTP 503\) \(5 tries\); retry after \d\d:\d\d:\d\d \(in 30 s\)$/,
    );
    expect(h.log.length).toBe(5);
  });

  it('does not go through the Hub again for a file host that is unavailable', async () => {
    const h = await limitedHub();
    const docsSource = source(h);
    await docsSource.get(sortedDoc.doc_id);
    h.log.length = 0;
    h.limits.unavailable(1000, { origin: 'files' });
    await expect(docsSource.get(docs[1301]!.doc_id)).rejects.toThrow(/HTTP 503/);
    // Five tries of the known file-host URL; no new resolve (a 503 is not an expired signature).
    expect(h.log.filter((e) => e.origin === 'hub')).toEqual([]);
    expect(h.log.length).toBe(5);
  });
});

describe('pacing under the announced budget', () => {
  it('reads a batch under a 40-request window with no document missing or failed and few 429s', async () => {
    // Every route counted, the file host too, 40 requests a minute each.
    const h = await limitedHub({ rateLimit: { requests: 40, windowMs: 60_000, files: true } });
    const ids = docs.filter((_, i) => i % 23 === 0).map((d) => d.doc_id);
    const docsSource = source(h);
    const waiting: RateWait[] = [];
    const outcome = await readBatch(docsSource, ids, (p) => {
      if (p.waiting) waiting.push(p.waiting);
    });
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.missing).toEqual([]);
    expect([...outcome.failed]).toEqual([]);
    expect(outcome.texts.size).toBe(ids.length);
    for (const id of ids) expect(outcome.texts.get(id)).toBe(docs.find((d) => d.doc_id === id)!.text);
    // It took several windows, and the gate held requests until each reset rather than being refused.
    const fileRequests = h.log.filter((e) => e.origin === 'files').length;
    expect(fileRequests).toBeGreaterThan(80);
    expect(h.limits.refused.count).toBeLessThanOrEqual(2);
    expect(docsSource.rateStats.waits).toBeGreaterThan(0);
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting[0]!.reason).toBe('rate-limit');
  });

  it('without announcements, learns the budget from the 429s and still reads every document', async () => {
    const h = await limitedHub({ rateLimit: { requests: 40, windowMs: 60_000, files: true, announce: false } });
    const ids = docs.filter((_, i) => i % 31 === 0).map((d) => d.doc_id);
    const outcome = await readBatch(source(h), ids);
    if (!outcome.ok) throw new Error(outcome.error);
    expect([...outcome.failed]).toEqual([]);
    expect(outcome.texts.size).toBe(ids.length);
    expect(h.limits.refused.count).toBeGreaterThan(0);
  });
});

describe('the rate gate', () => {
  it('paces parallel requests by a fixed window, also those resuming together at its reset', async () => {
    // A server with fixed 10 s windows of 2 requests, stating the budget in every answer.
    clock = virtualClock(Date.UTC(2025, 0, 6, 9, 0, 0));
    const windowMs = 10_000;
    const used = new Map<number, number>();
    let refused = 0;
    const fetchWindowed = async (): Promise<Response> => {
      const w = Math.floor(clock.now() / windowMs);
      // Answered after the event loop turns: requests woken together are all sent before any answer.
      await new Promise((resolve) => setTimeout(resolve, 1));
      const n = (used.get(w) ?? 0) + 1;
      used.set(w, n);
      const resetS = Math.ceil(((w + 1) * windowMs - clock.now()) / 1000);
      const policy = { 'ratelimit-policy': `"fixed window";"api";q=2;w=${windowMs / 1000}` };
      if (n > 2) {
        refused++;
        return new Response('', { status: 429, headers: { ratelimit: `"api";r=0;t=${resetS}`, ...policy } });
      }
      return new Response('[]', { status: 200, headers: { ratelimit: `"api";r=${2 - n};t=${resetS}`, ...policy } });
    };
    const session = hubSession({
      settings: settingsFrom({ endpoint: 'https://hub.example' }),
      limits: DEFAULT_LIMITS,
      clock,
    });
    const transfer = new Transfer(fetchWindowed, undefined, {}, session);
    const start = clock.now();
    // One answer tells the budget (before it, nothing can be paced)...
    await transfer.json('https://hub.example/api/datasets/x', 100);
    // ...then seven at once: one fits in this window, two in each of the next three.
    const answers = await Promise.all(
      Array.from({ length: 7 }, () => transfer.json('https://hub.example/api/datasets/x', 100)),
    );
    expect(answers.every((a) => Array.isArray(a.body))).toBe(true);
    // The requests held until a reset wake together, and only two of them go on in each window.
    expect(refused).toBe(0);
    expect(clock.now() - start).toBeGreaterThanOrEqual(30_000);
    expect([...used.values()].every((n) => n <= 2)).toBe(true);
  });
});

describe('a gated dataset', () => {
  const TOKEN = 'hf_testTokenForTheMockHub';

  it('without a token fails as auth, saying a token is needed; with a wrong one says it has no access', async () => {
    const h = await limitedHub({ gatedToken: TOKEN });
    const none = await source(h)
      .get(sortedDoc.doc_id)
      .catch((e: unknown) => e);
    expect(none).toMatchObject({ kind: 'auth', status: 401 });
    expect((none as Error).message).toMatch(
      /^aurora2424\/Epstein-Files is gated or private on 127\.0\.0\.1:\d+ \(HTTP 401\): give a Hugging Face token/,
    );
    const wrong = await source(h, { token: 'hf_someoneElses' })
      .get(sortedDoc.doc_id)
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ kind: 'auth', status: 403 });
    expect((wrong as Error).message).toMatch(/the Hugging Face token has no access to aurora2424\/Epstein-Files/);
    expect((wrong as Error).message).not.toContain('hf_someoneElses');
  });

  it('says "not found" when the Hub answers 401 for a dataset that does not exist (RepoNotFound)', async () => {
    const settings = settingsFrom({ endpoint: 'https://hub.example', dataset: 'someone/typo' });
    const notFound = async () =>
      new Response('{"error":"Repository not found"}', { status: 401, headers: { 'x-error-code': 'RepoNotFound' } });
    const session = hubSession({ settings, limits: DEFAULT_LIMITS, clock: virtualClock() });
    const error = await new Transfer(notFound, undefined, {}, session)
      .json('https://hub.example/api/datasets/someone/typo/tree/main', 1000)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'auth', status: 401 });
    expect((error as Error).message).toBe(
      "someone/typo was not found on hub.example (HTTP 401): check the dataset's name; if it is private, give a Hugging Face token in Source settings",
    );
    expect(accessDeniedMessage(settings, 401, true, 'RepoNotFound')).toMatch(/or the Hugging Face token has no access/);
    expect(accessDeniedMessage(settings, 401, true)).toMatch(/refused the Hugging Face token \(HTTP 401\)/);
  });

  for (const redirects of ['manual', 'fetch'] as const) {
    it(`sends the token to the Hub only, never to the file host (redirects: ${redirects})`, async () => {
      const h = await limitedHub({ gatedToken: TOKEN });
      const docsSource = source(h, { token: TOKEN, redirects });
      expect((await docsSource.get(sortedDoc.doc_id))?.row.text_content).toBe(sortedDoc.text);
      const batch = await docsSource.readMany(docs.filter((_, i) => i % 97 === 0).map((d) => d.doc_id));
      expect(batch.failed.size).toBe(0);
      const hubEntries = h.log.filter((e) => e.origin === 'hub');
      const fileEntries = h.log.filter((e) => e.origin === 'files');
      expect(hubEntries.length).toBeGreaterThan(3);
      expect(fileEntries.length).toBeGreaterThan(3);
      expect(hubEntries.every((e) => e.authorization)).toBe(true);
      expect(fileEntries.filter((e) => e.authorization)).toEqual([]);
      expect(statuses(h).filter((s) => s === 401 || s === 403)).toEqual([]);
    });
  }
});

describe('signed file-host URLs that expire', () => {
  for (const redirects of ['manual', 'fetch'] as const) {
    it(`resolves a shard again when its signed URL has expired (redirects: ${redirects})`, async () => {
      const h = await limitedHub({ signedUrlTtlMs: 10 * 60_000 });
      const docsSource = source(h, { redirects });
      expect((await docsSource.get(sortedDoc.doc_id))?.row.text_content).toBe(sortedDoc.text);
      const shard = shards.shardOf.get(sortedDoc.doc_id)!.path;
      clock.advance(11 * 60_000);
      h.log.length = 0;
      // The same shard, another row group: the kept URL has expired.
      const neighbour = docs[1300 + 100]!;
      expect(shards.shardOf.get(neighbour.doc_id)?.path).toBe(shard);
      expect((await docsSource.get(neighbour.doc_id))?.row.text_content).toBe(neighbour.text);
      const seen = h.log.map((e) => `${e.origin} ${e.status}`);
      expect(seen[0]).toBe('files 403');
      expect(seen[1]).toBe('hub 302');
      expect(seen.slice(2).every((s) => s === 'files 206')).toBe(true);
    });
  }
});

describe('progress while waiting', () => {
  it('reports `waiting` with the resume time while a wait lasts, and drops it once reading goes on', async () => {
    const h = await limitedHub({ rateLimit: { requests: 100, apiRequests: 2, windowMs: 42_000, announce: false } });
    const progress: LookupProgress[] = [];
    const lines: string[] = [];
    const doc = await source(h).get(sortedDoc.doc_id, (p) => {
      progress.push(p);
      if (p.waiting) lines.push(waitingLine(p.waiting, clock.now()));
    });
    expect(doc).toBeDefined();
    const at = progress.findIndex((p) => p.waiting);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(progress[at]!.waiting).toMatchObject({ hub: true, reason: 'rate-limit' });
    expect(progress[at]!.phase).toBe('listing');
    expect(lines[0]).toBe("waiting for the Hub's rate limit, resumes in 42 s");
    // The next report says the wait is over; no later one has it.
    expect(progress[at + 1]!.waiting).toBeUndefined();
    expect(progress.slice(at + 1).some((p) => p.waiting)).toBe(false);
  });

  it('says which host waits: the file host by its name, a 503 as unavailable', () => {
    const now = Date.UTC(2025, 0, 6, 9);
    expect(waitingLine({ until: now + 42_000, host: 'cas.example', hub: false, reason: 'rate-limit' }, now)).toBe(
      'waiting for the rate limit of cas.example, resumes in 42 s',
    );
    expect(waitingLine({ until: now + 5 * 60_000, host: 'h', hub: true, reason: 'unavailable' }, now)).toBe(
      'waiting for the Hub (unavailable, HTTP 503), resumes in 5 min',
    );
  });
});
