/**
 * Issue 13, "tried as new users would": sorting, Back and Esc, links, titles, splits, search,
 * the landing, Rejections, Score, Leaderboard and Retrieval as a newcomer meets them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { hasShared, SKIP_NO_SHARED, v10Dir } from './support.ts';
import { go, jsonl, openApp, sampleDir, sidewaysOverflow, type SampleTask } from './ux-support.ts';

const full = jsonl<SampleTask>('full/tasks.jsonl');
const dev = jsonl<SampleTask>('dev/tasks.jsonl');
const manifest = JSON.parse(readFileSync(path.join(sampleDir, 'manifest.json'), 'utf8')) as {
  splits: Record<string, { n_tasks: number; by_type: Record<string, number> }>;
};

async function rowIds(page: Page): Promise<string[]> {
  return page
    .getByTestId('task-row')
    .locator('td.id')
    .evaluateAll((tds) => tds.map((td) => td.getAttribute('title') ?? ''));
}

test('sorting a column cycles ascending, descending and back to the list order', async ({ page }) => {
  await openApp(page);
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  const original = await rowIds(page);
  const header = page.getByTestId('sort-task_id');
  // Sortable before any click: a neutral arrow and aria-sort="none".
  await expect(header).toContainText('↕');
  await expect(page.locator('th', { has: header })).toHaveAttribute('aria-sort', 'none');
  const ids = full.map((t) => t.task_id).sort();

  await header.click();
  await expect(page).toHaveURL(/sort=task_id/);
  await expect(page.getByTestId('task-row').first().locator('td.id')).toHaveAttribute('title', ids[0]!);
  await expect(page.locator('th', { has: header })).toHaveAttribute('aria-sort', 'ascending');

  await header.click();
  await expect(page).toHaveURL(/desc=1/);
  await expect(page.getByTestId('task-row').first().locator('td.id')).toHaveAttribute('title', ids.at(-1)!);
  await expect(page.locator('th', { has: header })).toHaveAttribute('aria-sort', 'descending');
  await expect(header).toContainText('▼');

  await header.click();
  await expect(page).not.toHaveURL(/sort=/);
  await expect(page.getByTestId('task-row').first().locator('td.id')).toHaveAttribute('title', original[0]!);
  await expect(page.locator('th', { has: header })).toHaveAttribute('aria-sort', 'none');

  // The leaderboard's headers cycle the same way.
  await go(page, '?view=leaderboard');
  const overall = page.getByTestId('sort-overall');
  await overall.click();
  await expect(page).toHaveURL(/sort=overall/);
  await overall.click();
  await expect(page).toHaveURL(/desc=1/);
  const scores = await page.getByTestId('board-row').locator('td.strong').allInnerTexts();
  expect(scores.map((s) => parseFloat(s))).toEqual([...scores.map((s) => parseFloat(s))].sort((a, b) => b - a));
  await overall.click();
  await expect(page).not.toHaveURL(/sort=/);
});

test('Back and Esc return to the same row, scrolled where it was', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openApp(page);
  const row = page.locator('[data-row-index="42"]');
  await row.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 200));
  const scrollY = await page.evaluate(() => window.scrollY);
  expect(scrollY).toBeGreaterThan(1000);
  const id = await row.locator('td.id').getAttribute('title');
  await row.locator('a').click();
  await expect(page.getByTestId('task-id')).toHaveText(id!);

  await page.goBack();
  await expect(page.locator('tr.sel')).toHaveAttribute('data-row-index', '42');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrollY - 5);
  expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrollY + 5);
  await expect(row.locator('a')).toBeFocused();

  // Keyboard: j x30 from the top, Enter, then Esc on the task page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('[data-row-index="0"] a').focus();
  for (let i = 0; i < 30; i++) await page.keyboard.press('j');
  await expect(page.locator('tr.sel')).toHaveAttribute('data-row-index', '30');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('task-detail')).toBeVisible();
  await expect(page.getByTestId('task-position')).toHaveText(`31 of ${full.length}`);
  // j walks on to the next task; Esc then returns to that one's row.
  await page.keyboard.press('j');
  await expect(page.getByTestId('task-position')).toHaveText(`32 of ${full.length}`);
  await page.keyboard.press('Escape');
  await expect(page.locator('tr.sel')).toHaveAttribute('data-row-index', '31');
  await expect(page.locator('[data-row-index="31"]')).toBeInViewport();
  await expect(page.locator('[data-row-index="31"] a')).toBeFocused();
});

/** Presses Tab until the focused element matches `selector` (at most `max` presses). */
async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

test('keyboard only: tasks → task → document → back; rejections with j, k and Esc', async ({ page }) => {
  // Svelte's warnings (derived_inert was one on the task page) and page errors, over the whole walk.
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await test.step('tasks \u2192 task \u2192 document \u2192 back, by keyboard', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openApp(page);
    await tabTo(page, '[data-testid="task-row"] a');
    const id = await page.evaluate(() =>
      document.activeElement!.closest('tr')!.querySelector('td.id')!.getAttribute('title'),
    );
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('task-id')).toHaveText(id!);
    // Focus lands on the task, not on <body>.
    expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
    await tabTo(page, '[data-testid="gold-doc"] a[href*="view=doc"]');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('doc-view')).toBeVisible();
    expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
    await page.goBack();
    await expect(page.getByTestId('task-id')).toHaveText(id!);
    await page.keyboard.press('Escape');
    await expect(page.locator('tr.sel td.id')).toHaveAttribute('title', id!);
    await expect(page.locator('tr.sel a')).toBeFocused();
  });

  await test.step('rejections with j, k and Esc', async () => {
    await go(page, '?view=rejections');
    const rows = page.getByTestId('rejection-row');
    await expect(rows.first()).toBeVisible();
    const href = (i: number) => rows.nth(i).locator('a').getAttribute('href');
    const candidateOf = async (i: number) => new URLSearchParams((await href(i))!.split('?')[1]).get('candidate')!;
    await page.keyboard.press('j');
    await expect(page).toHaveURL(new RegExp(`candidate=${await candidateOf(0)}`));
    await expect(page.getByTestId('candidate-detail')).toBeInViewport();
    await page.keyboard.press('j');
    await expect(page).toHaveURL(new RegExp(`candidate=${await candidateOf(1)}`));
    await page.keyboard.press('k');
    await expect(page).toHaveURL(new RegExp(`candidate=${await candidateOf(0)}`));
    await page.keyboard.press('Escape');
    await expect(page).not.toHaveURL(/candidate=/);
    await expect(page.getByTestId('candidate-detail')).toHaveCount(0);
    await expect(rows.first().locator('a')).toBeFocused();
  });
  await test.step('no warning or error in the console', async () => {
    expect(problems).toEqual([]);
  });
});

test('links behave like links: modified clicks open new tabs; pages have titles, a favicon and a copy link', async ({
  page,
  context,
}) => {
  await openApp(page);
  const link = page.getByTestId('task-row').first().locator('a');
  await test.step('a Ctrl-click opens a new tab; the page has a title and a favicon', async () => {
    // The browser opens the tab; what it loads there is the link's href. Some headless Chromium
    // builds (150) never navigate a tab opened this way, so the href is opened in a page of our own.
    const href = await link.evaluate((a) => (a as HTMLAnchorElement).href);
    expect(href).toContain('view=task');
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click({ modifiers: ['Control'] })]);
    await expect(page).not.toHaveURL(/view=task/);
    await tab.close();
    const opened = await context.newPage();
    await opened.goto(href);
    await expect(opened.getByTestId('task-question')).toBeVisible();
    await opened.close();
    await expect(page).toHaveTitle('Tasks – Epstein Bench Explorer');

    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect((await page.request.get(icon!)).status()).toBe(200);
  });

  await test.step('the task page: title, focus on its heading, copy link', async () => {
    const task = full[0]!;
    await link.click();
    await expect(page).toHaveTitle(`Task ${task.task_id.slice(0, 8)} – Epstein Bench Explorer`);
    // Focus moves to the new page's heading, not to <body>.
    await expect(page.getByTestId('task-question')).toBeFocused();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('copy-link').click();
    await expect(page.getByTestId('copy-link-status')).toHaveText('Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  });

  await test.step('a document page and every view have titles', async () => {
    await page.getByTestId('gold-doc').first().getByRole('link').first().click();
    await expect(page).toHaveTitle(/^Document [A-Z]+\d+ – Epstein Bench Explorer$/);
    await expect(page.getByTestId('copy-link')).toBeVisible();
    for (const [search, title] of [
      ['?view=rejections', 'Rejections'],
      ['?view=entities', 'Entities'],
      ['?view=leaderboard', 'Leaderboard'],
      ['?view=card', 'Dataset card'],
      ['?view=search', 'Retrieval'],
      ['?view=score', 'Score'],
    ] as const) {
      await go(page, search);
      await expect(page).toHaveTitle(`${title} – Epstein Bench Explorer`);
    }
  });
});

test('one split at a time: full by default with counts equal to the manifest, dev one click away', async ({ page }) => {
  await openApp(page);
  await expect(page.getByTestId('task-total')).toHaveText(`${manifest.splits.full!.n_tasks} tasks`);
  await expect(page.getByTestId('task-row')).toHaveCount(full.length);
  const counts: Record<string, number> = {};
  for (const b of await page.getByTestId('facet-type').locator('button.facet').all())
    counts[(await b.locator('.label').innerText()).trim()] = Number(await b.locator('.count').innerText());
  expect(counts).toEqual(manifest.splits.full!.by_type);
  await expect(page.getByTestId('split-full')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('split-dev').click();
  await expect(page).toHaveURL(/split=dev/);
  await expect(page.getByTestId('task-total')).toHaveText(`${dev.length} tasks`);
  await page.getByTestId('split-full').click();
  await expect(page).not.toHaveURL(/split=/);
});

test('search finds a pasted task id, its 8-character prefix, a doc id and a name with a typo', async ({ page }) => {
  await openApp(page);
  const task = full.find((t) => t.question.includes('Quillfeather'))!;
  const search = page.getByTestId('task-search');
  await search.fill(task.task_id.slice(0, 8));
  await expect(page.getByTestId('task-row')).toHaveCount(1);
  await expect(page.getByTestId('task-row').locator('td.id')).toHaveAttribute('title', task.task_id);
  await search.fill(task.task_id);
  await expect(page.getByTestId('task-row')).toHaveCount(1);

  const doc = task.gold_docs[0]!;
  const using = full.filter((t) => t.gold_docs.includes(doc) || t.source_doc_ids.includes(doc)).map((t) => t.task_id);
  await search.fill(doc);
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  const found = await rowIds(page);
  for (const id of using) expect(found).toContain(id);

  await search.fill('Quilfeather');
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  expect(await rowIds(page)).toContain(task.task_id);

  await search.fill('zzqxv nothing like this');
  await expect(page.getByTestId('no-match')).toContainText('No task matches “zzqxv nothing like this”');
  // The facets stay, with their values at 0.
  await expect(page.getByTestId('facet-type-single_hop').locator('.count')).toHaveText('0');
  await page.getByTestId('no-match').getByRole('button', { name: 'Clear the search' }).click();
  await expect(page.getByTestId('task-total')).toHaveText(`${full.length} tasks`);
});

test('the landing says what this is, what is loaded (fictional) and what the task types mean', async ({ page }) => {
  await openApp(page);
  const welcome = page.getByTestId('welcome');
  await expect(welcome).toContainText('Epstein Bench tests question answering');
  await expect(page.getByTestId('welcome-release')).toContainText('Epstein Bench sample release');
  await expect(page.getByTestId('welcome-release').getByTestId('fictional-mark')).toBeVisible();
  await welcome.getByText('The six task types').click();
  await expect(welcome.locator('dt')).toHaveCount(6);
  // The header names the release, marked fictional, without layout jargon; the details say where it came from.
  await expect(page.getByTestId('release-title')).not.toContainText('layout');
  await expect(page.getByTestId('release-title').getByTestId('fictional-mark')).toBeVisible();
  await page.getByTestId('release-files').locator('summary').click();
  await expect(page.getByTestId('release-where')).toContainText('static-data/sample');
  // Type badges explain themselves.
  await expect(page.getByTestId('task-row').first().locator('.type-badge')).toHaveAttribute('title', /: /);
});

test('rejections: a candidate opens in view, stages are explained and named alike, funnel and cells filter', async ({
  page,
}) => {
  await test.step('a candidate opens in view, its stage explained', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openApp(page, '?view=rejections');
    await expect(page.getByTestId('rejection-row').nth(60)).toBeVisible();
    await page.getByTestId('rejection-row').nth(60).locator('a').click();
    await expect(page.getByTestId('candidate-why')).toBeVisible();
    await expect(page.getByTestId('candidate-detail')).toBeInViewport();
    await expect(page.getByTestId('candidate-stage-help')).not.toBeEmpty();
  });

  await test.step('doc ids in what a stage saw are links', async () => {
    // Doc ids in what the stage saw are links.
    const details = jsonl<{ task_id: string; saw: string }>('build/rejection-details.jsonl');
    const withDoc = details.find((d) => /SMPL\d{5,}/.test(d.saw) && !d.saw.startsWith('pool'))!;
    await go(page, `?view=rejections&candidate=${withDoc.task_id}`);
    const docId = /SMPL\d{5,}/.exec(withDoc.saw)![0];
    await expect(page.getByTestId('candidate-saw').getByRole('link', { name: docId }).first()).toBeVisible();
  });

  await test.step('one name per stage: funnel, table header and facet', async () => {
    // One name per stage: funnel, table header and facet all say "pooling".
    await go(page, '?view=rejections');
    await expect(page.getByTestId('funnel-step-pooling')).toContainText('pooling');
    await expect(page.getByTestId('funnel-table').locator('th', { hasText: 'pooling' })).toHaveCount(1);
    await expect(page.getByTestId('facet-stage-pooling').locator('.label')).toHaveText('pooling');
    await expect(page.getByText('dropped', { exact: true })).toHaveCount(0);
    await page.getByTestId('stage-help').locator('summary').click();
    await expect(page.getByTestId('stage-help')).toContainText('token-F1');
  });

  await test.step('the funnel and its cells filter the list', async () => {
    const rejected = jsonl<{ type: string; reason: string }>('build/rejected.jsonl');
    await page.getByTestId('funnel-step-necessity').click();
    await expect(page).toHaveURL(/stage=necessity/);
    await expect(page.getByTestId('rejection-total')).toHaveText(
      `${rejected.filter((r) => r.reason === 'necessity').length} rejected`,
    );
    await page.getByTestId('funnel-aggregation-answerability').getByRole('button').click();
    await expect(page).toHaveURL(/type=aggregation/);
    await expect(page.getByTestId('rejection-total')).toHaveText(
      `${rejected.filter((r) => r.reason === 'answerability' && r.type === 'aggregation').length} rejected`,
    );
  });
});

test('leaderboard numbers are formatted and a control above the best system is explained', async ({ page }) => {
  await openApp(page, '?view=leaderboard');
  await expect(page.getByTestId('control-above-best')).toContainText('always refuses');
  await expect(page.getByTestId('control-above-best')).toContainText('fictional sample');
  await page.getByTestId('board-row').first().getByRole('button').click();
  await expect(page.getByTestId('board-scores')).toBeVisible();
  expect(await page.getByTestId('board-scores').innerText()).not.toMatch(/\d\.\d{5,}/);
  await expect(page.getByTestId('board-scores')).toContainText('%');
});

test('score: the scorecard is in the URL, runs from the shipped cache, links its tasks and says what is comparable', async ({
  page,
}) => {
  await test.step('a shipped submission named in the URL scores from the cache after a reload', async () => {
    await openApp(page, '?view=score');
    await expect(page.getByTestId('inputs-state')).toContainText('Tasks:');
    await page.getByTestId('release-submission').selectOption('bm25-top-doc-sample');
    await expect(page).toHaveURL(/submission=bm25-top-doc-sample/);
    await page.reload();
    await expect(page.getByTestId('scorecard')).toBeVisible();
    await expect(page.getByTestId('headline-score')).toHaveText('24.3%');
    await expect(page.getByTestId('per-type-ci').first()).toHaveText(/\d+%–\d+%/);
    await expect(page.getByTestId('not-comparable')).toHaveCount(0);
    // The leaderboard's systems are named as on the Leaderboard.
    await expect(page.getByTestId('leaderboard-place')).toContainText('always-refuse sample control');
  });

  await test.step('the verdicts filter, open and link to their task', async () => {
    await page.getByTestId('filter-type').selectOption('single_hop');
    await expect(page.getByTestId('verdict-count')).toHaveText(
      `${full.filter((t) => t.type === 'single_hop').length} of ${full.length} tasks`,
    );
    await page.getByTestId('filter-text').fill(full.find((t) => t.type === 'single_hop')!.task_id.slice(0, 8));
    await expect(page.getByTestId('verdict-row')).toHaveCount(1);
    await page.getByTestId('verdict-row').getByRole('button').click();
    await expect(page.getByTestId('verdict-citations').getByRole('link').first()).toBeVisible();
    await page.getByTestId('verdict-task-link').click();
    await expect(page.getByTestId('task-detail')).toBeVisible();
  });

  // A subset of the tasks is not comparable with the full-split leaderboard.
  const subset = readFileSync(path.join(sampleDir, 'full/tasks.jsonl'), 'utf8').split('\n').slice(0, 70).join('\n');
  const ids = new Set(full.slice(0, 70).map((t) => t.task_id));
  const predictions = readFileSync(path.join(sampleDir, 'submissions/bm25-top-doc-sample/predictions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter((l) => ids.has((JSON.parse(l) as { task_id: string }).task_id));
  await test.step('a subset of the tasks is scored and said not comparable', async () => {
    await openApp(page, '?view=score');
    await expect(page.getByTestId('inputs-state')).toContainText('Tasks:');
    await page
      .getByTestId('tasks-file')
      .setInputFiles({ name: 'tasks.jsonl', mimeType: 'application/json', buffer: Buffer.from(`${subset}\n`) });
    await expect(page.getByTestId('inputs-state')).toContainText('(70)');
    await page.getByTestId('predictions-file').setInputFiles({
      name: 'predictions.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(`${predictions.join('\n')}\n`),
    });
    await expect(page.getByTestId('validation-ok')).toBeVisible();
    await page.getByTestId('score-run').click();
    await expect(page.getByTestId('not-comparable')).toContainText('70 tasks');
  });

  await test.step('edited predictions: with uncached calls and no key, scoring is not offered', async () => {
    // Uncached calls and no key: the button does not promise a score from the cache.
    const changed = predictions.map((l) => {
      const p = JSON.parse(l) as { answer: string };
      return JSON.stringify({ ...p, answer: `${p.answer} (edited)` });
    });
    await page.getByTestId('predictions-file').setInputFiles({
      name: 'edited.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(`${changed.join('\n')}\n`),
    });
    await expect(page.getByTestId('judge-uncached')).not.toHaveText('0');
    await expect(page.getByTestId('score-run')).not.toHaveText(/from cache/);
    await expect(page.getByTestId('score-run')).toBeDisabled();
  });

  await test.step('importing the shipped cache does not double the count', async () => {
    // Importing the shipped cache does not double the count.
    const shipped = readFileSync(path.join(sampleDir, 'judge-cache.json'));
    const n = Object.keys(JSON.parse(shipped.toString('utf8')) as object).length;
    await page
      .getByTestId('cache-import-file')
      .setInputFiles({ name: 'judge-cache.json', mimeType: 'application/json', buffer: shipped });
    await expect(page.getByTestId('cache-stored')).toHaveText(n.toLocaleString('en'));
    await expect(page.getByTestId('cache-distinct')).toHaveText(n.toLocaleString('en'));
  });
});

test('retrieval: the run-all table groups the benchmark and trec_eval columns, and the page has no errors', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openApp(page, '?view=search');
  await page.getByTestId('run-all-start').click();
  await expect(page.getByTestId('run-all-scorecard')).toBeVisible();
  await expect(page.getByTestId('run-all-scorecard').locator('th.group')).toHaveText(['benchmark', 'trec_eval (-c)']);
  await expect(page.getByTestId('run-all-explain')).toContainText('tie');
  expect(errors).toEqual([]);
});

test.describe('the real v1.0 files', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);

  test('retrieval says why it cannot run without indexes; the long task list is usable on a phone', async ({
    page,
  }) => {
    await openApp(page);
    await page.getByTestId('open-load-dialog').click();
    await page.getByTestId('pick-folder').setInputFiles(v10Dir);
    await expect(page.getByTestId('release-title')).toContainText('Epstein Bench v1.0');
    await expect(page.getByTestId('release-title').getByTestId('fictional-mark')).toHaveCount(0);
    await expect(page.getByTestId('task-total')).toHaveText('1,038 tasks');

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    // The virtualised list scrolls to its end and still shows stacked rows.
    await page.getByTestId('tasks-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect(page.locator('[data-row-index="1037"]')).toBeVisible();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    await page.setViewportSize({ width: 1280, height: 900 });
    await go(page, '?view=search');
    await expect(page.getByTestId('run-all-unavailable')).toContainText('no retrieval indexes');
    await expect(page.getByTestId('run-all-start')).toBeDisabled();
    await expect(page.getByTestId('run-all-method')).toBeDisabled();
  });
});
