import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemorySourceCache } from '../../../../src/core/source-docs/cache.ts';
import { SourceError } from '../../../../src/core/source-docs/http.ts';
import { HfSourceDocs } from '../../../../src/core/source-docs/lookup.ts';
import { buildLocator, locatorJson, parseLocator } from '../../../../src/core/source-docs/locator.ts';
import { settingsFrom } from '../../../../src/core/source-docs/settings.ts';
import { createSourceDocsService } from '../../../../src/core/source-docs/service.ts';
import { startMockHub, tally, type MockHub } from '../../../support/mock-hub.ts';
import { makeSourceShards, readSampleDocs, type SampleDoc, type SourceShards } from '../../../support/source-shards.ts';

let docs: SampleDoc[];
let shards: SourceShards;
let hub: MockHub;
let sortedDoc: SampleDoc;
let unsortedDoc: SampleDoc;

const fetchFn = (input: string, init?: RequestInit) => fetch(input, init);

beforeAll(async () => {
  docs = await readSampleDocs();
  // One document from a sorted shard (even index) and one from a shuffled one.
  sortedDoc = docs[1300]!;
  unsortedDoc = docs[700]!;
  shards = makeSourceShards(docs, { mediaNear: [sortedDoc.doc_id, unsortedDoc.doc_id] });
  expect(shards.shardOf.get(sortedDoc.doc_id)?.sorted).toBe(true);
  expect(shards.shardOf.get(unsortedDoc.doc_id)?.sorted).toBe(false);
  hub = await startMockHub({ files: shards.files, mediaRanges: shards.mediaRanges });
  // Writing six shards with megabytes of media takes seconds on a loaded machine.
}, 60_000);

afterAll(async () => {
  await hub?.close();
});

beforeEach(() => {
  hub.log.length = 0;
  hub.mode.ignoreRange = false;
  hub.mode.filesDown = false;
});

const settings = () => settingsFrom({ endpoint: hub.endpoint });
const source = (cache = new MemorySourceCache(), extra: Partial<ConstructorParameters<typeof HfSourceDocs>[0]> = {}) =>
  new HfSourceDocs({ settings: settings(), fetch: fetchFn, cache, ...extra });

describe('HfSourceDocs.get', () => {
  /** File-host reads outside footers, per shard. */
  const bodyReads = () => {
    const out = new Map<string, number>();
    for (const e of hub.log) {
      if (e.origin !== 'files' || !e.range) continue;
      if (e.range[0] >= shards.footerStart.get(e.path)!) continue;
      out.set(e.path, (out.get(e.path) ?? 0) + 1);
    }
    return out;
  };

  it('finds a document of a sorted shard through row-group statistics, reading no media byte', async () => {
    const docsSource = source();
    const doc = await docsSource.get(sortedDoc.doc_id);
    expect(doc?.row.text_content).toBe(sortedDoc.text);
    expect(doc?.row).toMatchObject({
      doc_id: sortedDoc.doc_id,
      file_name: sortedDoc.file_name,
      file_type: sortedDoc.file_type,
      online_url: sortedDoc.online_url,
    });
    expect(doc?.via).toBe('search');
    const shard = shards.shardOf.get(sortedDoc.doc_id)!.path;
    expect(doc?.location.shard).toBe(shard);
    expect(tally(hub.log).mediaBytes).toBe(0);
    // The listing is paginated (3 entries a page) and followed to its end.
    expect(hub.log.filter((e) => e.path.includes('/tree/')).length).toBe(Math.ceil((2 + 1 + 6) / 3));
    // Only the shard holding the id is read beyond its footer: one range holding the doc_id chunk
    // (of the one row group whose bounds include the id) and the small columns that follow it, then
    // the row's text_content (the image column sits between online_url and text_content, skipped).
    expect([...bodyReads()]).toEqual([[shard, 2]]);
    expect(doc?.cost.requests).toBe(docsSource.totals.requests);
  });

  it('finds a document of a shuffled shard by scanning only that shard’s doc_id columns', async () => {
    const doc = await source().get(unsortedDoc.doc_id);
    expect(doc?.row.text_content).toBe(unsortedDoc.text);
    const shard = shards.shardOf.get(unsortedDoc.doc_id)!.path;
    expect(doc?.location.shard).toBe(shard);
    expect(tally(hub.log).mediaBytes).toBe(0);
    // Every row group of the shuffled shard spans its whole block, so its doc_id chunks are read
    // (until the id turns up); no other shard is read beyond its footer.
    const reads = bodyReads();
    expect([...reads.keys()]).toEqual([shard]);
    expect(reads.get(shard)).toBeGreaterThan(3);
  });

  it('a second lookup reads one byte range: the row group’s text_content', async () => {
    const docsSource = source();
    const cold = await docsSource.get(sortedDoc.doc_id);
    hub.log.length = 0;
    const warm = await docsSource.get(sortedDoc.doc_id);
    expect(warm?.via).toBe('cache');
    expect(warm?.row).toEqual(cold?.row);
    expect(warm?.cost.requests).toBe(1);
    const t = tally(hub.log);
    expect(t).toMatchObject({ requests: 1, hubRequests: 0, fileRequests: 1, mediaBytes: 0 });
    expect(warm?.fileHost).toBe(new URL(hub.fileOrigin).host);
  });

  it('in a new session with the same cache, a lookup is one range read through the Hub’s redirect', async () => {
    const cache = new MemorySourceCache();
    await source(cache).get(unsortedDoc.doc_id);
    hub.log.length = 0;
    const doc = await source(cache).get(unsortedDoc.doc_id);
    expect(doc?.via).toBe('cache');
    expect(doc?.row.text_content).toBe(unsortedDoc.text);
    expect(doc?.cost.requests).toBe(1);
    expect(hub.log.map((e) => `${e.origin} ${e.status}`)).toEqual(['hub 302', 'files 206']);
  });

  it('reuses cached footers and doc_id lists for other documents', async () => {
    const cache = new MemorySourceCache();
    await source(cache).get(sortedDoc.doc_id);
    const sizes = cache.sizes();
    expect(sizes.footers).toBeGreaterThan(0);
    expect(sizes.ids).toBeGreaterThan(0);
    hub.log.length = 0;
    const neighbour = docs[docs.indexOf(sortedDoc) + 1]!;
    const doc = await source(cache).get(neighbour.doc_id);
    expect(doc?.row.text_content).toBe(neighbour.text);
    // No listing, no footer, no doc_id read: only the row's columns.
    expect(hub.log.filter((e) => e.path.includes('/tree/'))).toEqual([]);
    expect(hub.log.filter((e) => e.origin === 'files').length).toBeLessThanOrEqual(2);
  });

  it('says undefined for an id the source does not have, without reading media', async () => {
    const doc = await source().get('SMPL99999999');
    expect(doc).toBeUndefined();
    expect(tally(hub.log).mediaBytes).toBe(0);
  });

  it('follows an expired signed URL back through the Hub', async () => {
    const docsSource = source();
    await docsSource.get(sortedDoc.doc_id);
    hub.expireSignedUrls();
    hub.log.length = 0;
    const doc = await docsSource.get(sortedDoc.doc_id);
    expect(doc?.row.text_content).toBe(sortedDoc.text);
    expect(hub.log.map((e) => `${e.origin} ${e.status}`)).toEqual(['files 403', 'hub 302', 'files 206']);
  });

  it('refuses a file host that ignores the byte range', async () => {
    hub.mode.ignoreRange = true;
    const error = await source()
      .get(sortedDoc.doc_id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).kind).toBe('range');
    expect((error as Error).message).toMatch(/ignored the byte range/);
  });

  it('names the host when it cannot be reached', async () => {
    const offline = new HfSourceDocs({
      settings: settingsFrom({ endpoint: 'http://127.0.0.1:9' }),
      fetch: fetchFn,
    });
    const error = await offline.get(sortedDoc.doc_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).kind).toBe('network');
    expect((error as Error).message).toMatch(/could not reach 127\.0\.0\.1:9/);
  });

  it('says which dataset and revision were not found', async () => {
    const wrong = new HfSourceDocs({
      settings: settingsFrom({ endpoint: hub.endpoint, revision: 'no-such-branch' }),
      fetch: fetchFn,
    });
    await expect(wrong.get(sortedDoc.doc_id)).rejects.toThrow(
      /aurora2424\/Epstein-Files at revision no-such-branch was not found/,
    );
  });

  it('cuts text past the limit and says so', async () => {
    const long = docs.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    const doc = await source(new MemorySourceCache(), { limits: { maxTextChars: 100 } }).get(long.doc_id);
    expect(doc?.truncated).toBe(true);
    expect(doc?.row.text_content).toBe(long.text.slice(0, 100));
  });

  it('refuses a footer over the limit before reading it', async () => {
    const small = source(new MemorySourceCache(), { limits: { maxFooterBytes: 100 } });
    await expect(small.get(sortedDoc.doc_id)).rejects.toThrow(/footer of [\d,]+ bytes is over the 100-byte limit/);
  });
});

describe('locator', () => {
  it('locates many ids at once; a lookup through the locator needs no listing and no doc_id scan', async () => {
    const wanted = [sortedDoc.doc_id, unsortedDoc.doc_id, docs[5]!.doc_id, 'SMPL99999999'];
    const located = await source().locate(wanted);
    expect([...located.found.keys()].sort()).toEqual(wanted.slice(0, 3).sort());
    expect(located.missing).toEqual(['SMPL99999999']);
    const locator = parseLocator(
      locatorJson(buildLocator('aurora2424/Epstein-Files', 'main', located.found, located.missing)),
      'loc.json',
    );
    expect(locator.shards.length).toBeLessThanOrEqual(3);
    hub.log.length = 0;
    const withLocator = source(new MemorySourceCache(), { locator });
    expect(withLocator.usesLocator).toBe(true);
    const doc = await withLocator.get(unsortedDoc.doc_id);
    expect(doc?.via).toBe('locator');
    expect(doc?.row.text_content).toBe(unsortedDoc.text);
    expect(hub.log.filter((e) => e.path.includes('/tree/'))).toEqual([]);
    expect(new Set(hub.log.filter((e) => e.origin === 'files').map((e) => e.path))).toEqual(
      new Set([doc?.location.shard]),
    );
    expect(tally(hub.log).mediaBytes).toBe(0);
  });

  it('falls back to a search when a locator entry points at another row', async () => {
    const located = await source().locate([sortedDoc.doc_id]);
    const entry = located.found.get(sortedDoc.doc_id)!;
    const stale = buildLocator(
      'aurora2424/Epstein-Files',
      'main',
      new Map([[sortedDoc.doc_id, { ...entry, row: entry.row === 0 ? 1 : 0 }]]),
      [],
    );
    const doc = await source(new MemorySourceCache(), { locator: stale }).get(sortedDoc.doc_id);
    expect(doc?.via).toBe('search');
    expect(doc?.row.text_content).toBe(sortedDoc.text);
  });

  it('ignores a locator made for another revision', () => {
    const other = buildLocator('aurora2424/Epstein-Files', 'v2', new Map(), []);
    expect(source(new MemorySourceCache(), { locator: other }).usesLocator).toBe(false);
  });
});

describe('the source worker’s service', () => {
  it('answers with plain outcomes: the document, a missing id, bad settings, an unreachable host', async () => {
    const service = createSourceDocsService(async () => new MemorySourceCache(), fetchFn);
    const found = await service.lookup({ endpoint: hub.endpoint }, sortedDoc.doc_id);
    expect(found.ok && found.doc.row.text_content).toBe(sortedDoc.text);
    expect(await service.lookup({ endpoint: hub.endpoint }, 'SMPL99999999')).toMatchObject({
      ok: false,
      kind: 'missing',
      error: expect.stringContaining('SMPL99999999 is not in aurora2424/Epstein-Files at revision main'),
    });
    expect(await service.lookup({ endpoint: 'javascript:alert(1)' }, sortedDoc.doc_id)).toMatchObject({
      ok: false,
      kind: 'settings',
    });
    expect(await service.lookup({ endpoint: 'http://127.0.0.1:9' }, sortedDoc.doc_id)).toMatchObject({
      ok: false,
      kind: 'network',
    });
  });

  it('uses the locator it is given, and works in memory when storage is refused', async () => {
    const located = await source().locate([unsortedDoc.doc_id]);
    const service = createSourceDocsService(() => Promise.reject(new Error('storage refused')), fetchFn);
    service.setLocator(buildLocator('aurora2424/Epstein-Files', 'main', located.found, []));
    const outcome = await service.lookup({ endpoint: hub.endpoint }, unsortedDoc.doc_id);
    expect(outcome).toMatchObject({ ok: true, usedLocator: true, doc: { via: 'locator' } });
    const again = await service.lookup({ endpoint: hub.endpoint }, unsortedDoc.doc_id);
    expect(again).toMatchObject({ ok: true, doc: { via: 'cache', cost: { requests: 1 } } });
  });
});
