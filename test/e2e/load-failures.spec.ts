/**
 * Audit findings 4.1 and 4.5 in the page (the data worker's service is tested in Node in
 * test/unit/core/explorer/service.test.ts): a release URL that never answers neither locks the
 * load dialog nor queues the next load, and a refused load (a truncated docs.parquet) leaves the
 * shown release as it was: its title, its tasks and its documents.
 */
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { listenLocal } from '../support/local-server.ts';
import { copyFolder, projectRoot, startStaticServer } from './support.ts';

/** A release folder's URL on a local server that answers as `handler` does. */
async function releaseServer(handler: RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await listenLocal(handler);
  return { url: `${server.origin}/release/`, close: () => server.close() };
}

/** A server that accepts every request and never answers it. */
const startHungServer = () => releaseServer(() => undefined);

/** The attack of a release host that trickles: every answer starts at once, then one byte a second. */
const startTrickleServer = () =>
  releaseServer((req, res) => {
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': '*',
      'Access-Control-Allow-Methods': 'GET, HEAD',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', ...cors });
    const drip = setInterval(() => res.write(' '), 1000);
    res.on('close', () => clearInterval(drip));
  });

/** A copy of the sample with fewer tasks (so that a replaced table would show) and a truncated docs.parquet. */
function truncatedSample(): string {
  const dir = copyFolder(path.join(projectRoot, 'static-data/sample'));
  const tasks = path.join(dir, 'full/tasks.jsonl');
  writeFileSync(tasks, `${readFileSync(tasks, 'utf8').split('\n').slice(0, 10).join('\n')}\n`);
  const descriptorFile = path.join(dir, 'release.json');
  const descriptor = JSON.parse(readFileSync(descriptorFile, 'utf8')) as { sha256: Record<string, string> };
  delete descriptor.sha256['full/tasks.jsonl'];
  delete descriptor.sha256['docs.parquet'];
  writeFileSync(descriptorFile, JSON.stringify(descriptor));
  truncateSync(path.join(dir, 'docs.parquet'), 500_000);
  return dir;
}

test('a URL that never answers does not lock loading, and a refused load leaves the shown release as it was', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const hung = await startHungServer();
  const refused = await startStaticServer(truncatedSample());
  try {
    await page.goto('/');
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    const title = await page.getByTestId('release-title').innerText();
    const total = await page.getByTestId('task-total').innerText();
    const firstTask = await page.getByTestId('task-row').first().innerText();

    await page.getByTestId('open-load-dialog').click();
    await page.getByTestId('release-url').fill(hung.url);
    await page.getByRole('button', { name: 'Load URL' }).click();
    await expect(page.getByTestId('dialog-loading')).toContainText(new URL(hung.url).host);
    // The dialog stays usable, and the next load cancels the hung one instead of waiting behind it.
    await expect(page.getByRole('button', { name: 'Load URL' })).toBeEnabled();
    await page.getByTestId('release-url').fill(refused.url);
    await page.getByRole('button', { name: 'Load URL' }).click();
    await expect(page.getByTestId('dialog-error')).toContainText('docs.parquet');
    await expect(page.getByTestId('dialog-loading')).toHaveCount(0);
    await page.getByTestId('load-dialog').getByRole('button', { name: 'Close' }).click();

    // Still the release it was: title, tasks and a document's text (no reload: the same page state).
    await expect(page.getByTestId('release-title')).toHaveText(title);
    await expect(page.getByTestId('task-total')).toHaveText(total);
    await expect(page.getByTestId('task-row').first()).toHaveText(firstTask);
    await page.getByTestId('task-row').first().getByRole('link').first().click();
    await expect(page.getByTestId('task-question')).toBeVisible();
    await page.getByTestId('gold-doc').first().locator('.doc-page a').click();
    await expect(page.getByTestId('doc-meta')).toBeVisible();
    await expect(page.getByTestId('chunk-summary')).toBeVisible();
  } finally {
    await hung.close();
    await refused.close();
  }
});

test('while a release URL trickles, the site’s own releases stay loadable and replace it', async ({ page }) => {
  test.setTimeout(180_000);
  const trickle = await startTrickleServer();
  try {
    await page.goto('/');
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    const title = await page.getByTestId('release-title').innerText();
    await page.getByTestId('open-load-dialog').click();
    await page.getByTestId('release-url').fill(trickle.url);
    await page.getByRole('button', { name: 'Load URL' }).click();
    await expect(page.getByTestId('dialog-loading')).toContainText(new URL(trickle.url).host);
    // While it loads, the site's own releases can be chosen; choosing one cancels the trickle.
    await expect(page.getByTestId('shipped-release-sample')).toBeEnabled();
    await page.getByTestId('shipped-release-sample').click();
    await expect(page.getByTestId('dialog-loading')).toHaveCount(0);
    await expect(page.getByTestId('release-title')).toHaveText(title);
    await expect(page.getByTestId('task-row').first()).toBeVisible();
  } finally {
    await trickle.close();
  }
});

test('a release URL that trickles is refused with our message: the file and the reason, not "Failed to fetch"', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const trickle = await startTrickleServer();
  try {
    await page.goto('/');
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    await page.getByTestId('open-load-dialog').click();
    await page.getByTestId('release-url').fill(trickle.url);
    await page.getByRole('button', { name: 'Load URL' }).click();
    // the guard refuses less than 1 KiB in 20 s of waiting; Chromium's arrayBuffer() would have
    // reported that as a bare "Failed to fetch"
    const error = page.getByTestId('dialog-error');
    await expect(error).toContainText(
      /\/release\/[\w./-]+: the server sent only \d+ bytes in [\d.]+ s, far too slowly/,
    );
    await expect(error).not.toContainText('Failed to fetch');
    await expect(page.getByTestId('dialog-loading')).toHaveCount(0);
  } finally {
    await trickle.close();
  }
});
