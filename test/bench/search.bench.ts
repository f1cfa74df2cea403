/**
 * Browser bench of the search worker at full scale: `npx tsx test/bench/search.bench.ts
 * [--dir .bench/retrieval] [--model-release static-data/sample] [--queries 300]`.
 *
 * Needs the index files of the Node bench (`npx tsx src/cli/main.ts bench retrieval --out
 * .bench/retrieval`). They are served, as a minimal release (release.json naming them), by a
 * plain static server on another origin (test/e2e/support.ts); a Vite dev server serves
 * test/bench/search-bench.html, which starts the app's real search worker and hands it to
 * this script. Timings are taken inside the page, so they include the comlink round trip to
 * the worker but not Playwright's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { chromiumLaunchOptions } from '../e2e/find-browser.ts';
import { startStaticServer } from '../e2e/support.ts';

const root = path.resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const benchDir = path.resolve(root, flag('dir', '.bench/retrieval'));
const modelRelease = path.resolve(root, flag('model-release', 'static-data/sample'));
const nQueries = Number(flag('queries', '300'));

for (const f of ['bm25.bin', 'dense.bin', 'queries.json', 'query-vectors.f32', 'results.json']) {
  if (!existsSync(path.join(benchDir, f))) {
    console.error(
      `${benchDir}/${f} is missing: run \`npx tsx src/cli/main.ts bench retrieval --out ${path.relative(root, benchDir)}\` first`,
    );
    process.exit(2);
  }
}
const results = JSON.parse(readFileSync(path.join(benchDir, 'results.json'), 'utf8')) as {
  dense: { model: string; dim: number };
};
const { queries } = JSON.parse(readFileSync(path.join(benchDir, 'queries.json'), 'utf8')) as { queries: string[] };
const vecBytes = readFileSync(path.join(benchDir, 'query-vectors.f32'));
const dim = results.dense.dim;
const vectors = new Float32Array(vecBytes.buffer.slice(vecBytes.byteOffset, vecBytes.byteOffset + vecBytes.byteLength));
const nVec = vectors.length / dim;

// A minimal release around the bench files (the vectors are synthetic: queries come with vectors).
const site = mkdtempSync(path.join(tmpdir(), 'search-bench-'));
mkdirSync(path.join(site, 'full'));
writeFileSync(path.join(site, 'full/questions.jsonl'), '');
for (const f of ['bm25.bin', 'dense.bin']) symlinkSync(path.join(benchDir, f), path.join(site, f));
writeFileSync(
  path.join(site, 'model.json'),
  JSON.stringify({
    version: 1,
    kind: 'openai-embeddings',
    model: results.dense.model,
    dim,
    pooling: 'mean',
    normalize: true,
    max_chars: 8000,
  }),
);
writeFileSync(
  path.join(site, 'release.json'),
  JSON.stringify({
    id: 'bench',
    title: 'synthetic full-scale bench',
    dataset_version: 'bench',
    splits: { full: { questions: 'full/questions.jsonl' } },
    files: {},
    indexes: { bm25: 'bm25.bin', dense: 'dense.bin', model: 'model.json' },
  }),
);

const files = await startStaticServer(site);
const modelFiles = existsSync(path.join(modelRelease, 'release.json'))
  ? await startStaticServer(modelRelease)
  : undefined;
const vite = await createServer({
  root,
  configFile: path.join(root, 'vite.config.ts'),
  server: { port: 0, strictPort: false },
  logLevel: 'error',
});
await vite.listen();
const address = vite.httpServer!.address() as { port: number };
const browser = await chromium.launch(chromiumLaunchOptions());

function chromiumRssMiB(): number {
  try {
    const out = execFileSync('ps', ['-eo', 'rss,args'], { encoding: 'utf8' });
    return (
      out
        .split('\n')
        .filter((l) => /chrom/i.test(l) && /--type=renderer/.test(l))
        .reduce((s, l) => s + Number(l.trim().split(/\s+/)[0]), 0) / 1024
    );
  } catch {
    return NaN;
  }
}

try {
  const page = await browser.newPage();
  // tsx (esbuild keepNames) wraps named functions in __name(); the evaluated code needs it too.
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  const cdp = await page.context().newCDPSession(page);
  await page.goto(`http://localhost:${address.port}/test/bench/search-bench.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  const rssBefore = chromiumRssMiB();
  const q = queries.slice(0, nQueries);
  const v = Array.from({ length: Math.min(nQueries, nVec) }, (_, i) =>
    Array.from(vectors.subarray(i * dim, (i + 1) * dim)),
  );
  const m = await page.evaluate(
    async ({ base, q, v }) => {
      type Api = {
        open(spec: unknown): Promise<unknown>;
        load(method: string): Promise<void>;
        rank(method: string, query: string, k: number, vector?: Float32Array): Promise<unknown[]>;
      };
      const { api } = (window as unknown as { searchBench: { api: Api } }).searchBench;
      const pct = (xs: number[], p: number) => {
        const s = [...xs].sort((a, b) => a - b);
        return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
      };
      const t0 = performance.now();
      await api.open({ kind: 'url', base });
      await api.load('bm25');
      await api.rank('bm25', q[0]!, 20);
      const firstQuery = performance.now() - t0;
      const t1 = performance.now();
      await api.load('dense');
      const denseLoad = performance.now() - t1;
      const time = async (fn: (i: number) => Promise<unknown>, n: number) => {
        for (let i = 0; i < Math.min(20, n); i++) await fn(i);
        const xs: number[] = [];
        for (let i = 0; i < n; i++) {
          const s = performance.now();
          await fn(i);
          xs.push(performance.now() - s);
        }
        return { p50: pct(xs, 0.5), p95: pct(xs, 0.95), n };
      };
      const vec = v.map((x) => Float32Array.from(x));
      const bm25 = await time((i) => api.rank('bm25', q[i % q.length]!, 20), q.length);
      const dense = await time((i) => api.rank('dense', '', 20, vec[i % vec.length]), vec.length);
      const hybrid = await time((i) => api.rank('hybrid', q[i % q.length]!, 20, vec[i % vec.length]), vec.length);
      const empty = await time(() => api.rank('bm25', 'zzzzqqqq', 1), 200);
      return { firstQuery, denseLoad, bm25, dense, hybrid, roundTrip: empty };
    },
    { base: files.url, q, v },
  );
  const metrics = await cdp
    .send('Performance.getMetrics')
    .catch(() => ({ metrics: [] as Array<{ name: string; value: number }> }));
  const heap = metrics.metrics.find((x) => x.name === 'JSHeapUsedSize')?.value;
  const rssAfter = chromiumRssMiB();

  let embed: { cold: number; p50: number; p95: number; n: number; label: string } | string =
    'no model in the model release';
  if (modelFiles && JSON.parse(readFileSync(path.join(modelRelease, 'release.json'), 'utf8')).indexes?.model) {
    const questions = readFileSync(path.join(modelRelease, 'full/questions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { question: string }).question);
    embed = await page
      .evaluate(
        async ({ base, questions }) => {
          type Api = {
            open(spec: unknown): Promise<unknown>;
            queryVector(q: string): Promise<Float32Array>;
            useEncoder(c: unknown): Promise<string>;
          };
          const { api } = (window as unknown as { searchBench: { api: Api } }).searchBench;
          await api.open({ kind: 'url', base });
          const t0 = performance.now();
          await api.queryVector(questions[0]!);
          const cold = performance.now() - t0;
          const label = await api.useEncoder({ kind: 'release' });
          const xs: number[] = [];
          for (const q of questions.slice(1, 61)) {
            const s = performance.now();
            await api.queryVector(q);
            xs.push(performance.now() - s);
          }
          xs.sort((a, b) => a - b);
          return {
            cold,
            p50: xs[Math.floor(xs.length / 2)]!,
            p95: xs[Math.ceil(0.95 * xs.length) - 1]!,
            n: xs.length,
            label,
          };
        },
        { base: modelFiles.url, questions },
      )
      .catch((e: unknown) => `failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }

  const f = (x: number) => x.toFixed(2).padStart(9);
  const rows: Array<[string, string, string]> = [
    ['time to first BM25 query (open + fetch + decode + rank)', `${f(m.firstQuery)} ms`, 'goal < 3,000 ms'],
    ['dense vectors load (fetch + check)', `${f(m.denseLoad)} ms`, ''],
    [`BM25 top-20 p50 / p95 (n ${m.bm25.n})`, `${f(m.bm25.p50)} / ${f(m.bm25.p95)} ms`, 'goal p95 < 10 ms'],
    [
      `dense top-20 given the vector p50 / p95 (n ${m.dense.n})`,
      `${f(m.dense.p50)} / ${f(m.dense.p95)} ms`,
      'goal p95 < 10 ms',
    ],
    [`hybrid top-20 p50 / p95 (n ${m.hybrid.n})`, `${f(m.hybrid.p50)} / ${f(m.hybrid.p95)} ms`, 'goal p95 < 15 ms'],
    [
      'comlink round trip (empty query) p50 / p95',
      `${f(m.roundTrip.p50)} / ${f(m.roundTrip.p95)} ms`,
      'included above',
    ],
    [
      'renderer processes RSS before / after loading',
      `${rssBefore.toFixed(0)} / ${rssAfter.toFixed(0)} MiB`,
      'ps, includes the worker',
    ],
    ['page JS heap used (CDP, main thread only)', heap ? `${(heap / 2 ** 20).toFixed(1)} MiB` : 'n/a', ''],
    [
      'query embedding (sample model) cold / p50 / p95',
      typeof embed === 'string'
        ? embed
        : `${embed.cold.toFixed(0)} / ${embed.p50.toFixed(1)} / ${embed.p95.toFixed(1)} ms (n ${embed.n})`,
      typeof embed === 'string' ? '' : embed.label,
    ],
  ];
  console.log(`\nsearch worker bench in Chromium ${browser.version()}, files from ${path.relative(root, benchDir)}`);
  for (const [a, b, c] of rows) console.log(`${a.padEnd(58)} ${b.padEnd(26)} ${c}`);
} finally {
  await browser.close();
  await vite.close();
  await files.close();
  await modelFiles?.close();
  rmSync(site, { recursive: true, force: true });
}
