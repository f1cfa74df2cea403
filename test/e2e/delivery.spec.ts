/**
 * Issue 12: what the first views download. A task page opened by permalink never asks for
 * onnxruntime (until a dense ranking is asked for); an embed never asks for DuckDB; the tasks
 * table of the sample costs less than 1.5 MB; after a first visit the site and the opened
 * release load with the network cut.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

test('the tasks table of the sample costs less than 1.5 MB', async ({ browser }) => {
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
