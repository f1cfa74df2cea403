/**
 * Lookups over a Hub shaped like the real source: 634 shards with EFTA ids, media in the same row
 * groups, footers padded to pyarrow-like sizes, six connections per origin. Rows per shard are
 * fewer than the real ~6,500 so that the mock is quick to make; the shard count, the footers and
 * the row-group layout are those of the real scale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySourceCache } from '../../../../src/core/source-docs/cache.ts';
import { SourceError } from '../../../../src/core/source-docs/http.ts';
import { HfSourceDocs, type LookupProgress } from '../../../../src/core/source-docs/lookup.ts';
import { createSourceDocsService, readBatch } from '../../../../src/core/source-docs/service.ts';
import { settingsFrom } from '../../../../src/core/source-docs/settings.ts';
import { listenLocal } from '../../../support/local-server.ts';
import { realTally, startRealScaleHub, type RealScaleHub } from '../../../support/real-scale-hub.ts';
import { makeRealScaleShards, type RealScaleShards } from '../../../support/real-scale-shards.ts';
import { virtualClock, type VirtualClock } from '../../../support/virtual-clock.ts';

const fetchFn = (input: string, init?: RequestInit) => fetch(input, init);
const WANTED = ['EFTA00138065', 'EFTA01656152', 'EFTA01656173', 'EFTA02731082', 'EFTA00013253'];

describe('a sorted source of 634 shards', () => {
  let shards: RealScaleShards;
  let hub: RealScaleHub;
  beforeAll(async () => {
    shards = makeRealScaleShards({ order: 'sorted', rowsPerShard: 1_000, footerBytes: 92_000, include: WANTED });
    hub = await startRealScaleHub(shards, { latencyMs: 0 });
  }, 120_000);
  afterAll(() => hub?.close());

  const source = (cache = new MemorySourceCache()) =>
    new HfSourceDocs({ settings: settingsFrom({ endpoint: hub.endpoint }), fetch: fetchFn, cache });

  it('finds a new visitor’s first document in a few footers, and the second in at most 4 requests', async () => {
    const docs = source();
    const from = hub.log.length;
    const first = await docs.get(WANTED[1]!);
    expect(first).toBeDefined();
    expect(first?.row.text_content).toBe(shards.textOfId(WANTED[1]!));
    expect(first?.row.file_name).toBe(`DataSet 9/${WANTED[1]}.pdf`);
    expect(first?.location.shard).toBe(shards.shardOfId(WANTED[1]!));
    const cost = realTally(hub.log.slice(from));
    expect(first!.cost.requests).toBeLessThanOrEqual(15);
    expect(cost.bytes).toBeLessThan(1.5e6);
    expect(cost.footerBytes / 92_000).toBeLessThan(8);
    expect(cost.mediaBytes).toBe(0);

    const at = hub.log.length;
    const second = await docs.get(WANTED[2]!);
    expect(second?.row.text_content).toBe(shards.textOfId(WANTED[2]!));
    expect(second!.cost.requests).toBeLessThanOrEqual(4);
    expect(realTally(hub.log.slice(at)).mediaBytes).toBe(0);
  });

  it('keeps the learned ranges beside the shard list, so a new session skips the probes', async () => {
    const cache = new MemorySourceCache();
    await source(cache).get(WANTED[0]!);
    const again = await source(cache).get(WANTED[3]!);
    expect(again).toBeDefined();
    expect(again?.row.text_content).toBe(shards.textOfId(WANTED[3]!));
    // The listing and the footers of the first session are reused: only new footers are read.
    expect(again!.cost.requests).toBeLessThanOrEqual(12);
  });

  it('reads many documents grouping them by row group: each row group’s text once', async () => {
    const ids = [...WANTED, 'EFTA00138064', 'EFTA00138066'].filter((id) => shards.shardOfId(id));
    expect(ids.length).toBeGreaterThanOrEqual(WANTED.length);
    const from = hub.log.length;
    const progress: string[] = [];
    const result = await source().readMany(ids, (p) => progress.push(p.phase));
    for (const id of ids) expect(result.texts.get(id)).toBe(shards.textOfId(id));
    expect(result.failed.size).toBe(0);
    const reads = hub.log.slice(from).filter((e) => e.origin === 'files' && e.range);
    const keys = reads.map((e) => `${e.path}@${e.range![0]}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(realTally(hub.log.slice(from)).mediaBytes).toBe(0);
    expect(progress).toContain('reading');
  });

  it('stops a batch when asked, returning what it read, and a new session goes on from the cache', async () => {
    const cache = new MemorySourceCache();
    const stop = new AbortController();
    // One row group at a time, so that the stop comes before the other row groups are read.
    const oneAtATime = new HfSourceDocs({
      settings: settingsFrom({ endpoint: hub.endpoint }),
      fetch: fetchFn,
      cache,
      limits: { concurrency: 1 },
    });
    const first = await oneAtATime.readMany(
      WANTED,
      (p) => {
        if (p.phase === 'reading' && p.read > 0) stop.abort();
      },
      stop.signal,
    );
    expect(first.stopped).toBe(true);
    expect(first.texts.size).toBeGreaterThan(0);
    expect(first.texts.size).toBeLessThan(WANTED.length);
    for (const [id, text] of first.texts) expect(text).toBe(shards.textOfId(id));
    expect(cache.sizes().texts).toBe(first.texts.size);
    // The estimate of the rest counts the kept texts as free and asks nothing.
    const before = hub.log.length;
    const estimate = await source(cache).estimate(WANTED);
    expect(estimate).toMatchObject({ ids: WANTED.length, kept: first.texts.size });
    expect(estimate.requests).toBeGreaterThan(0);
    expect(hub.log.length).toBe(before);

    // The next session (a reload) asks the source only for the ids whose text is not kept.
    const located: string[] = [];
    const watching = Object.assign(Object.create(cache) as MemorySourceCache, {
      getLocation: (key: string) => (located.push(key.split('|').at(-1)!), cache.getLocation(key)),
    });
    const rest = await source(watching).readMany(WANTED);
    expect(rest.stopped).toBe(false);
    for (const id of WANTED) expect(rest.texts.get(id)).toBe(shards.textOfId(id));
    expect(located.sort()).toEqual(WANTED.filter((id) => !first.texts.has(id)).sort());

    // Everything kept: no request at all.
    const from = hub.log.length;
    const again = await source(cache).readMany(WANTED);
    expect(again.texts.size).toBe(WANTED.length);
    expect(again.cost.requests).toBe(0);
    expect(hub.log.length).toBe(from);
  });
});

describe('an audit-like batch on 634 sorted shards under a small rate window', () => {
  // Forty ids spread over the whole id range, so the batch probes and reads across many shards.
  const IDS = Array.from({ length: 40 }, (_, k) => `EFTA${String(1_000 + k * 11_000).padStart(8, '0')}`);
  let shards: RealScaleShards;
  let hub: RealScaleHub;
  let clock: VirtualClock;
  beforeAll(async () => {
    shards = makeRealScaleShards({ order: 'sorted', rowsPerShard: 500, include: IDS });
    clock = virtualClock();
    // 30 requests a minute on each route, the file host counted too; every answer says what is left.
    hub = await startRealScaleHub(shards, {
      latencyMs: 0,
      limits: { rateLimit: { requests: 30, windowMs: 60_000, files: true } },
      now: clock.now,
    });
  }, 120_000);
  afterAll(() => hub?.close());

  it('reads every document, paced by the announced budget, with hardly a 429', async () => {
    const docs = new HfSourceDocs({
      settings: settingsFrom({ endpoint: hub.endpoint }),
      fetch: fetchFn,
      cache: new MemorySourceCache(),
      clock,
      redirects: 'manual',
    });
    const outcome = await readBatch(docs, IDS);
    if (!outcome.ok) throw new Error(outcome.error);
    expect(outcome.missing).toEqual([]);
    expect([...outcome.failed]).toEqual([]);
    for (const id of IDS) expect(outcome.texts.get(id)).toBe(shards.textOfId(id));
    const requests = hub.log.length;
    // Many windows' worth of requests (so the gate held them), few refused.
    expect(requests).toBeGreaterThan(4 * 30);
    expect(hub.limits.refused.count).toBeLessThanOrEqual(3);
    expect(docs.rateStats.waits).toBeGreaterThan(0);
    expect(realTally(hub.log).mediaBytes).toBe(0);
  });
});

describe('an unsorted source (ids spread over every shard)', () => {
  let shards: RealScaleShards;
  let hub: RealScaleHub;
  beforeAll(async () => {
    shards = makeRealScaleShards({ order: 'unsorted', shards: 120, rowsPerShard: 500, include: WANTED });
    hub = await startRealScaleHub(shards, { latencyMs: 0 });
  }, 120_000);
  afterAll(() => hub?.close());

  it('still finds a document, reporting footers read out of all, and keeps them when cancelled', async () => {
    const settings = settingsFrom({ endpoint: hub.endpoint });
    const progress: LookupProgress[] = [];
    const doc = await new HfSourceDocs({ settings, fetch: fetchFn }).get(WANTED[0]!, (p) => progress.push(p));
    expect(doc?.row.text_content).toBe(shards.textOfId(WANTED[0]!));
    const footers = progress.filter((p) => p.phase === 'footers');
    // Footers are read (a batch of six at a time) until a row group holds the id.
    expect(footers.at(-1)).toMatchObject({ total: 120 });
    expect(footers.at(-1)!.done).toBeGreaterThan(2);
    expect(footers.at(-1)!.bytes).toBeGreaterThan(0);

    const cache = new MemorySourceCache();
    const stop = new AbortController();
    const cancelled = new HfSourceDocs({ settings, fetch: fetchFn, cache }).get(
      WANTED[1]!,
      (p) => {
        if (p.phase === 'footers' && p.done >= 30) stop.abort();
      },
      stop.signal,
    );
    await expect(cancelled).rejects.toMatchObject({ kind: 'cancelled' });
    const kept = cache.sizes().footers;
    expect(kept).toBeGreaterThanOrEqual(30);
    // Going on later reads only the footers not yet kept.
    const from = hub.log.length;
    const resumed = await new HfSourceDocs({ settings, fetch: fetchFn, cache }).get(WANTED[1]!);
    expect(resumed?.row.text_content).toBe(shards.textOfId(WANTED[1]!));
    const footerReads = hub.log.slice(from).filter((e) => e.footerBytes > 0).length;
    expect(footerReads).toBeLessThanOrEqual(2 * (120 - kept));
  });
});

describe('a Hugging Face endpoint that never answers (attack: silent server)', () => {
  it('fails within the idle limit with a clear error, and Cancel stops a lookup at once', async () => {
    const silent = await listenLocal(() => undefined);
    try {
      const settings = settingsFrom({ endpoint: silent.origin });
      const docs = new HfSourceDocs({ settings, fetch: fetchFn, limits: { idleMs: 300 } });
      const error = await docs.get('EFTA00000001').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceError);
      expect(error).toMatchObject({ kind: 'timeout' });
      expect((error as Error).message).toMatch(/sent nothing for 0\.3 s/);

      const total = new HfSourceDocs({ settings, fetch: fetchFn, limits: { idleMs: 60_000, lookupMs: 300 } });
      await expect(total.get('EFTA00000001')).rejects.toMatchObject({ kind: 'timeout' });

      const service = createSourceDocsService(async () => new MemorySourceCache(), fetchFn);
      const pending = service.lookup({ endpoint: silent.origin }, 'EFTA00000001');
      await expect.poll(async () => (service.cancel(), await Promise.race([pending, 'pending']))).not.toBe('pending');
      expect(await pending).toMatchObject({ ok: false, kind: 'cancelled' });
    } finally {
      await silent.close();
    }
  });
});

describe('a plain-http Hugging Face endpoint (attack)', () => {
  it('is refused unless it is this machine, naming the scheme and host', () => {
    expect(() => settingsFrom({ endpoint: 'http://huggingface.co' })).toThrow(
      /must use https.*http:\/\/huggingface\.co/,
    );
    expect(() => settingsFrom({ endpoint: 'http://10.0.0.5:8080' })).toThrow(/must use https/);
    expect(settingsFrom({ endpoint: 'http://127.0.0.1:8080' }).endpoint).toBe('http://127.0.0.1:8080');
    expect(settingsFrom({ endpoint: 'http://localhost:8080/' }).endpoint).toBe('http://localhost:8080');
    expect(settingsFrom({ endpoint: 'https://huggingface.co' }).endpoint).toBe('https://huggingface.co');
  });
});
