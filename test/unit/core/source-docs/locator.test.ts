import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FsSourceCache } from '../../../../src/adapters/node/source-cache-fs.ts';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import { loadRelease } from '../../../../src/core/release/load.ts';
import { MemorySource } from '../../../../src/core/release/source.ts';
import { nextLink, isShardPath, resolveUrl, treeUrl } from '../../../../src/core/source-docs/hub.ts';
import {
  buildLocator,
  locatorEntry,
  locatorJson,
  LocatorError,
  parseLocator,
} from '../../../../src/core/source-docs/locator.ts';
import { referencedDocIds } from '../../../../src/core/source-docs/referenced.ts';
import { safeLinkUrl } from '../../../../src/core/source-docs/safe-link.ts';
import { SettingsError, settingsFrom } from '../../../../src/core/source-docs/settings.ts';
import type { CachedLocation } from '../../../../src/core/source-docs/cache.ts';
import { hasShared, projectRoot, sharedNote, v10Dir } from '../../../support/shared.ts';

const root = projectRoot;
const v10 = v10Dir;
const shard = (i: number) => ({ path: `data/train-0000${i}.parquet`, size: 1000 + i, oid: `oid${i}` });

describe('settings', () => {
  it('defaults to huggingface.co, the benchmark’s source dataset and main', () => {
    expect(settingsFrom({})).toEqual({
      endpoint: 'https://huggingface.co',
      dataset: 'aurora2424/Epstein-Files',
      revision: 'main',
    });
    expect(settingsFrom({ endpoint: 'http://127.0.0.1:8080/hub/' }).endpoint).toBe('http://127.0.0.1:8080/hub');
  });

  it('refuses endpoints, datasets and revisions that are not what they claim', () => {
    for (const endpoint of [
      'ftp://example.org',
      'javascript:alert(1)',
      'https://user:pw@example.org',
      'https://h/?q=1',
      'nope',
    ])
      expect(() => settingsFrom({ endpoint }), endpoint).toThrow(SettingsError);
    for (const dataset of ['one-part', 'a/b/c', '../x', 'a/..', 'a b/c'])
      expect(() => settingsFrom({ dataset }), dataset).toThrow(SettingsError);
    for (const revision of ['a..b', '/abs', 'has space', 'x'.repeat(201)])
      expect(() => settingsFrom({ revision }), revision).toThrow(SettingsError);
  });

  it('builds the Hub’s URLs with the revision and path segments encoded', () => {
    const s = settingsFrom({ revision: 'refs/convert/parquet' });
    expect(treeUrl(s)).toBe(
      'https://huggingface.co/api/datasets/aurora2424/Epstein-Files/tree/refs%2Fconvert%2Fparquet?recursive=true&expand=false',
    );
    expect(resolveUrl(s, 'data/a b#1.parquet')).toBe(
      'https://huggingface.co/datasets/aurora2424/Epstein-Files/resolve/refs%2Fconvert%2Fparquet/data/a%20b%231.parquet',
    );
  });

  it('follows a next link only on the endpoint’s own origin, and only safe shard paths', () => {
    const e = 'https://huggingface.co';
    expect(nextLink('<https://huggingface.co/api/x?cursor=abc>; rel="next"', e)).toBe(
      'https://huggingface.co/api/x?cursor=abc',
    );
    expect(nextLink('<https://huggingface.co/api/x?cursor=0>; rel="prev"', e)).toBeUndefined();
    expect(() => nextLink('<https://evil.example/x>; rel="next"', e)).toThrow(/another host/);
    expect(isShardPath('data/train-00000-of-00634.parquet')).toBe(true);
    for (const p of ['../x.parquet', '/abs.parquet', 'a//b.parquet', 'README.md', 'a/./b.parquet', 'a\\b.parquet'])
      expect(isShardPath(p), p).toBe(false);
  });
});

describe('locator file', () => {
  const found = new Map([
    ['EFTA00000002', { shard: shard(1), rowGroup: 3, row: 7 }],
    ['EFTA00000001', { shard: shard(0), rowGroup: 0, row: 0 }],
    ['EFTA00000003', { shard: shard(1), rowGroup: 0, row: 2 }],
  ]);

  it('round-trips, lists only the shards in use, and is byte-stable', () => {
    const loc = buildLocator('aurora2424/Epstein-Files', 'main', found, ['EFTA00000009']);
    expect(loc.shards.map((s) => s.path)).toEqual([shard(0).path, shard(1).path]);
    const text = locatorJson(loc);
    expect(locatorJson(parseLocator(text, 'l.json'))).toBe(text);
    expect(text).toContain('\n  "EFTA00000002": [1,3,7],\n');
    expect(locatorEntry(parseLocator(text, 'l.json'), 'EFTA00000002')).toEqual({
      shard: shard(1),
      rowGroup: 3,
      row: 7,
    });
    expect(locatorEntry(loc, 'EFTA00000009')).toBeUndefined();
    expect(locatorEntry(loc, 'constructor')).toBeUndefined();
  });

  it('refuses damaged files with the file, field and what was expected', () => {
    const good = JSON.parse(locatorJson(buildLocator('a/b', 'main', found, []))) as Record<string, unknown>;
    const cases: Array<[unknown, RegExp]> = [
      [{ ...good, format: 'something-else' }, /l\.json, field "format": expected "epstein-bench-source-locator"/],
      [{ ...good, docs: { EFTA00000001: [5, 0, 0] } }, /shard index 5 but the file lists 2 shards/],
      [{ ...good, docs: { 'bad id!': [0, 0, 0] } }, /a doc id/],
      [{ ...good, shards: [{ path: '../etc/passwd.parquet', size: 100, oid: '' }] }, /relative repository path/],
      [{ ...good, docs: { EFTA00000001: [0, -1, 0] } }, /an integer >= 0/],
    ];
    for (const [value, message] of cases) {
      expect(() => parseLocator(JSON.stringify(value), 'l.json')).toThrow(LocatorError);
      expect(() => parseLocator(JSON.stringify(value), 'l.json')).toThrow(message);
    }
    expect(() => parseLocator('{', 'l.json')).toThrow(/l\.json/);
  });

  it('ships with a release: release.json names it as files.source_locator and the loader checks it', async () => {
    const loc = locatorJson(buildLocator('aurora2424/Epstein-Files', 'main', found, []));
    const enc = (s: string) => new TextEncoder().encode(s);
    const q = '{"task_id": "371ea2e0-1e09-4239-89a1-2586a3faa47c", "type": "unanswerable", "question": "Q?"}\n';
    const descriptor = {
      id: 'r',
      title: 'R',
      dataset_version: 'v1.0',
      splits: { dev: { questions: 'dev/questions.jsonl' } },
      files: { source_locator: 'source-locator.json' },
    };
    const files = new Map([
      ['release.json', enc(JSON.stringify(descriptor))],
      ['dev/questions.jsonl', enc(q)],
      ['source-locator.json', enc(loc)],
    ]);
    const release = await loadRelease(new MemorySource('mem', files));
    expect(release.sourceLocator?.docs.EFTA00000002).toEqual([1, 3, 7]);
    expect(release.files.find((f) => f.kind === 'source_locator')).toMatchObject({ status: 'loaded', rows: 3 });

    files.set('source-locator.json', enc('{"format": "nope"}'));
    const broken = await loadRelease(new MemorySource('mem', files));
    expect(broken.sourceLocator).toBeUndefined();
    const report = broken.files.find((f) => f.kind === 'source_locator');
    expect(report?.status).toBe('invalid');
    expect(report?.issues[0]?.message).toMatch(/source-locator\.json, field "format"/);
  });
});

describe('referenced doc ids', () => {
  it('collects gold, item, source, candidate, pool and prediction ids of the sample release', async () => {
    const release = await loadRelease(new FolderSource(path.join(root, 'static-data/sample')), { deferParquet: false });
    const ids = referencedDocIds(release);
    const task = release.splits.full!.tasks!.find((t) => t.gold_docs.length > 0)!;
    for (const d of task.gold_docs) expect(ids.byKind.gold.has(d)).toBe(true);
    expect(ids.byKind.citations.size).toBeGreaterThan(0);
    expect(ids.byKind.pool.size).toBeGreaterThan(0);
    expect(ids.all).toEqual([...new Set(ids.all)].sort());
    const inCorpus = new Set(release.docs!.map((d) => d.doc_id));
    expect(ids.all.every((id) => inCorpus.has(id))).toBe(true);
  });

  it.skipIf(!hasShared)(`counts v1.0’s ids by kind (${sharedNote})`, async () => {
    const ids = referencedDocIds(await loadRelease(new FolderSource(v10)));
    expect(ids.all.length).toBe(21_836);
    expect(ids.byKind.gold.size).toBe(5_054);
    expect(ids.byKind.absence.size).toBe(153);
    // The first full task's item doc is not in its gold set (docs/benchmark-spec.md 1.4) but is referenced.
    expect(ids.byKind.items.has('EFTA00138265')).toBe(true);
    expect(ids.all).toContain('EFTA00138265');
  });
});

describe('folder cache', () => {
  it('keeps entries across instances and ignores damaged ones', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-source-cache-'));
    const a = new FsSourceCache(dir);
    const location: CachedLocation = {
      shard: shard(0),
      rowGroup: 1,
      row: 2,
      file_name: 'x.pdf',
      file_type: 'pdf',
      online_url: null,
      fetchedAt: 5,
    };
    await a.putLocation('k', location);
    await a.putFooter('f', new Uint8Array([1, 2, 3]));
    await a.putRowGroupIds('i', ['A', 'B']);
    await a.putListing('l', { shards: [shard(0)], fetchedAt: 1 });
    const b = new FsSourceCache(dir);
    expect(await b.getLocation('k')).toEqual(location);
    expect([...(await b.getFooter('f'))!]).toEqual([1, 2, 3]);
    expect(await b.getRowGroupIds('i')).toEqual(['A', 'B']);
    expect((await b.getListing('l'))?.shards).toEqual([shard(0)]);
    expect(await b.getLocation('other')).toBeUndefined();
    // A truncated footer file and a location of the wrong shape are not used.
    const footerDir = path.join(dir, 'footer');
    const bin = readdirSync(footerDir).find((f) => f.endsWith('.bin'))!;
    writeFileSync(path.join(footerDir, bin), new Uint8Array([1, 2]));
    expect(await b.getFooter('f')).toBeUndefined();
    const locDir = path.join(dir, 'location');
    const json = readdirSync(locDir)[0]!;
    writeFileSync(path.join(locDir, json), JSON.stringify({ key: 'k', value: { ...location, row: 'two' } }));
    expect(await b.getLocation('k')).toBeUndefined();
    await b.clear();
    expect(existsSync(dir) && statSync(dir).isDirectory()).toBe(false);
  });
});

describe('source PDF links', () => {
  it('links only absolute http(s) URLs', () => {
    expect(safeLinkUrl('https://www.justice.gov/epstein/files/DataSet 1/EFTA00000001.pdf')).toBe(
      'https://www.justice.gov/epstein/files/DataSet%201/EFTA00000001.pdf',
    );
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      '/relative.pdf',
      'https://u:p@h/x',
      '',
      null,
      'x'.repeat(3000),
    ])
      expect(safeLinkUrl(bad), String(bad).slice(0, 20)).toBeUndefined();
  });
});
