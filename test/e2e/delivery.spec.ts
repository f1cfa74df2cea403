/**
 * Issue 12: what the first views download. A task page opened by permalink never asks for
 * onnxruntime (until a dense ranking is asked for); an embed never asks for DuckDB; the tasks
 * table of the sample costs less than 1.5 MB; after a first visit the site and the opened
 * release load with the network cut.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startMeasuredServer, visibleAt, watchVisible } from '../support/first-view.ts';
import { projectRoot, startStaticServer } from './support.ts';

const ORT_WASM = /ort-wasm[^/]*\.wasm/;
const DUCKDB_WASM = /duckdb-(eh|mvp|coi)[^/]*\.wasm/;

interface TaskLine {
  task_id: string;
  type: string;
  question: string;
  gold_docs: string[];
}
const tasks = readFileSync(path.join(projectRoot, 'static-data/sample/full/tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as TaskLine);
const withGold = tasks.find((t) => t.type === 'single_hop' && t.gold_docs.length > 0)!;

/** Every URL the page and its workers ask for (Playwright reports worker requests too). */
function requested(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

test('a task page by permalink shows its gold documents and BM25 ranking without onnxruntime', async ({ page }) => {
  const urls = requested(page);
  await page.goto(`/?view=task&task=${withGold.task_id}&split=full`);
  await expect(page.getByTestId('gold-doc').first().getByTestId('doc-text')).toBeVisible();
  const bm25 = page.getByTestId('task-rankings').getByTestId('results-bm25');
  await expect(bm25.getByTestId('result-row').first()).toBeVisible();
  // Gold documents come before the rankings on the page.
  const goldY = (await page.getByTestId('gold-doc').first().boundingBox())!.y;
  expect(goldY).toBeLessThan((await bm25.boundingBox())!.y);
  // Let the background load run to its end (DuckDB filled) before judging what was fetched.
  await expect(page.getByTestId('background-progress')).toHaveCount(0);
  expect(urls.filter((u) => ORT_WASM.test(u))).toEqual([]);
  expect(urls.filter((u) => /transformers-embedder/.test(u))).toEqual([]);

  // One click asks for dense: only then does onnxruntime come.
  await page.getByTestId('rank-dense').click();
  await expect(page).toHaveURL(/rank=dense/);
  await expect(
    page.getByTestId('task-rankings').getByTestId('results-dense').getByTestId('result-row').first(),
  ).toBeVisible();
  expect(urls.filter((u) => ORT_WASM.test(u)).length).toBeGreaterThan(0);
});

test('an embed page shows its task and gold documents without DuckDB or onnxruntime', async ({ page }) => {
  const one = tasks.find((t) => t.type === 'aggregation')!;
  const html = readFileSync(path.join(projectRoot, 'test/e2e/embed-test-page.html'), 'utf8')
    .replace('__TASK_1__', withGold.task_id)
    .replace('__TASK_2__', one.task_id)
    .replace('__SITE__', `http://localhost:${process.env.E2E_PORT ?? 4173}/`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-embed-'));
  writeFileSync(path.join(dir, 'page.html'), html);
  const host = await startStaticServer(dir);
  const urls = requested(page);
  try {
    await page.goto(`${host.url}page.html`);
    for (const [id, task] of [
      ['first', withGold],
      ['second', one],
    ] as const) {
      const frame = page.frameLocator(`#${id} iframe`);
      await expect(frame.getByTestId('task-question')).toHaveText(task.question);
      await expect(frame.getByTestId('gold-doc')).toHaveCount(task.gold_docs.length);
    }
    // A document opened in place is read by range from docs.parquet.
    const frame = page.frameLocator('#first iframe');
    await frame.locator('details summary').first().click();
    await expect(frame.getByTestId('doc-text')).toBeVisible();
    expect(urls.filter((u) => DUCKDB_WASM.test(u) || /duckdb-browser/.test(u))).toEqual([]);
    expect(urls.filter((u) => ORT_WASM.test(u))).toEqual([]);
    // Both embeds read docs.parquet by ranges, never whole.
    const parquet = urls.filter((u) => u.endsWith('/docs.parquet'));
    expect(parquet.length).toBeGreaterThan(0);
  } finally {
    await host.close();
  }
});

test('five embeds on one page: their pin checks wait until every embed is on screen, and download the file once', async ({
  browser,
}) => {
  const dist = path.join(projectRoot, 'dist');
  const site = await startMeasuredServer({ root: dist });
  const five = tasks.filter((t) => t.gold_docs.length > 0).slice(0, 5);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-embeds-'));
  writeFileSync(
    path.join(dir, 'page.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Five embeds</title></head><body>
${five.map((t, i) => `<epstein-bench-task id="e${i}" task-id="${t.task_id}" split="full"></epstein-bench-task>`).join('\n')}
<script src="${site.url}embed.js"></script></body></html>`,
  );
  const host = await startStaticServer(dir);
  // The default viewport: the last embeds are below it (loaded, never painted), and must not
  // hold the others' checks back.
  const context = await browser.newContext();
  try {
    await watchVisible(context, { gold: '[data-testid="gold-doc"]' });
    const page = await context.newPage();
    await page.goto(`${host.url}page.html`);
    for (const [i, t] of five.entries()) {
      const frame = page.frameLocator(`#e${i} iframe`);
      await expect(frame.getByTestId('gold-doc')).toHaveCount(new Set(t.gold_docs).size);
    }
    // Every frame has run its pin check (each one hashes the whole file)…
    for (const i of five.keys()) {
      const frame = page.frameLocator(`#e${i} iframe`);
      await expect(frame.getByTestId('embed')).toHaveAttribute('data-pin-check', 'done');
      await expect(frame.getByRole('alert')).toHaveCount(0);
    }
    const lastShown = await visibleAt(page, 'gold', five.length);
    const size = statSync(path.join(dist, 'static-data/sample/docs.parquet')).size;
    const docs = site.served.filter((s) => s.url.endsWith('/docs.parquet'));
    // The checks ask for the whole file only once the fifth embed is on screen…
    const whole = docs.filter((s) => s.range === `bytes=0-${size - 1}`);
    expect(whole.filter((s) => s.at < lastShown)).toEqual([]);
    const before = site.bytesUntil(lastShown);
    test.info().annotations.push({ type: 'bytes before the fifth embed shows', description: String(before) });
    expect(before).toBeLessThan(1_000_000);
    // …and one after the other: the first fills the browser's cache, the others revalidate it, so
    // the file's bytes come once (besides the range reads of the first views).
    const docsBytes = docs.reduce((sum, s) => sum + s.bytes, 0);
    test.info().annotations.push({ type: 'docs.parquet bytes in all', description: String(docsBytes) });
    expect(docsBytes).toBeLessThan(2 * size);
    expect(site.served.filter((s) => DUCKDB_WASM.test(s.url) || ORT_WASM.test(s.url))).toEqual([]);
  } finally {
    await context.close();
    await host.close();
    await site.close();
  }
});

test('the tasks table of the sample costs less than 1.5 MB and fetches no other page’s code', async ({ browser }) => {
  const site = await startMeasuredServer({ root: path.join(projectRoot, 'dist') });
  const context = await browser.newContext();
  try {
    await watchVisible(context, { tasks: '[data-testid="task-row"]' });
    const page = await context.newPage();
    await page.goto(site.url);
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    const visible = await visibleAt(page, 'tasks');
    const bytes = site.bytesUntil(visible);
    test.info().annotations.push({ type: 'bytes before the tasks table', description: String(bytes) });
    expect(bytes).toBeLessThan(1_500_000);
    expect(site.served.filter((s) => s.at <= visible && DUCKDB_WASM.test(s.url))).toEqual([]);
    // Every other page is its own chunk, fetched when opened.
    const pages = /\/assets\/(TaskView|DocView|LeaderboardView|RejectionsView|SystemsView|ScoreView|SearchView)-/;
    expect(site.served.filter((s) => pages.test(s.url)).map((s) => s.url)).toEqual([]);
    await page.getByTestId('task-row').first().getByRole('link').first().click();
    await expect(page.getByTestId('task-detail')).toBeVisible();
    expect(site.served.filter((s) => pages.test(s.url)).map((s) => /(\w+View)-/.exec(s.url)?.[1])).toContain(
      'TaskView',
    );
  } finally {
    await context.close();
    await site.close();
  }
});

test('after a first visit the site and the opened release load with the network cut', async ({ context, page }) => {
  await page.goto('/');
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  // The release is kept once it is complete; the control says so.
  await page.getByTestId('offline-toggle').click();
  await expect(page.getByTestId('offline-release')).toContainText('sample', { timeout: 90_000 });
  await expect(page.getByTestId('offline-app')).toContainText('files');
  await page.screenshot({ path: 'test-results/screens/offline-panel.png' });

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  await page.goto(`/?view=task&task=${withGold.task_id}&split=full`);
  await expect(page.getByTestId('task-question')).toHaveText(withGold.question);
  await expect(page.getByTestId('gold-doc').first().getByTestId('doc-text')).toBeVisible();
  await expect(
    page.getByTestId('task-rankings').getByTestId('results-bm25').getByTestId('result-row').first(),
  ).toBeVisible();
  // DuckDB answers offline too (its wasm is kept): rejections need it.
  await page.goto('/?view=rejections');
  await expect(page.getByTestId('rejection-total')).toContainText('rejected');

  // Clearing empties the offline copy.
  await context.setOffline(false);
  await page.goto('/');
  await page.getByTestId('offline-toggle').click();
  await page.getByTestId('offline-clear').click();
  await expect(page.getByTestId('offline-empty')).toBeVisible();
});
