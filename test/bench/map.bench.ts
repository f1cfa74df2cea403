/**
 * Map bench: the layout of the tasks' questions in Node (UMAP, and PCA as the alternative it is
 * weighed against: time and neighbours kept), then in Chromium the Map page of the v1.0 files
 * served from localhost, cold (nothing cached) and again (layout from IndexedDB); and the map's
 * drawing and lasso code at the scale of the v1.0-scale chunks (159,564 points, a bench page
 * served by a Vite dev server: test/bench/map-bench.html). Needs a build
 * (`npx vite build`) and ../shared for v1.0; run with `npx tsx test/bench/map.bench.ts [--runs N]`.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { createServer } from 'vite';
import { computeMap } from '../../src/core/map/layout.ts';
import { neighbourShare } from '../../src/core/map/quality.ts';
import { nearestNeighbours, termVectors, type SparseRow } from '../../src/core/map/term-vectors.ts';
import { mulberry32 } from '../../src/core/random.ts';
import { startSiteServer } from '../../src/cli/site-server.ts';
import { chromiumLaunchOptions } from '../e2e/find-browser.ts';
import { projectRoot, startStaticServer, v10Dir } from '../e2e/support.ts';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function questions(file: string): string[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { question: string }).question);
}

/** The first two principal components of the TF-IDF rows (power iteration, seeded), in [0, 1]. */
function pca(rows: readonly SparseRow[], dims: number): Array<{ x: number; y: number }> {
  const dense = rows.map((r) => {
    const v = new Float64Array(dims);
    r.columns.forEach((c, i) => (v[c] = r.weights[i]!));
    return v;
  });
  const mean = new Float64Array(dims);
  for (const v of dense) for (let c = 0; c < dims; c++) mean[c]! += v[c]! / dense.length;
  for (const v of dense) for (let c = 0; c < dims; c++) v[c]! -= mean[c]!;
  const random = mulberry32(1);
  const components: Float64Array[] = [];
  for (let k = 0; k < 2; k++) {
    let w: Float64Array = Float64Array.from({ length: dims }, () => random() - 0.5);
    for (let step = 0; step < 100; step++) {
      const next = new Float64Array(dims);
      for (const v of dense) {
        let dot = 0;
        for (let c = 0; c < dims; c++) dot += v[c]! * w[c]!;
        for (let c = 0; c < dims; c++) next[c]! += dot * v[c]!;
      }
      for (const done of components) {
        let dot = 0;
        for (let c = 0; c < dims; c++) dot += next[c]! * done[c]!;
        for (let c = 0; c < dims; c++) next[c]! -= dot * done[c]!;
      }
      const norm = Math.hypot(...next) || 1;
      w = next.map((x) => x / norm);
    }
    components.push(w);
  }
  return dense.map((v) => {
    const [x, y] = components.map((w) => v.reduce((s, x, c) => s + x * w[c]!, 0));
    return { x: x!, y: y! };
  });
}

function nodeFigures(name: string, texts: string[], kMap: number, kVectors: number): void {
  const { rows, terms } = termVectors(texts);
  const near = nearestNeighbours(rows, kVectors + 1).indices.map((r) => r.slice(1));
  const umapMs: number[] = [];
  let map = computeMap(texts.map((text, i) => ({ id: String(i), text })));
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    map = computeMap(texts.map((text, i) => ({ id: String(i), text })));
    umapMs.push(performance.now() - t);
  }
  const t = performance.now();
  const flat = pca(rows, terms.length);
  const pcaMs = performance.now() - t;
  const kept = neighbourShare(map.points, near, kMap, kVectors);
  const keptPca = neighbourShare(flat, near, kMap, kVectors);
  const times = (x: number) => `${(x / kept.chance).toFixed(1)}× chance`;
  console.log(
    `${name} (${texts.length} tasks, ${terms.length} terms): ${kMap} nearest on the map among ${kVectors} nearest questions`,
  );
  console.log(
    `  TF-IDF + UMAP: ${Math.round(median(umapMs))} ms (median of ${runs}), kept ${kept.share.toFixed(3)} = ${times(kept.share)} (goal ≥ 8×)`,
  );
  console.log(`  TF-IDF + PCA:  ${Math.round(pcaMs)} ms, kept ${keptPca.share.toFixed(3)} = ${times(keptPca.share)}`);
}

/** The v1.0-scale chunk count of the retrieval bench: what the map must draw to show every chunk. */
const CHUNK_POINTS = 159_564;

async function drawingFigures(): Promise<void> {
  const vite = await createServer({
    root: projectRoot,
    configFile: path.join(projectRoot, 'vite.config.ts'),
    server: { port: 0, strictPort: false, watch: null },
    logLevel: 'error',
  });
  await vite.listen();
  const { port } = vite.httpServer!.address() as { port: number };
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    for (const ratio of [1, 2]) {
      const page = await browser.newPage({ deviceScaleFactor: ratio, viewport: { width: 800, height: 800 } });
      await page.goto(`http://localhost:${port}/test/bench/map-bench.html`);
      await page.waitForFunction(() => 'mapBench' in window);
      const f = await page.evaluate(([n, r]) => window.mapBench.panAndZoom(n, r, 180), [CHUNK_POINTS, ratio] as const);
      console.log(
        `  pan and zoom, ${f.points.toLocaleString('en')} points, device pixel ratio ${f.ratio}: ${f.fps.toFixed(1)} frames/s over ${f.frames} frames (goal ≥ 50), draw ${f.drawP50.toFixed(1)} ms p50, ${f.drawP95.toFixed(1)} ms p95`,
      );
      if (ratio === 1) {
        const l = await page.evaluate(([n, times]) => window.mapBench.lasso(n, 10_000, times), [
          CHUNK_POINTS,
          runs + 2,
        ] as const);
        console.log(
          `  lasso around ${l.selected.toLocaleString('en')} of ${l.points.toLocaleString('en')} points, hit test + selection + redraw: ${median(l.ms).toFixed(1)} ms median of ${l.ms.length} (goal < 200 ms)`,
        );
      }
      await page.close();
    }
  } finally {
    await browser.close();
    await vite.close();
  }
}

console.log("Chromium, the Map page's drawing (Canvas 2D; a pixel buffer above 20,000 points):");
await drawingFigures();
nodeFigures('sample', questions(path.join(projectRoot, 'static-data/sample/full/questions.jsonl')), 10, 10);
if (!existsSync(v10Dir)) {
  console.log(`v1.0: SKIPPED (${v10Dir} absent)`);
  process.exit(0);
}
nodeFigures('v1.0', questions(path.join(v10Dir, 'full/questions.jsonl')), 10, 50);

const site = await startSiteServer({ root: path.join(projectRoot, 'dist'), precompressed: true });
const release = await startStaticServer(v10Dir);
const browser = await chromium.launch(chromiumLaunchOptions());
const cold: number[] = [];
const cached: number[] = [];
try {
  for (let r = 0; r < runs; r++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const shown = async () => {
      const t = Date.now();
      await page.goto(`${site.url}?release=${encodeURIComponent(release.url)}&view=map`);
      await page.locator('[data-testid="map-canvas"][data-points="1038"]').waitFor({ timeout: 120_000 });
      return Date.now() - t;
    };
    cold.push(await shown());
    cached.push(await shown());
    await context.close();
  }
} finally {
  await browser.close();
  await release.close();
  await site.close();
}
const range = (xs: number[]) => `${median(xs)} ms (${Math.min(...xs)}–${Math.max(...xs)})`;
console.log(`Chromium, v1.0 Map page from navigation to 1,038 points drawn (release load included):`);
console.log(`  cold, layout computed: ${range(cold)} (goal < 5 s)`);
console.log(`  again, layout cached:  ${range(cached)} (goal < 1 s)`);
