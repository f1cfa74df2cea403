/**
 * What `npm start` sends: the build's precompressed copies with Content-Encoding (never for a
 * range), validators and 304s, a year of caching for hashed assets and revalidation for the
 * rest, the uncompressed length on HEAD for range-read files, and index pages of folders.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_POLICY, workerPolicy } from '../../../src/cli/security-headers.ts';
import { siteBase, startSiteServer, type SiteServer } from '../../../src/cli/site-server.ts';
import type { ServedEntry } from '../../../src/cli/static-files.ts';
import { precacheList } from '../../../src/cli/vite-delivery.ts';

let site: SiteServer;
let root: string;
const served: ServedEntry[] = [];
const script = 'export const x = 1;\n'.repeat(200);
const parquet = Buffer.alloc(5000, 7);

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'ebx-site-'));
  mkdirSync(path.join(root, 'assets'));
  mkdirSync(path.join(root, 'embed'));
  mkdirSync(path.join(root, 'static-data'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(path.join(root, 'embed/index.html'), '<!doctype html><title>embed</title>');
  writeFileSync(path.join(root, 'assets/main-abc123.js'), script);
  writeFileSync(path.join(root, 'assets/main-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(root, 'assets/main-abc123.js.gz'), gzipSync(script));
  writeFileSync(path.join(root, 'static-data/docs.parquet'), parquet);
  writeFileSync(path.join(root, 'assets/data.worker-abc123.js'), script);
  writeFileSync(path.join(root, 'assets/data.worker-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(root, 'sw.js'), script);
  site = await startSiteServer({ root, onServed: (e) => served.push(e) });
});
afterAll(async () => {
  await site.close();
});

/** Raw HTTP (fetch would decode bodies and hide Content-Encoding). */
function get(
  urlPath: string,
  headers: Record<string, string> = {},
  method = 'GET',
  from: SiteServer = site,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(urlPath, from.url), { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('npm start', () => {
  it('sends the brotli copy to a browser that accepts it, gzip otherwise, the file itself to others', async () => {
    const br = await get('/assets/main-abc123.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
    expect(br.body.byteLength).toBeLessThan(script.length / 10);

    const gz = await get('/assets/main-abc123.js', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await get('/assets/main-abc123.js', { 'Accept-Encoding': 'br;q=0, identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('keeps hashed assets a year and revalidates everything else', async () => {
    expect((await get('/assets/main-abc123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const p of ['/', '/embed/', '/static-data/docs.parquet']) {
      expect((await get(p)).headers['cache-control'], p).toBe('no-cache');
    }
  });

  it('answers a revalidation with 304 and no body', async () => {
    const first = await get('/index.html');
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await get('/index.html', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
  });

  it('serves ranges from the plain file, and HEAD with its plain length', async () => {
    const head = await get('/static-data/docs.parquet', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.headers['content-length']).toBe(String(parquet.byteLength));
    expect(head.headers['content-encoding']).toBeUndefined();
    const range = await get('/assets/main-abc123.js', { 'Accept-Encoding': 'br', Range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.headers['content-range']).toBe(`bytes 0-9/${script.length}`);
    expect(range.body.toString()).toBe(script.slice(0, 10));
    const tail = await get('/static-data/docs.parquet', { Range: 'bytes=-100' });
    expect(tail.body.byteLength).toBe(100);
  });

  it('sends the Content-Security-Policy by the path asked for, to a precompressed copy too', async () => {
    for (const p of ['/', '/index.html', '/static-data/docs.parquet']) {
      const page = await get(p, { 'Accept-Encoding': 'br' });
      expect(page.headers['content-security-policy'], p).toBe(`${PAGE_POLICY}; frame-ancestors 'none'`);
      expect(page.headers['x-frame-options'], p).toBe('DENY');
    }
    const embed = await get('/embed/');
    expect(embed.headers['content-security-policy']).toBe(PAGE_POLICY);
    expect(embed.headers['x-frame-options']).toBeUndefined();
    // A worker runs under the policy sent with its script, whichever encoding carries it.
    const worker = await get('/assets/data.worker-abc123.js', { 'Accept-Encoding': 'br' });
    expect(worker.headers['content-encoding']).toBe('br');
    expect(worker.headers['content-security-policy']).toBe(workerPolicy('/assets/data.worker-abc123.js'));
    expect(worker.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-eval'");
    const sw = await get('/sw.js');
    expect(sw.headers['content-security-policy']).toBe(workerPolicy('/sw.js'));
    expect(sw.headers['content-security-policy']).toContain("script-src 'self';");
  });

  it('serves folder index pages, refuses other methods and paths outside the site', async () => {
    expect((await get('/embed/')).body.toString()).toContain('<title>embed</title>');
    expect((await get('/index.html', {}, 'POST')).status).toBe(405);
    expect((await get('/..%2f..%2fetc/passwd')).status).toBe(403);
    expect((await get('/missing.js')).status).toBe(404);
  });

  it('answers odd request targets and goes on serving (`//` once ended the server)', async () => {
    const { port } = new URL(site.url);
    const raw = (target: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: 'localhost', port, path: target }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await raw('//')).toBe(403);
    expect(await raw('http://[bad')).toBe(400);
    expect(await raw('/')).toBe(200);
  });

  it('tells a listener what went over the wire (the delivery bench counts bytes with it)', async () => {
    served.splice(0);
    const br = await get('/assets/main-abc123.js', { 'Accept-Encoding': 'br' });
    expect(served).toEqual([
      expect.objectContaining({
        url: '/assets/main-abc123.js',
        status: 200,
        encoding: 'br',
        bytes: br.body.byteLength,
      }),
    ]);
  });
});

describe('npm start under a subpath (BASE_PATH=/explorer/, as a project site sits)', () => {
  let under: SiteServer;
  beforeAll(async () => {
    under = await startSiteServer({ root, base: 'explorer' });
  });
  afterAll(async () => {
    await under.close();
  });
  const at = (p: string, headers: Record<string, string> = {}) => get(p, headers, 'GET', under);

  it('sends the same security headers, chosen by the path below the base', async () => {
    expect(under.url).toMatch(/\/explorer\/$/);
    for (const p of ['/explorer/', '/explorer/index.html', '/explorer/static-data/docs.parquet']) {
      const page = await at(p, { 'Accept-Encoding': 'br' });
      expect(page.status, p).toBe(200);
      expect(page.headers['content-security-policy'], p).toBe(`${PAGE_POLICY}; frame-ancestors 'none'`);
      expect(page.headers['x-frame-options'], p).toBe('DENY');
      expect(page.headers['x-content-type-options'], p).toBe('nosniff');
    }
    // The embed page may still be framed by any site, under the base as at the root.
    const embed = await at('/explorer/embed/');
    expect(embed.body.toString()).toContain('<title>embed</title>');
    expect(embed.headers['content-security-policy']).toBe(PAGE_POLICY);
    expect(embed.headers['x-frame-options']).toBeUndefined();
    const worker = await at('/explorer/assets/data.worker-abc123.js', { 'Accept-Encoding': 'br' });
    expect(worker.headers['content-encoding']).toBe('br');
    expect(worker.headers['content-security-policy']).toBe(workerPolicy('/assets/data.worker-abc123.js'));
    expect(worker.headers['content-security-policy']).toContain("script-src 'self' 'unsafe-eval'");
    expect((await at('/explorer/sw.js')).headers['content-security-policy']).toBe(workerPolicy('/sw.js'));
    expect((await at('/explorer/assets/main-abc123.js')).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
  });

  it('sends the base without its slash to the base, and serves nothing outside it', async () => {
    const bare = await at('/explorer?release=sample');
    expect(bare.status).toBe(301);
    expect(bare.headers['location']).toBe('/explorer/?release=sample');
    for (const p of ['/', '/index.html', '/embed/', '/explorerx/index.html']) expect((await at(p)).status, p).toBe(404);
    expect((await at('/explorer/..%2f..%2fetc/passwd')).status).toBe(403);
  });

  it('takes the base with or without its slashes, and refuses one that leaves the path', () => {
    expect(siteBase()).toBe('/');
    expect(siteBase('/')).toBe('/');
    expect(siteBase('explorer')).toBe('/explorer/');
    expect(siteBase('/a/b')).toBe('/a/b/');
    expect(() => siteBase('/a/../b/')).toThrow('not a URL path');
    expect(() => siteBase('/a?x/')).toThrow('not a URL path');
  });
});

describe('the service worker precache', () => {
  it('keeps the app and DuckDB, not static-data, onnxruntime, transformers.js or the MVP DuckDB bundle', () => {
    const list = precacheList([
      'index.html',
      'embed/index.html',
      'embed.js',
      'sw.js',
      'assets/main-1.js',
      'assets/main-1.js.br',
      'assets/duckdb-eh-1.wasm',
      'assets/duckdb-mvp-1.wasm',
      'assets/duckdb-browser-mvp.worker-1.js',
      'assets/ort-wasm-simd-threaded.asyncify-1.wasm',
      'assets/transformers-embedder-1.js',
      'static-data/releases.json',
      'static-data/sample/full/tasks.jsonl',
    ]);
    expect(list).toEqual([
      'assets/duckdb-eh-1.wasm',
      'assets/main-1.js',
      'embed.js',
      'embed/index.html',
      'index.html',
      'static-data/releases.json',
    ]);
  });
});
