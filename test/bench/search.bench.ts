/**
 * Browser bench of the search worker at full scale: `npx tsx test/bench/search.bench.ts
 * [--dir .bench/retrieval] [--model-release static-data/sample] [--queries 1000] [--naive-queries 30]
 * [--isolated]`.
 *
 * Needs the index files of the Node bench (`npx tsx src/cli/main.ts bench retrieval --out
 * .bench/retrieval`). They are served, as a minimal release (release.json naming them), by a
 * plain static server on another origin (test/e2e/support.ts); a Vite dev server serves
 * test/bench/search-bench.html, which starts the app's real search worker and hands it to
 * this script. Timings are taken inside the page, so they include the comlink round trip to
 * the worker but not Playwright's.
 *
 * The plain-JS baselines (naive BM25 scan, float32 brute force, their RRF fusion) run on the
 * page's main thread over the same files, on the first --naive-queries queries (they are slow),
 * after the memory figures of the worker are taken; the page checks that the naive BM25 gives
 * the worker's top-20 doc ids.
 *
 * The search worker's own memory is read over CDP (Runtime.getHeapUsage on the worker target,
 * after a forced GC there). With --isolated the bench page is also cross-origin isolated (the
 * site is not, and isolation gives onnxruntime 2 threads) so that
 * performance.measureUserAgentSpecificMemory() can give Chromium's own per-worker figure.
 */
import { asError, errorMessage } from '../../src/core/error-message.ts';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { createServer } from 'vite';
import { chromiumLaunchOptions } from '../e2e/find-browser.ts';
import { startStaticServer } from '../e2e/support.ts';
import { loadBm25, loadDense } from '../../src/core/retrieval/index.ts';
import { percentile } from '../../src/cli/bench/stats.ts';
import type { BaselineInput, BaselineLoad, BaselineSamples } from './search-bench-page.ts';

const root = path.resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const benchDir = path.resolve(root, flag('dir', '.bench/retrieval'));
const modelRelease = path.resolve(root, flag('model-release', 'static-data/sample'));
const nQueries = Number(flag('queries', '1000'));
const nNaive = Number(flag('naive-queries', '30'));
const isolated = args.includes('--isolated');

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
for (const [name, n, max] of [
  ['queries', nQueries, queries.length],
  ['naive-queries', nNaive, Math.min(nQueries, nVec)],
] as const) {
  if (!Number.isInteger(n) || n < 1 || n > max) {
    console.error(`--${name} must be an integer from 1 to ${max}, got ${n}`);
    process.exit(2);
  }
}

/** Summed byteLength of the distinct ArrayBuffers reachable from a value (typed arrays, nested objects). */
function heldArrayBufferBytes(root: unknown): number {
  const seen = new Set<object>();
  const buffers = new Set<ArrayBufferLike>();
  const visit = (x: unknown): void => {
    if (typeof x !== 'object' || x === null || seen.has(x)) return;
    seen.add(x);
    if (ArrayBuffer.isView(x)) buffers.add(x.buffer);
    else if (x instanceof ArrayBuffer) buffers.add(x);
    else for (const v of x instanceof Map ? x.values() : Object.values(x)) visit(v);
  };
  visit(root);
  return [...buffers].reduce((s, b) => s + b.byteLength, 0);
}

// What the worker should hold once both indexes are loaded, decoded here by the same code.
const decodedIndexBytes = (() => {
  try {
    const bm25 = loadBm25(readFileSync(path.join(benchDir, 'bm25.bin')));
    const dense = loadDense(readFileSync(path.join(benchDir, 'dense.bin')), bm25.data.chunks);
    return heldArrayBufferBytes([bm25, dense]);
  } catch (e) {
    return `n/a (${errorMessage(e)})`;
  }
})();

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
  server: {
    port: 0,
    strictPort: false,
    // No file watcher, so no reload is pushed mid-run when a source file the page imports changes.
    watch: null,
    // credentialless, not require-corp: the index files come from the static server without CORP.
    ...(isolated
      ? { headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'credentialless' } }
      : {}),
  },
  logLevel: 'error',
});
await vite.listen();
const address = vite.httpServer!.address() as { port: number };
const launch = chromiumLaunchOptions();
// Without it measureUserAgentSpecificMemory() waits for the next natural GC (up to ~20 s).
if (isolated) launch.args.push('--enable-blink-features=ForceEagerMeasureMemory');
const browser = await chromium.launch(launch);

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

const MiB = 2 ** 20;

/** Sends CDP commands to one child target over a page session, non-flat (Target.sendMessageToTarget). */
type TargetChannel = (method: string, params?: object) => Promise<unknown>;

/**
 * A CDP channel to the page's dedicated worker. Playwright's CDP sessions are page-only and
 * hide flat child sessions, so this attaches the old way: auto-attach without flatten, then
 * wraps commands in Target.sendMessageToTarget and reads Target.receivedMessageFromTarget.
 */
async function attachToWorker(cdp: CDPSession, timeoutMs: number): Promise<TargetChannel> {
  const sessionId = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no worker target attached within ${timeoutMs} ms`)), timeoutMs);
    cdp.on('Target.attachedToTarget', (e) => {
      if (e.targetInfo.type !== 'worker') return;
      clearTimeout(timer);
      resolve(e.sessionId);
    });
    cdp
      .send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false })
      .catch((e: unknown) => {
        clearTimeout(timer);
        reject(asError(e));
      });
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    if (e.sessionId !== sessionId) return;
    const msg = JSON.parse(e.message) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id!);
    if (msg.error) waiter.reject(new Error(msg.error.message));
    else waiter.resolve(msg.result);
  });
  return (method, params = {}) => {
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const fail = (e: unknown) => {
        pending.delete(id);
        reject(asError(e));
      };
      const timer = setTimeout(() => fail(new Error(`${method}: no reply from the worker in 30 s`)), 30_000);
      pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      cdp
        .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
        .catch(fail);
    });
  };
}

type HeapUsage = { usedSize: number; totalSize: number; embedderHeapUsedSize?: number; backingStorageSize?: number };

/** The worker's retained memory: forced GC first, so only what it holds (the indexes) is left. */
async function workerHeap(worker: TargetChannel): Promise<HeapUsage> {
  await worker('HeapProfiler.collectGarbage');
  return (await worker('Runtime.getHeapUsage')) as HeapUsage;
}

const heapTotal = (h: HeapUsage) => h.usedSize + (h.embedderHeapUsedSize ?? 0) + (h.backingStorageSize ?? 0);

const errorText = (e: unknown) => errorMessage(e).split('\n')[0]!;

type Latency = { p50: number; p95: number; n: number };
const latency = (xs: number[]): Latency => ({ p50: percentile(xs, 0.5), p95: percentile(xs, 0.95), n: xs.length });

/** The page's main-thread memory (the baselines live there), after a forced GC. */
async function pageHeap(cdp: CDPSession): Promise<HeapUsage> {
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')) as HeapUsage;
}

interface BaselineResult {
  load: BaselineLoad;
  /** Growth of the page's heap + ArrayBuffers + Blink heap while the baselines are held. */
  memory: number;
  bm25: Latency;
  dense: Latency;
  hybrid: Latency;
  agreement: BaselineSamples['agreement'];
}

/** Builds the plain-JS baselines on the page's main thread, times them, then lets them go. */
async function measureBaselines(page: Page, cdp: CDPSession, input: BaselineInput): Promise<BaselineResult> {
  type Bench = {
    loadBaselines(base: string): Promise<BaselineLoad>;
    runBaselines(input: BaselineInput): Promise<BaselineSamples>;
    dropBaselines(): void;
  };
  const before = await pageHeap(cdp);
  const load = await page.evaluate(
    (base) => (window as unknown as { searchBench: Bench }).searchBench.loadBaselines(base),
    files.url,
  );
  const held = await pageHeap(cdp);
  try {
    const s = await page.evaluate(
      (input) => (window as unknown as { searchBench: Bench }).searchBench.runBaselines(input),
      input,
    );
    return {
      load,
      memory: heapTotal(held) - heapTotal(before),
      bm25: latency(s.bm25),
      dense: latency(s.dense),
      hybrid: latency(s.hybrid),
      agreement: s.agreement,
    };
  } finally {
    await page
      .evaluate(() => (window as unknown as { searchBench: Bench }).searchBench.dropBaselines())
      .catch(() => undefined);
  }
}

try {
  const page = await browser.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') console.error(`page ${msg.type()}: ${msg.text()}`);
  });
  page.on('crash', () => console.error('bench page crashed'));
  // tsx (esbuild keepNames) wraps named functions in __name(); the evaluated code needs it too.
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`http://localhost:${address.port}/test/bench/search-bench.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) console.error(`bench page navigated mid-run to ${frame.url()}`);
  });
  // Any comlink reply (an error here: nothing is open) means the worker's modules are evaluated.
  await page.evaluate(async () => {
    const { api } = (window as unknown as { searchBench: { api: { modelManifest(): Promise<unknown> } } }).searchBench;
    await api.modelManifest().catch(() => undefined);
  });
  const pageIsolated = await page.evaluate(() => globalThis.crossOriginIsolated);
  const worker = await attachToWorker(cdp, 10_000).catch((e: unknown) => errorText(e));
  const workerBefore =
    typeof worker === 'string' ? worker : await workerHeap(worker).catch((e: unknown) => errorText(e));
  const rssBefore = chromiumRssMiB();
  const q = queries.slice(0, nQueries);
  // Fewer stored vectors than queries (files of an older Node bench): the vectors are cycled.
  const v = Array.from({ length: Math.min(nQueries, nVec) }, (_, i) =>
    Array.from(vectors.subarray(i * dim, (i + 1) * dim)),
  );
  const samples = await page.evaluate(
    async ({ base, q, v }) => {
      type Api = {
        open(spec: unknown): Promise<unknown>;
        load(method: string): Promise<void>;
        postingsDecoded(): Promise<void>;
        rank(method: string, query: string, k: number, vector?: Float32Array): Promise<unknown[]>;
      };
      const { api } = (window as unknown as { searchBench: { api: Api } }).searchBench;
      const t0 = performance.now();
      await api.open({ kind: 'url', base });
      await api.load('bm25');
      await api.rank('bm25', q[0]!, 20);
      const firstQuery = performance.now() - t0;
      // Queries while the rest of the postings decode in background slices, then the time until all are.
      const during: number[] = [];
      let decoded = false;
      const settled = api.postingsDecoded().then(() => (decoded = true));
      for (let i = 1; !decoded && i < q.length; i++) {
        const s = performance.now();
        await api.rank('bm25', q[i]!, 20);
        during.push(performance.now() - s);
      }
      await settled;
      const allDecoded = performance.now() - t0;
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
        return xs;
      };
      const vec = v.map((x) => Float32Array.from(x));
      const bm25 = await time((i) => api.rank('bm25', q[i]!, 20), q.length);
      const dense = await time((i) => api.rank('dense', '', 20, vec[i % vec.length]), q.length);
      const hybrid = await time((i) => api.rank('hybrid', q[i]!, 20, vec[i % vec.length]), q.length);
      const empty = await time(() => api.rank('bm25', 'zzzzqqqq', 1), 200);
      return { firstQuery, during, allDecoded, denseLoad, bm25, dense, hybrid, roundTrip: empty };
    },
    { base: files.url, q, v },
  );
  const m = {
    firstQuery: samples.firstQuery,
    during: samples.during.length > 0 ? latency(samples.during) : undefined,
    allDecoded: samples.allDecoded,
    denseLoad: samples.denseLoad,
    bm25: latency(samples.bm25),
    dense: latency(samples.dense),
    hybrid: latency(samples.hybrid),
    roundTrip: latency(samples.roundTrip),
  };
  const metrics = await cdp
    .send('Performance.getMetrics')
    .catch(() => ({ metrics: [] as Array<{ name: string; value: number }> }));
  const heap = metrics.metrics.find((x) => x.name === 'JSHeapUsedSize')?.value;
  const rssAfter = chromiumRssMiB();
  const workerAfter =
    typeof worker === 'string' ? worker : await workerHeap(worker).catch((e: unknown) => errorText(e));
  const uasm = pageIsolated
    ? await page
        .evaluate(async () => {
          type Measurement = {
            bytes: number;
            breakdown: Array<{ bytes: number; types: string[]; attribution: Array<{ url: string; scope: string }> }>;
          };
          const measure = (
            performance as unknown as { measureUserAgentSpecificMemory?: () => Promise<Measurement> }
          ).measureUserAgentSpecificMemory?.bind(performance);
          if (!measure) return 'n/a (performance.measureUserAgentSpecificMemory is missing)';
          const m = await measure();
          const ofWorker = m.breakdown.filter((b) =>
            b.attribution.some((a) => a.scope === 'DedicatedWorkerGlobalScope'),
          );
          return {
            worker: ofWorker.reduce((s, b) => s + b.bytes, 0),
            types: [...new Set(ofWorker.flatMap((b) => b.types))].join('+') || 'no types',
            all: m.bytes,
          };
        })
        .catch((e: unknown) => `n/a (${errorText(e)})`)
    : 'n/a (page not cross-origin isolated; run with --isolated)';

  const baselines = await measureBaselines(page, cdp, {
    queries: q.slice(0, nNaive),
    vectors: v.slice(0, nNaive),
    k: 20,
  }).catch((e: unknown) => `failed: ${errorText(e)}`);

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
      .catch((e: unknown) => `failed: ${errorText(e)}`);
  }

  const workerRow = (h: HeapUsage | string) =>
    typeof h === 'string'
      ? `n/a (${h})`
      : `${(heapTotal(h) / MiB).toFixed(1)} MiB = JS ${(h.usedSize / MiB).toFixed(1)} + ArrayBuffers ${((h.backingStorageSize ?? NaN) / MiB).toFixed(1)} + Blink ${((h.embedderHeapUsedSize ?? NaN) / MiB).toFixed(1)}`;
  const memoryRows: Array<[string, string, string]> = [
    [
      'search worker memory before loading (CDP getHeapUsage, after GC)',
      workerRow(workerBefore),
      'JS heap used + ArrayBuffer backing stores + Blink heap',
    ],
    [
      'search worker memory after loading (CDP getHeapUsage, after GC)',
      workerRow(workerAfter),
      'goal < 600 MB (572 MiB); not counted: thread stack, malloc outside V8/Oilpan',
    ],
    [
      'search worker memory after loading (measureUserAgentSpecificMemory)',
      typeof uasm === 'string'
        ? uasm
        : `${(uasm.worker / MiB).toFixed(1)} MiB (${uasm.types}; whole page ${(uasm.all / MiB).toFixed(1)} MiB)`,
      "goal < 600 MB (572 MiB); Chromium's per-worker attribution",
    ],
    [
      'typed-array bytes of the decoded indexes (same decoder in Node)',
      typeof decodedIndexBytes === 'string' ? decodedIndexBytes : `${(decodedIndexBytes / MiB).toFixed(1)} MiB`,
      'cross-check of the ArrayBuffers above',
    ],
    [
      'renderer RSS growth while loading (ps, cross-check)',
      `${(rssAfter - rssBefore).toFixed(0)} MiB`,
      'worker + page',
    ],
  ];
  const f = (x: number) => x.toFixed(2).padStart(9);
  const distinct = nVec < nQueries ? `, ${nVec} distinct vectors cycled` : '';
  const baselineRow = (name: string, ours: Latency, pick: (b: BaselineResult) => Latency): [string, string, string] => {
    if (typeof baselines === 'string') return [`  baseline: ${name}`, baselines, ''];
    const b = pick(baselines);
    return [
      `  baseline: ${name} p50 / p95 (n ${b.n})`,
      `${f(b.p50)} / ${f(b.p95)} ms`,
      `worker faster by ${(b.p50 / ours.p50).toFixed(1)}x at p50, ${(b.p95 / ours.p95).toFixed(1)}x at p95`,
    ];
  };
  const fromInt8 = typeof baselines !== 'string' && baselines.load.denseRows === 'int8 rows dequantised to float32';
  const baselineSetupRows: Array<[string, string, string]> =
    typeof baselines === 'string'
      ? []
      : [
          [
            'plain-JS baselines load, page main thread (fetch / decode + build)',
            `${f(baselines.load.fetchMs)} / ${f(baselines.load.buildMs)} ms`,
            'BM25 decode + token array of every chunk; dense decode + float32 rows',
          ],
          [
            'plain-JS baselines memory (page heap growth, CDP getHeapUsage after GC)',
            `${(baselines.memory / MiB).toFixed(1)} MiB`,
            typeof workerAfter === 'string'
              ? ''
              : `${(baselines.memory / heapTotal(workerAfter)).toFixed(1)}x the search worker's after loading`,
          ],
          [
            'naive vs worker BM25: same top-20 doc ids, in order',
            `${baselines.agreement.sameDocIds}/${baselines.agreement.of} queries`,
            `max |score diff| on matching ranks ${baselines.agreement.maxScoreDiff.toExponential(1)}`,
          ],
        ];
  const rows: Array<[string, string, string]> = [
    ['time to first BM25 query (open + fetch + decode + rank)', `${f(m.firstQuery)} ms`, 'goal < 3,000 ms'],
    [
      'all BM25 postings decoded (background slices), from asking',
      `${f(m.allDecoded)} ms`,
      m.during
        ? `queries meanwhile: p50 / p95 ${m.during.p50.toFixed(1)} / ${m.during.p95.toFixed(1)} ms (n ${m.during.n})`
        : '',
    ],
    ['dense vectors load (fetch + check)', `${f(m.denseLoad)} ms`, ''],
    [
      `BM25 top-20 p50 / p95, all postings decoded (n ${m.bm25.n})`,
      `${f(m.bm25.p50)} / ${f(m.bm25.p95)} ms`,
      'goal p95 < 10 ms',
    ],
    baselineRow("naive BM25, scan of every chunk's term ids", m.bm25, (b) => b.bm25),
    [
      `dense top-20 given the vector p50 / p95 (n ${m.dense.n}${distinct})`,
      `${f(m.dense.p50)} / ${f(m.dense.p95)} ms`,
      'goal p95 < 10 ms',
    ],
    baselineRow(`float32 brute force${fromInt8 ? ' (int8 rows dequantised)' : ''}`, m.dense, (b) => b.dense),
    [
      `hybrid top-20 p50 / p95 (n ${m.hybrid.n}${distinct})`,
      `${f(m.hybrid.p50)} / ${f(m.hybrid.p95)} ms`,
      'goal p95 < 15 ms',
    ],
    baselineRow('RRF of naive BM25 40 + brute force 40', m.hybrid, (b) => b.hybrid),
    [
      'comlink round trip (empty query) p50 / p95',
      `${f(m.roundTrip.p50)} / ${f(m.roundTrip.p95)} ms`,
      'included above',
    ],
    ...memoryRows,
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
    ...baselineSetupRows,
  ];
  console.log(
    `\nsearch worker bench in Chromium ${browser.version()}, files from ${path.relative(root, benchDir)}, page cross-origin isolated: ${pageIsolated ? 'yes' : 'no'}`,
  );
  const widths = [0, 1].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const [a, b, c] of rows) console.log(`${a.padEnd(widths[0]!)} ${b.padEnd(widths[1]!)} ${c}`);
  console.log(
    'Worker times include the comlink round trip; the baselines are direct calls on the page main thread, so the ratios are conservative.',
  );
} finally {
  await browser.close();
  await vite.close();
  await files.close();
  await modelFiles?.close();
  rmSync(site, { recursive: true, force: true });
}
