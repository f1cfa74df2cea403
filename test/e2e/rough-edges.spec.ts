/**
 * The rough edges of the second newcomer walk (issue 25, items 1–10 and 15), each as the page
 * shows it: counts in the singular, the phone's way from the filters to the results, a document
 * opened at its highlight and with a way back to its task, facets that keep their order, Esc and
 * the skip link, the skip past the gauntlet funnel, the header with a short title, the landing's
 * next steps, the sample's fictional sources and the grounding rule in words.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { go, jsonl, openApp, sampleDir, type SampleTask } from './ux-support.ts';

const tasks = jsonl<SampleTask>('full/tasks.jsonl');

/** A single_hop task whose answer sits far into its gold document (over 2,000 characters in). */
async function taskWithLateAnswer(): Promise<{ task: SampleTask; docId: string; at: number }> {
  const file = await asyncBufferFromFile(path.join(sampleDir, 'docs.parquet'));
  const rows = (await parquetReadObjects({ file, columns: ['doc_id', 'text'] })) as Array<{
    doc_id: string;
    text: string;
  }>;
  const text = new Map(rows.map((r) => [r.doc_id, r.text.toLowerCase()]));
  let best: { task: SampleTask; docId: string; at: number } | undefined;
  for (const task of tasks.filter((t) => t.type === 'single_hop' && t.answer)) {
    const docId = task.gold_docs[0]!;
    const at = text.get(docId)?.indexOf(task.answer!.toLowerCase()) ?? -1;
    if (at > (best?.at ?? 2000)) best = { task, docId, at };
  }
  expect(best, 'the sample has a single_hop answer over 2,000 characters into its gold document').toBeDefined();
  return best!;
}

const inViewport = (page: Page, testid: string) =>
  page
    .getByTestId(testid)
    .first()
    .evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });

/** The sample release as another release would describe it: a short title, and without some files. */
async function routeSampleDescriptor(page: Page, change: (d: Record<string, unknown>) => void): Promise<void> {
  const descriptor = JSON.parse(readFileSync(path.join(sampleDir, 'release.json'), 'utf8')) as Record<string, unknown>;
  change(descriptor);
  await page.route('**/static-data/sample/release.json', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify(descriptor) }),
  );
}

// Routes must see every release read (no service worker answering from its copy).
test.use({ serviceWorkers: 'block' });

test('a count of one is said in the singular', async ({ page }) => {
  await openApp(page, `?q=${tasks[0]!.task_id}`);
  await expect(page.getByTestId('task-total')).toHaveText('1 task');
  await go(page, '?q=zzzzzzzz-no-such-task');
  await expect(page.getByTestId('task-total')).toHaveText('0 tasks');
});

test('on a phone, "Show N tasks" closes the filters and goes to the first result', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page);
  await page.getByTestId('filters-toggle').click();
  await page.getByTestId('facet-type-timeline').click();
  const show = page.getByTestId('filters-show-results');
  await expect(show).toHaveText('Show 10 tasks');
  // Held at the bottom of the screen while the facets are open.
  expect(await inViewport(page, 'filters-show-results')).toBe(true);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/screens/tasks-filters-open-390-${scheme}.png` });
  }
  await show.click();
  await expect(page.getByTestId('facet-type')).toBeHidden();
  await expect(page.getByTestId('filters-toggle')).toHaveText('Filters (1)');
  await expect.poll(() => inViewport(page, 'task-row')).toBe(true);
  await expect(page.getByTestId('task-row').first().locator(':focus')).toHaveCount(1);
});

test('a document opened with a highlight scrolls to it; the match count links to it; a way back to the task', async ({
  page,
}) => {
  const { task, docId } = await taskWithLateAnswer();
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, `?view=task&task=${task.task_id}&split=full`);
  const gold = page.getByTestId('gold-doc').filter({ hasText: docId });
  await gold.getByRole('link', { name: 'open the document page' }).click();
  await expect(page).toHaveURL(new RegExp(`view=doc&doc=${docId}`));
  await expect(page.getByTestId('highlight').first()).toBeVisible();
  await expect.poll(() => inViewport(page, 'highlight')).toBe(true);

  // From the top of the page, the count line goes to the match (and no #fragment joins the URL).
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(await inViewport(page, 'highlight')).toBe(false);
  await page.getByTestId('highlight-link').click();
  await expect.poll(() => inViewport(page, 'highlight')).toBe(true);
  await expect(page.getByTestId('highlight').first()).toBeFocused();
  expect(new URL(page.url()).hash).toBe('');

  // Back to the task it was opened from.
  const back = page.getByTestId('doc-back-to-task');
  await expect(back).toContainText(task.task_id.slice(0, 8));
  await back.click();
  await expect(page).toHaveURL(new RegExp(`view=task&task=${task.task_id}`));
  await expect(page.getByTestId('task-question')).toBeVisible();
});

test('a document page opened by link names its task and leads back to it', async ({ page }) => {
  const { task, docId } = await taskWithLateAnswer();
  await openApp(page, `?view=doc&doc=${docId}&from=${task.task_id}&split=full`);
  await page.getByTestId('doc-back-to-task').click();
  await expect(page).toHaveURL(new RegExp(`view=task&task=${task.task_id}&split=full`));
  await expect(page.getByTestId('task-question')).toBeVisible();
  // A document opened from elsewhere offers no such link.
  await go(page, `?view=doc&doc=${docId}`);
  await expect(page.getByTestId('doc-view')).toBeVisible();
  await expect(page.getByTestId('doc-back-to-task')).toHaveCount(0);
});

test('with a filter on, numeric facets keep their order, zeros greyed; the dev button keeps its count', async ({
  page,
}) => {
  // As a user meets it: the list first, then a filter.
  await openApp(page);
  await expect(page.getByTestId('facet-n_gold').getByTestId('facet-n_gold-0')).toBeVisible();
  await page.getByTestId('facet-type-timeline').click();
  await expect(page.getByTestId('task-total')).toHaveText('10 tasks');
  const values = await page
    .getByTestId('facet-n_gold')
    .locator('button.facet')
    .evaluateAll((els) => els.map((e) => ({ id: e.getAttribute('data-testid')!, zero: e.classList.contains('zero') })));
  const numbers = values.map((v) => v.id.replace('facet-n_gold-', '')).filter((v) => /^\d+$/.test(v));
  expect(numbers.length).toBeGreaterThan(2);
  expect(numbers).toEqual([...numbers].sort((a, b) => Number(a) - Number(b)));
  expect(values.some((v) => v.zero)).toBe(true);
  for (const v of values.filter((x) => x.zero))
    await expect(page.getByTestId(v.id).getByTestId('facet-count')).toHaveText('0');
  // The dev split has no timeline task: its button says so rather than losing its count.
  await expect(page.getByTestId('split-dev')).toHaveText('dev · 0');
  await expect(page.getByTestId('split-full')).toHaveText('full · 10');
});

test('Esc in the search box clears it and keeps focus there; the skip link adds no #main', async ({ page }) => {
  await openApp(page);
  const box = page.getByTestId('task-search');
  await box.fill('Quillfeather');
  await expect(page).toHaveURL(/q=Quillfeather/);
  await box.press('Escape');
  await expect(box).toHaveValue('');
  await expect(box).toBeFocused();
  await expect(page).not.toHaveURL(/q=/);
  await box.pressSequentially('ledger');
  await expect(page).toHaveURL(/q=ledger/);

  await page.getByRole('link', { name: 'Skip to content' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  expect(new URL(page.url()).hash).toBe('');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Leaderboard' }).click();
  await expect(page.getByTestId('board-row').first()).toBeVisible();
  expect(page.url()).not.toContain('#');
});

test('Rejections: one Tab from the heading reaches a skip past the funnel to the first candidate', async ({ page }) => {
  await openApp(page, '?view=rejections');
  await expect(page.getByTestId('rejection-row').first()).toBeVisible();
  await page.getByRole('heading', { name: 'Gauntlet funnel' }).evaluate((h) => {
    h.setAttribute('tabindex', '-1');
    (h as HTMLElement).focus();
  });
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-to-rejected')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rejection-row').first().getByRole('link')).toBeFocused();
  expect(new URL(page.url()).hash).toBe('');
});

test('a short release title leaves the nav in its row and the actions at the right', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const placement = async () => {
    const nav = (await page.getByRole('navigation', { name: 'Views' }).boundingBox())!;
    const load = (await page.getByTestId('open-load-dialog').boundingBox())!;
    const theme = (await page.getByTestId('theme').boundingBox())!;
    return { navTop: nav.y, navLeft: nav.x, loadTop: load.y, themeRight: theme.x + theme.width };
  };
  await openApp(page);
  const long = await placement();
  await routeSampleDescriptor(page, (d) => (d.title = 'v1.0'));
  await openApp(page);
  await expect(page.getByTestId('release-title')).toContainText('v1.0');
  const short = await placement();
  expect(short).toEqual(long);
  // The actions share one row, at the right; the views have their own row below it.
  expect(short.navTop).toBeGreaterThan(short.loadTop);
  expect(short.themeRight).toBeGreaterThan(1440 - 40);
});

test("the landing's next steps follow what the release holds", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page);
  const next = page.getByTestId('welcome-next');
  await expect(next).toContainText('see the rejected candidates');
  await expect(next).toContainText('try the retrieval playground');
  await expect(next.getByRole('link', { name: 'see the rejected candidates' })).toHaveAttribute(
    'href',
    '?view=rejections',
  );

  await routeSampleDescriptor(page, (d) => {
    const files = d.files as Record<string, string>;
    for (const kind of ['candidates', 'verified', 'pooled', 'rejected', 'rejection_details', 'pool_dropped'])
      delete files[kind];
    delete d.indexes;
  });
  await openApp(page);
  await expect(page.getByTestId('welcome-next')).toContainText('score your predictions');
  await expect(page.getByTestId('welcome-next')).not.toContainText('rejected candidates');
  await expect(page.getByTestId('welcome-next')).not.toContainText('retrieval playground');
});

test("the sample's documents say their source is fictional instead of linking to sample.invalid", async ({ page }) => {
  const docId = tasks.find((t) => t.gold_docs.length > 0)!.gold_docs[0]!;
  await openApp(page, `?view=doc&doc=${docId}`);
  await expect(page.getByTestId('doc-meta')).toBeVisible();
  await expect(page.getByTestId('doc-source-fictional')).toContainText('fictional sample');
  await expect(page.locator('a[href*="sample.invalid"]')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'source PDF' })).toHaveCount(0);
});

test('Grounding says why timelines fail the per-document rule, and gives the rule in words beside its Python', async ({
  page,
}) => {
  await openApp(page, '?view=audit');
  await expect(page.getByTestId('grounding-row').first()).toBeVisible();
  const note = page.getByTestId('grounding-timeline-note');
  await expect(note).toContainText('All 8 tasks not grounded are timelines');
  await expect(note).toContainText('60%');
  const rule = page.getByTestId('rule-grounding');
  await expect(rule.locator('p')).toContainText('at least 60% of the claim');
  await expect(rule.locator('p')).not.toContainText('re.findall');
  await expect(page.getByTestId('rule-grounding-python')).toContainText(
    'len(tokens(claim) & tokens(doc)) >= 0.6 * len(tokens(claim))',
  );
});
