import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { projectRoot, startStaticServer } from './support.ts';

const SITE = `http://localhost:${process.env.E2E_PORT ?? 4173}/`;

interface TaskLine {
  task_id: string;
  type: string;
  question: string;
}
const tasks = readFileSync(path.join(projectRoot, 'static-data/sample/full/tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as TaskLine);

test('a page on another origin embeds two tasks, each iframe as tall as its content', async ({ page }) => {
  const one = tasks.find((t) => t.type === 'single_hop')!;
  const two = tasks.find((t) => t.type === 'aggregation')!;
  const html = readFileSync(path.join(projectRoot, 'test/e2e/embed-test-page.html'), 'utf8')
    .replace('__TASK_1__', one.task_id)
    .replace('__TASK_2__', two.task_id)
    .replace('__SITE__', SITE);
  // The host page is served from another origin (127.0.0.1 on another port), as a blog would be.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-embed-'));
  writeFileSync(path.join(dir, 'page.html'), html);
  const host = await startStaticServer(dir);
  test.info().attach('host', { body: host.url });
  try {
    await page.goto(`${host.url}page.html`);
    await checkFrames(page, one, two);
  } finally {
    await host.close();
  }
});

async function checkFrames(page: Page, one: TaskLine, two: TaskLine): Promise<void> {
  for (const [id, task] of [
    ['first', one],
    ['second', two],
  ] as const) {
    const frame = page.frameLocator(`#${id} iframe`);
    await expect(frame.getByTestId('task-question')).toHaveText(task.question);
    await expect(frame.getByTestId('gold-doc').first()).toBeVisible();
    // No app chrome inside the embed.
    await expect(frame.locator('header nav')).toHaveCount(0);
    const iframe = page.locator(`#${id} iframe`);
    await iframe.scrollIntoViewIfNeeded();
    await expect
      .poll(async () => {
        const content = await frame.getByTestId('embed').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
        const box = await iframe.boundingBox();
        return Math.abs((box?.height ?? 0) - content);
      })
      .toBeLessThanOrEqual(3);
  }
  // Opening a gold document in place changes the height, and the iframe follows.
  const frame = page.frameLocator('#first iframe');
  const before = (await page.locator('#first iframe').boundingBox())!.height;
  await frame.locator('details summary').first().click();
  await expect.poll(async () => (await page.locator('#first iframe').boundingBox())!.height).not.toBe(before);
  await page.screenshot({ path: 'test-results/screens/embed-page.png', fullPage: true });
}

test('the embed page shows a document and the leaderboard as real files (no SPA fallback needed)', async ({ page }) => {
  const response = await page.goto(`${SITE}embed/index.html?view=leaderboard`);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId('leaderboard')).toBeVisible();
  const doc = readFileSync(path.join(projectRoot, 'static-data/sample/full/tasks.jsonl'), 'utf8').match(
    /SMPL\d{8}/,
  )![0];
  await page.goto(`${SITE}embed/?doc=${doc}`);
  await expect(page.getByTestId('doc-text')).toBeVisible();
});

/** The paths of the scripts a page downloads whose code carries `data-testid="<testId>"` (a view's template does). */
function scriptsCarrying(page: Page): (testId: string) => string[] {
  const scripts: Array<{ url: string; body: string }> = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push({ url: response.url(), body: await response.text().catch(() => '') });
  });
  return (testId) =>
    scripts.filter((s) => s.body.includes(`data-testid="${testId}"`)).map((s) => new URL(s.url).pathname);
}

test("an embedded task downloads none of the rankings' or the systems' code, which the task page shows", async ({
  page,
}) => {
  const task = tasks.find((t) => t.type === 'single_hop')!;
  const carrying = scriptsCarrying(page);
  await page.goto(`${SITE}embed/?task=${task.task_id}`);
  await expect(page.getByTestId('gold-doc').first()).toBeVisible();
  await expect(page.getByTestId('embed')).toHaveAttribute('data-pin-check', 'done');
  expect(carrying('task-detail')).not.toEqual([]);
  expect([...carrying('task-rankings'), ...carrying('task-systems')]).toEqual([]);

  await page.goto(`${SITE}?view=task&task=${task.task_id}`);
  await expect(page.getByTestId('task-rankings')).toBeVisible();
  await expect(page.getByTestId('task-systems')).toBeVisible();
  expect(carrying('task-rankings')).not.toEqual([]);
});

test("a leaderboard embed downloads none of the task or document page's code, says so when its own fails, and tries again", async ({
  page,
}) => {
  const carrying = scriptsCarrying(page);
  await page.goto(`${SITE}embed/?view=leaderboard`);
  await expect(page.getByTestId('board-row').first()).toBeVisible();
  await expect(page.getByTestId('embed')).toHaveAttribute('data-pin-check', 'done');
  // Each view's template carries its own test ids; these two belong to the task and document pages.
  expect(carrying('board-row')).not.toEqual([]);
  expect([...carrying('task-detail'), ...carrying('doc-view')]).toEqual([]);

  await page.route(/\/assets\/LeaderboardView-[^/]*\.js$/, (route) => route.abort());
  await page.reload();
  await expect(page.getByTestId('load-failed')).toContainText('Could not load this view');
  await expect(page.getByTestId('board-row')).toHaveCount(0);
  await page.unrouteAll();
  await page.getByRole('button', { name: 'Reload the page' }).click();
  await expect(page.getByTestId('board-row').first()).toBeVisible();
});

test('a page on another origin embeds the map, laid out from the map file it publishes', async ({ page }) => {
  // A published map of twenty of the tasks, in one region: the embed must draw it, not its own layout.
  const placed = tasks.slice(0, 20);
  const lines = [
    ...placed.map((t, i) =>
      JSON.stringify({ id: t.task_id, layer: 'task', x: (i % 5) / 4, y: Math.floor(i / 5) / 3, region: 0 }),
    ),
    JSON.stringify({ region: 0, label: 'published region', count: placed.length }),
  ];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-embed-map-'));
  writeFileSync(path.join(dir, 'bench-map.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(
    path.join(dir, 'page.html'),
    `<!doctype html><html><body><h1>Our benchmark</h1>
<script src="${SITE}embed.js"></script>
<div id="computed"><epstein-bench-embed view="map" theme="light"></epstein-bench-embed></div>
<div id="published"><epstein-bench-embed view="map" map="bench-map.jsonl" theme="dark"></epstein-bench-embed></div>
</body></html>`,
  );
  const host = await startStaticServer(dir);
  try {
    await page.goto(`${host.url}page.html`);
    const computed = page.frameLocator('#computed iframe');
    await expect(computed.getByTestId('map-canvas')).toHaveAttribute('data-points', String(tasks.length));
    await expect(computed.getByTestId('map-layer')).toHaveCount(0);
    await expect(computed.locator('header nav')).toHaveCount(0);
    const published = page.frameLocator('#published iframe');
    await page.locator('#published iframe').scrollIntoViewIfNeeded();
    await expect(published.getByTestId('map-canvas')).toHaveAttribute('data-points', '20');
    await expect(published.getByTestId('map-status')).toContainText(
      `layout from bench-map.jsonl, which leaves out ${tasks.length - 20} tasks of the split`,
    );
    await expect(published.getByTestId('map-region')).toHaveText(/published region\s*20/);
  } finally {
    await host.close();
  }
});

test('a map file that is not one says which line and what it expected', async ({ page }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-bad-map-'));
  writeFileSync(path.join(dir, 'bad.jsonl'), `{"id":"${tasks[0]!.task_id}","layer":"task","x":2,"y":0,"region":0}\n`);
  const host = await startStaticServer(dir);
  try {
    await page.goto(`${SITE}embed/index.html?view=map&map=${encodeURIComponent(`${host.url}bad.jsonl`)}`);
    await expect(page.getByRole('alert')).toContainText('bad.jsonl, line 1: "x" and "y" must be numbers in [0, 1]');
  } finally {
    await host.close();
  }
});
