/**
 * Delivery bench: the first views, embeds and a task page of the built site as `npm start` serves
 * it (precompressed files, long cache lifetimes, the service worker), beside the figures recorded
 * for the same measures at the last landed build before this bench lost its second design
 * (3a68424, headless shell, 5 runs; the engines-first design of before issue 12 is no longer
 * shipped: its figures are in that session's closing note). The embeds' figures once idle and
 * the leaderboard embed's are those of ad86f3a, the build before issue 21 (this bench, 3 runs).
 *
 * Prints bytes (exact: response bodies as sent, counted by the server, for the requests that
 * arrived before the view was on screen) and times (navigation to the element in the page;
 * median and range of the runs). Embeds (one task, five tasks, the leaderboard) are also counted
 * once idle: every embed's pin check has run and passed, and the server has gone quiet.
 * Needs a build: `npx vite build`, then `npx tsx test/bench/delivery.bench.ts [--runs 3]`.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { precompressFolder } from '../../src/cli/vite-delivery.ts';
import { chromiumLaunchOptions } from '../e2e/find-browser.ts';
import { projectRoot, startStaticServer, v10Dir } from '../e2e/support.ts';
import {
  startMeasuredServer,
  visibleAt,
  waitVisible,
  watchVisible,
  type MeasuredServer,
} from '../support/first-view.ts';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 3;
const dist = path.join(projectRoot, 'dist');
const ORT_WASM = /ort-wasm[^/]*\.wasm/;

const MARKS = {
  tasks: '[data-testid="task-row"]',
  gold: '[data-testid="gold-doc"]',
  goldText: '[data-testid="gold-doc"] [data-testid="doc-text"]',
  bm25: '[data-testid="task-rankings"] [data-testid="results-bm25"] [data-testid="result-row"]',
  board: '[data-testid="board-row"]',
  /** An embed whose pin check has run (or that had none to run). */
  checked: '[data-testid="embed"][data-pin-check="done"]',
  embedError: '[data-testid="embed-error"]',
};

interface Sample {
  bytes: number;
  ms: number;
}

interface TaskLine {
  task_id: string;
  type: string;
  gold_docs: string[];
}

function sampleTasks(): TaskLine[] {
  return readFileSync(path.join(projectRoot, 'static-data/sample/full/tasks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as TaskLine)
    .filter((t) => t.gold_docs.length > 0);
}

async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await watchVisible(context, MARKS);
  return context;
}

/** Waits until the page is idle on the server side: nothing served for `quietMs`. */
async function settle(site: MeasuredServer, quietMs = 1500, maxMs = 120_000): Promise<void> {
  const started = Date.now();
  let last = site.served.length;
  let since = Date.now();
  while (Date.now() - started < maxMs) {
    await new Promise((r) => setTimeout(r, 100));
    if (site.served.length !== last) {
      last = site.served.length;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
}

/**
 * The bytes a page of `frames` embeds has cost once every embed's pin check has run and the
 * server is idle; throws when an embed shows an error (a figure of a refused embed means nothing).
 */
async function onceChecked(page: Page, site: MeasuredServer, frames: number): Promise<Sample> {
  await waitVisible(page, 'checked', frames);
  await settle(site);
  const failed = await Promise.all(page.frames().map((f) => f.locator(MARKS.embedError).count()));
  if (failed.some((n) => n > 0)) throw new Error('an embed shows an error: its figures would not be a delivery');
  return { bytes: site.bytesUntil(Date.now()), ms: 0 };
}

async function measure(page: Page, site: MeasuredServer, url: string, marks: string[], frames = 1): Promise<Sample> {
  site.reset();
  const start = Date.now();
  await page.goto(url);
  for (const m of marks) await waitVisible(page, m, frames);
  const at = Math.max(...(await Promise.all(marks.map((m) => visibleAt(page, m, frames)))));
  return { bytes: site.bytesUntil(at), ms: at - start };
}

/** The site, the v1.0 files mounted beside it (compressed like the site's own). */
async function startSite(): Promise<{ site: MeasuredServer; v10: boolean }> {
  const v10 = existsSync(v10Dir);
  let compressedV10 = '';
  if (v10) {
    compressedV10 = path.join(mkdtempSync(path.join(os.tmpdir(), 'ebx-delivery-')), 'v1.0');
    cpSync(v10Dir, compressedV10, { recursive: true });
    await precompressFolder(compressedV10, path.join(projectRoot, 'node_modules/.cache/ebx-precompress'));
  }
  const site = await startMeasuredServer({
    root: dist,
    precompressed: true,
    mounts: v10 ? [{ prefix: '/bench/v1.0/', root: compressedV10 }] : [],
  });
  return { site, v10 };
}

const taskEmbed = (id: string) => `<epstein-bench-task task-id="${id}" split="full"></epstein-bench-task>`;
const LEADERBOARD_EMBED = '<epstein-bench-embed view="leaderboard"></epstein-bench-embed>';

/** A host page on its own folder with these embed elements, text between them. */
function hostPage(site: string, embeds: readonly string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-delivery-host-'));
  const elements = embeds.map((e) => `${e}<p>Text between embeds.</p>`).join('\n');
  writeFileSync(
    path.join(dir, 'page.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Embeds</title></head><body>
${elements}
<script src="${site}embed.js"></script></body></html>`,
  );
  return dir;
}

interface Row {
  label: string;
  goal: string;
  values: Sample[];
  show: 'bytes' | 'ms';
  /** The same measure at 3a68424, as its closing note gives it. */
  recorded: string;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('dist/ is missing: run `npx vite build` first');
  const { site, v10 } = await startSite();
  const browser = await chromium.launch(chromiumLaunchOptions());
  const tasks = sampleTasks();
  const rows: Row[] = [];
  const row = (label: string, goal: string, show: Row['show'], recorded = '') => {
    const r: Row = { label, goal, show, recorded, values: [] };
    rows.push(r);
    return r;
  };
  const sampleBytesCold = row('tasks table (sample, cold): bytes', '< 1.5 MB', 'bytes', '258,836 B');
  const sampleMsCold = row('tasks table (sample, cold): visible', '< 1 s', 'ms', '667 ms (483–1,201)');
  const sampleBytesWarm = row('tasks table (sample, warm): bytes', '', 'bytes', '74,003 B');
  const sampleMsWarm = row('tasks table (sample, warm): visible', '', 'ms', '507 ms');
  const v10BytesCold = row('tasks table (v1.0 files, cold): bytes', '', 'bytes', '324,978 B');
  const v10MsCold = row('tasks table (v1.0 files, cold): visible', '', 'ms', '499 ms');
  const v10BytesWarm = row('tasks table (v1.0 files, warm): bytes', '', 'bytes', '27 B');
  const v10MsWarm = row('tasks table (v1.0 files, warm): visible', '', 'ms', '491 ms');
  const oneBytes = row('one embedded task: bytes', '< 600 KB', 'bytes', '152,380 B');
  const oneMs = row('one embedded task: visible', '< 0.8 s', 'ms', '358 ms (279–429)');
  const fiveBytes = row('five embedded tasks: bytes', '< 1 MB', 'bytes', '260,200 B (244–281 KB)');
  const fiveMs = row('five embedded tasks: visible', '', 'ms');
  // What the page costs in all, once idle: every embed's pin check has run and passed.
  const oneTotal = row(
    'one embedded task: bytes once idle (integrity included)',
    '< 300 KB',
    'bytes',
    '1,308,968 B (ad86f3a)',
  );
  const fiveTotal = row(
    'five embedded tasks: bytes once idle (integrity included)',
    '< 600 KB',
    'bytes',
    '1,391,755 B (ad86f3a)',
  );
  const boardBytes = row('embedded leaderboard: bytes', 'unchanged or lighter', 'bytes', '103,773 B (ad86f3a)');
  const boardMs = row('embedded leaderboard: visible', '', 'ms');
  const boardTotal = row(
    'embedded leaderboard: bytes once idle (integrity included)',
    '',
    'bytes',
    '103,773 B (ad86f3a)',
  );
  const taskBytes = row('task page: gold documents + BM25 ranking: bytes', '', 'bytes', '746,635 B');
  const taskMs = row('task page: gold documents + BM25 ranking: visible', '< 1 s', 'ms', '578 ms (475–767)');
  const ortBytes = row('onnxruntime wasm downloaded by a task page (no dense asked)', 'never', 'bytes', 'no');

  try {
    for (let run = 0; run < runs; run++) {
      // The tasks table, cold then warm (same browser profile, a new tab).
      const context = await newContext(browser);
      const page = await context.newPage();
      sampleBytesCold.values.push(await measure(page, site, site.url, ['tasks']));
      sampleMsCold.values.push(sampleBytesCold.values.at(-1)!);
      await settle(site);
      await page.close();
      const warm = await context.newPage();
      const w = await measure(warm, site, site.url, ['tasks']);
      sampleBytesWarm.values.push(w);
      sampleMsWarm.values.push(w);
      await context.close();

      if (v10) {
        const ctx = await newContext(browser);
        const p = await ctx.newPage();
        const url = `${site.url}?release=${encodeURIComponent(`${site.url}bench/v1.0/`)}`;
        const cold = await measure(p, site, url, ['tasks']);
        v10BytesCold.values.push(cold);
        v10MsCold.values.push(cold);
        await settle(site);
        await p.close();
        const p2 = await ctx.newPage();
        const again = await measure(p2, site, url, ['tasks']);
        v10BytesWarm.values.push(again);
        v10MsWarm.values.push(again);
        await ctx.close();
      }

      // Embeds: a host page on another origin with one task, five tasks, the leaderboard (cold each time).
      const taskEmbeds = (n: number) => tasks.slice(0, n).map((t) => taskEmbed(t.task_id));
      for (const [embeds, mark, bytesRow, msRow, totalRow] of [
        [taskEmbeds(1), 'gold', oneBytes, oneMs, oneTotal],
        [taskEmbeds(5), 'gold', fiveBytes, fiveMs, fiveTotal],
        [[LEADERBOARD_EMBED], 'board', boardBytes, boardMs, boardTotal],
      ] as const) {
        const host = await startStaticServer(hostPage(site.url, embeds));
        const ctx = await newContext(browser);
        const p = await ctx.newPage();
        const s = await measure(p, site, `${host.url}page.html`, [mark], embeds.length);
        bytesRow.values.push(s);
        msRow.values.push(s);
        totalRow.values.push(await onceChecked(p, site, embeds.length));
        await ctx.close();
        await host.close();
      }

      // A task page by permalink (cold): gold documents with text, and the BM25 ranking.
      const ctx = await newContext(browser);
      const p = await ctx.newPage();
      const t = tasks[3]!;
      const s = await measure(p, site, `${site.url}?view=task&task=${t.task_id}&split=full`, ['goldText', 'bm25']);
      taskBytes.values.push(s);
      taskMs.values.push(s);
      await settle(site);
      const ort = site.served.filter((e) => ORT_WASM.test(e.url)).reduce((sum, e) => sum + e.bytes, 0);
      ortBytes.values.push({ bytes: ort, ms: 0 });
      await ctx.close();
      process.stderr.write(`run ${run + 1}/${runs} done\n`);
    }
  } finally {
    await browser.close();
    await site.close();
  }
  print(rows.filter((r) => r.values.length > 0));
  printArtifacts();
}

const fmtBytes = (n: number) => `${n.toLocaleString('en')} B`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function cell(row: Row): string {
  const samples = row.values;
  if (row.show === 'bytes') {
    const all = new Set(samples.map((s) => s.bytes));
    const first = samples[0]!.bytes;
    if (row.goal === 'never') return first === 0 ? 'no' : `yes, ${fmtBytes(first)}`;
    return all.size === 1
      ? fmtBytes(first)
      : `${fmtBytes(median(samples.map((s) => s.bytes)))} (varies: ${[...all].map(fmtBytes).join(' / ')})`;
  }
  const ms = samples.map((s) => s.ms);
  return `${median(ms).toLocaleString('en')} ms (${Math.min(...ms)}–${Math.max(...ms)})`;
}

function print(rows: Row[]): void {
  const header = ['measure', 'this build', 'recorded (at 3a68424 unless named)', 'goal'];
  const table = rows.map((r) => [r.label, cell(r), r.recorded, r.goal]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(`delivery, Chromium, localhost, ${runs} run(s): bytes exact, times median (min–max)`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const t of table) console.log(line(t));
}

/** The build's main files with their precompressed sizes. */
function printArtifacts(): void {
  const files = walk(path.join(dist, 'assets'))
    .concat(['index.html', 'embed/index.html', 'embed.js', 'sw.js'].map((f) => path.join(dist, f)))
    .filter((f) => !/\.(br|gz)$/.test(f));
  const size = (f: string) => (existsSync(f) ? statSync(f).size : undefined);
  const rows = files
    .map((f) => ({ name: path.relative(dist, f), raw: size(f)!, gz: size(`${f}.gz`), br: size(`${f}.br`) }))
    .sort((a, b) => b.raw - a.raw);
  console.log('\nbuild artifacts (dist/, bytes): raw / gzip / brotli');
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(58)} ${r.raw.toLocaleString('en').padStart(12)} ${(r.gz ?? r.raw).toLocaleString('en').padStart(12)} ${(r.br ?? r.raw).toLocaleString('en').padStart(12)}`,
    );
  }
  const total = (k: 'raw' | 'gz' | 'br') => rows.reduce((s, r) => s + (r[k] ?? r.raw), 0);
  console.log(
    `${'total'.padEnd(58)} ${total('raw').toLocaleString('en').padStart(12)} ${total('gz').toLocaleString('en').padStart(12)} ${total('br').toLocaleString('en').padStart(12)}`,
  );
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

await main();
