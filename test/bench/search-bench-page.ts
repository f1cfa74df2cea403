/**
 * The bench page: starts the app's real search worker (the same module the site bundles) and
 * exposes it as window.searchBench for the Playwright driver, with the plain-JS baselines that
 * run on this page's main thread against the same index files. Served by a Vite dev server the
 * bench starts; not part of the site's build.
 */
import * as Comlink from 'comlink';
import type { SearchApi } from '../../workers/search.worker.ts';
import { PlainJsBaselines } from '../../src/cli/bench/plain-js-baselines.ts';

export interface BaselineLoad {
  fetchMs: number;
  buildMs: number;
  denseRows: PlainJsBaselines['denseRows'];
}

export interface BaselineInput {
  queries: string[];
  /** One unit query vector per query. */
  vectors: number[][];
  k: number;
}

/** Per-query milliseconds of each baseline, and how its BM25 top-k compares with the worker's. */
export interface BaselineSamples {
  bm25: number[];
  dense: number[];
  hybrid: number[];
  agreement: { sameDocIds: number; of: number; maxScoreDiff: number };
}

const api = Comlink.wrap<SearchApi>(
  new Worker(new URL('../../workers/search.worker.ts', import.meta.url), { type: 'module', name: 'search' }),
);

let baselines: PlainJsBaselines | undefined;

async function fetchBytes(base: string, file: string): Promise<Uint8Array> {
  const response = await fetch(new URL(file, base));
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Fetches bm25.bin and dense.bin from the bench release and builds the baselines (kept until dropped). */
async function loadBaselines(base: string): Promise<BaselineLoad> {
  const t0 = performance.now();
  const [bm25File, denseFile] = await Promise.all([fetchBytes(base, 'bm25.bin'), fetchBytes(base, 'dense.bin')]);
  const t1 = performance.now();
  baselines = PlainJsBaselines.fromFiles(bm25File, denseFile);
  return { fetchMs: t1 - t0, buildMs: performance.now() - t1, denseRows: baselines.denseRows };
}

/** One untimed warm-up call, then each item timed once (the baselines take 50-500 ms a query). */
async function timeEach(n: number, run: (i: number) => void): Promise<number[]> {
  run(0);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    run(i);
    samples.push(performance.now() - t0);
    // Lets the page breathe between long synchronous scans; not inside the timed span.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return samples;
}

async function runBaselines({ queries, vectors, k }: BaselineInput): Promise<BaselineSamples> {
  const b = baselines;
  if (!b) throw new Error('loadBaselines() first');
  if (vectors.length !== queries.length) throw new Error(`${queries.length} queries but ${vectors.length} vectors`);
  const vec = vectors.map((v) => Float32Array.from(v));
  const naiveTop: Array<Array<{ doc_id: string; score: number }>> = [];
  const bm25 = await timeEach(queries.length, (i) => (naiveTop[i] = b.bm25(queries[i]!, k)));
  const dense = await timeEach(queries.length, (i) => b.dense(vec[i]!, k));
  const hybrid = await timeEach(queries.length, (i) => b.hybrid(queries[i]!, vec[i]!, k));
  let sameDocIds = 0;
  let maxScoreDiff = 0;
  for (const [i, q] of queries.entries()) {
    const ours = await api.rank('bm25', q, k);
    const naive = naiveTop[i]!;
    if (ours.length === naive.length && ours.every((d, j) => d.doc_id === naive[j]!.doc_id)) sameDocIds++;
    ours.forEach((d, j) => {
      const other = naive[j];
      if (other?.doc_id === d.doc_id) maxScoreDiff = Math.max(maxScoreDiff, Math.abs(d.score - other.score));
    });
  }
  return { bm25, dense, hybrid, agreement: { sameDocIds, of: queries.length, maxScoreDiff } };
}

(window as unknown as { searchBench: unknown }).searchBench = {
  api,
  proxy: Comlink.proxy,
  loadBaselines,
  runBaselines,
  dropBaselines: () => void (baselines = undefined),
};
document.body.dataset['ready'] = 'true';
