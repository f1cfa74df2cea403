import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRangeFile } from '../../../../src/core/net/range-file.ts';
import { loadRelease } from '../../../../src/core/release/load.ts';
import { ReleaseRefused } from '../../../../src/core/release/loaded.ts';
import { UrlSource } from '../../../../src/core/release/source.ts';
import { listenLocal, type LocalServer } from '../../../support/local-server.ts';
import { startPlainServer, type PlainServer } from '../../../support/plain-static-server.ts';
import { copyFolder, flipByte, projectRoot } from '../../../e2e/support.ts';

const sample = path.join(projectRoot, 'static-data/sample');
const docs = readFileSync(path.join(sample, 'docs.parquet'));
const get = (url: string, init?: RequestInit) => fetch(url, init);
const servers: Array<{ close(): Promise<void> }> = [];
let withRanges: PlainServer;
let noRanges: PlainServer;
let noHead: PlainServer;

beforeAll(async () => {
  withRanges = await startPlainServer(sample, { prefix: '/explorer/' });
  noRanges = await startPlainServer(sample, { prefix: '/explorer/', ranges: false });
  noHead = await startPlainServer(sample, { prefix: '/explorer/', head: false });
  servers.push(withRanges, noRanges, noHead);
});
afterAll(() => Promise.all(servers.map((s) => s.close())));

const bytesOf = (b: ArrayBuffer) => [...new Uint8Array(b)];
const fileRequests = (s: PlainServer) => s.log.filter((e) => e.path.endsWith('/docs.parquet'));

describe('openRangeFile', () => {
  it('reads ranges from a server that supports them, one request per range, without a note', async () => {
    const file = (await openRangeFile(`${withRanges.url}docs.parquet`, get))!;
    expect(file.byteLength).toBe(docs.byteLength);
    expect(bytesOf(await file.slice(100, 140))).toEqual([...docs.subarray(100, 140)]);
    expect(bytesOf(await file.slice(docs.byteLength - 8))).toEqual([...docs.subarray(docs.byteLength - 8)]);
    expect(file.note).toBeUndefined();
    expect(fileRequests(withRanges).map((e) => `${e.method} ${e.status}`)).toEqual(['HEAD 200', 'GET 206', 'GET 206']);
  });

  it('reads a file whole, once, from a server that answers ranges with 200, and says why', async () => {
    const file = (await openRangeFile(`${noRanges.url}docs.parquet`, get))!;
    expect(file.byteLength).toBe(docs.byteLength);
    const slices = await Promise.all([file.slice(0, 4), file.slice(500, 600), file.slice(docs.byteLength - 8)]);
    expect(slices.map(bytesOf)).toEqual([
      [...docs.subarray(0, 4)],
      [...docs.subarray(500, 600)],
      [...docs.subarray(docs.byteLength - 8)],
    ]);
    expect(file.note).toMatch(/the server ignores range requests .* read whole, once/);
    expect(fileRequests(noRanges).filter((e) => e.method === 'GET')).toHaveLength(1);
  });

  it('works without HEAD: the first byte, asked by range, gives the length', async () => {
    const file = (await openRangeFile(`${noHead.url}docs.parquet`, get))!;
    expect(file.byteLength).toBe(docs.byteLength);
    expect(bytesOf(await file.slice(10, 20))).toEqual([...docs.subarray(10, 20)]);
    expect(file.note).toBeUndefined();
  });

  it('says a missing file is missing', async () => {
    expect(await openRangeFile(`${noRanges.url}nothing.parquet`, get)).toBeUndefined();
    expect(await openRangeFile(`${noHead.url}nothing.parquet`, get)).toBeUndefined();
  });

  it('switches to the whole file when a server that claims ranges answers one with 200', async () => {
    let gets = 0;
    const liar: LocalServer = await listenLocal((req, res) => {
      res.setHeader('Accept-Ranges', 'bytes');
      res.setHeader('Content-Length', docs.byteLength);
      if (req.method === 'GET') gets++;
      res.end(req.method === 'HEAD' ? undefined : docs);
    });
    servers.push(liar);
    const file = (await openRangeFile(`${liar.origin}/docs.parquet`, get))!;
    expect(bytesOf(await file.slice(30, 40))).toEqual([...docs.subarray(30, 40)]);
    expect(bytesOf(await file.slice(50, 60))).toEqual([...docs.subarray(50, 60)]);
    expect(gets).toBe(1);
    expect(file.note).toMatch(/ignores range requests/);
  });

  it('refuses a 206 that names other bytes than the ones asked for', async () => {
    const wrong: LocalServer = await listenLocal((req, res) => {
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'Accept-Ranges': 'bytes', 'Content-Length': 100 }).end();
        return;
      }
      res.writeHead(206, { 'Content-Range': 'bytes 0-9/100', 'Content-Length': 10 }).end(Buffer.alloc(10));
    });
    servers.push(wrong);
    const file = (await openRangeFile(`${wrong.origin}/f.parquet`, get))!;
    await expect(file.slice(20, 30)).rejects.toThrow('asked for bytes 20-30, the server sent 0-10');
  });
});

describe('a release on a server that ignores ranges', () => {
  const load = (base: string) => loadRelease(new UrlSource(base), { deferParquet: true, parquetCheck: 'on-demand' });

  it('is read and checked with no "changed file" refusal, and its report names the cause', async () => {
    const release = await load(noRanges.url);
    const parquet = release.parquet.find((p) => p.kind === 'docs')!;
    // Range reads before the check (the first view), then the pin check of the whole file.
    await parquet.file.slice(0, 8);
    await parquet.file.slice(docs.byteLength - 8);
    await expect(parquet.check!()).resolves.toBeUndefined();
    const report = release.files.find((f) => f.path === 'docs.parquet')!;
    expect(report.note).toMatch(/ignores range requests/);
  });

  it('still refuses a docs.parquet whose bytes differ from its pin', async () => {
    const copy = copyFolder(sample);
    flipByte(path.join(copy, 'docs.parquet'), 1000);
    const tampered = await startPlainServer(copy, { ranges: false });
    servers.push(tampered);
    const release = await load(tampered.url);
    const parquet = release.parquet.find((p) => p.kind === 'docs')!;
    await parquet.file.slice(0, 8);
    const refused = await parquet.check!().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ReleaseRefused);
    expect((refused as Error).message).toMatch(/docs\.parquet/);
    expect((refused as Error).message).not.toMatch(/while it was read/);
  });
});
