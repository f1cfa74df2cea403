import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { hasShared, projectRoot, SKIP_NO_SHARED, v10Dir } from './support.ts';

const sampleDir = path.join(projectRoot, 'static-data/sample');

interface TaskLine {
  task_id: string;
  question: string;
  type: string;
  answer: string | null;
  gold_docs: string[];
  source_doc_ids: string[];
  provenance: { salience?: number; pool_size?: number; candidate_doc_ids?: string[] };
}
const jsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);

/** A facet's values and counts; values listed at 0 (seen under other filters) are left out. */
async function facetCounts(page: Page, facet: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const b of await page.getByTestId(`facet-${facet}`).locator('button.facet').all()) {
    const count = Number((await b.locator('.count').innerText()).replace(/,/g, ''));
    if (count > 0) out[(await b.locator('.label').innerText()).trim()] = count;
  }
  return out;
}
test.describe('the sample release', () => {
  const full = jsonl<TaskLine>(path.join(sampleDir, 'full/tasks.jsonl'));
  const dev = jsonl<TaskLine>(path.join(sampleDir, 'dev/tasks.jsonl'));

  test('type + salience filters count what tasks.jsonl says (full split), and the URL keeps them', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    await page.getByTestId('facet-type-single_hop').click();
    await page.getByTestId('facet-salience-4').click();
    const salience = (t: TaskLine, ...levels: number[]) =>
      t.type === 'single_hop' && levels.includes(t.provenance.salience ?? -1);
    await expect(page.getByTestId('task-total')).toHaveText(`${full.filter((t) => salience(t, 4)).length} tasks`);
    await expect(page).toHaveURL(/type=single_hop/);
    await expect(page).toHaveURL(/salience=4/);
    // The dev split is one click away, with the same filters.
    await page.getByTestId('split-dev').click();
    await expect(page.getByTestId('task-total')).toHaveText(`${dev.filter((t) => salience(t, 4)).length} tasks`);
    await page.getByTestId('split-full').click();
    // OR within a facet: adding a second salience widens the list.
    await page.getByTestId('facet-salience-5').click();
    await expect(page.getByTestId('task-total')).toHaveText(`${full.filter((t) => salience(t, 4, 5)).length} tasks`);
    // Back undoes the last filter.
    await page.goBack();
    await expect(page.getByTestId('task-total')).toHaveText(`${full.filter((t) => salience(t, 4)).length} tasks`);
  });

  test('free-text search (Orama) finds a task by words of its answer', async ({ page }) => {
    const target = full.find((t) => t.answer && t.answer.split(' ').length >= 3)!;
    await page.goto(`/?q=${encodeURIComponent(target.answer!)}`);
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    const ids = await page
      .getByTestId('task-row')
      .locator('td.id')
      .evaluateAll((tds) => tds.map((td) => td.getAttribute('title')));
    expect(ids).toContain(target.task_id);
  });

  test('a task permalink shows its gold document with the answer highlighted', async ({ page }) => {
    const task = full.find((t) => t.type === 'single_hop' && t.answer)!;
    await page.goto(`/?view=task&task=${task.task_id}&split=full`);
    await expect(page.getByTestId('reference-answer')).toHaveText(task.answer!);
    await expect(page.getByTestId('gold-doc')).toHaveCount(task.gold_docs.length);
    const mark = page.getByTestId('highlight').first();
    await expect(mark).toBeVisible();
    expect((await mark.innerText()).toLowerCase()).toContain(task.answer!.split(' ')[0]!.toLowerCase());
    await expect(page.getByTestId('pool-table')).toBeVisible();
    await expect(page.locator('section[data-slot="rankings"]')).toHaveCount(1);
  });

  test('a provenance list of documents links them once it is opened', async ({ page }) => {
    const task = full.find((t) => (t.provenance.candidate_doc_ids?.length ?? 0) > 0)!;
    const ids = task.provenance.candidate_doc_ids!;
    await page.goto(`/?view=task&task=${task.task_id}&split=full`);
    const list = page.getByTestId('provenance').locator('details');
    await expect(list.locator('summary')).toHaveText(`${ids.length} docs`);
    await expect(list.locator('a')).toHaveCount(0);
    await list.locator('summary').press('Enter');
    await expect(list.locator('a')).toHaveCount(ids.length);
    await expect(list.locator('a').first()).toHaveText(ids[0]!);
  });

  test('keyboard: / focuses search, j/k move, Enter opens, j walks tasks, Esc goes back', async ({ page }) => {
    await page.goto('/?type=timeline&split=full');
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    await page.keyboard.press('/');
    await expect(page.getByTestId('task-search')).toBeFocused();
    await page.keyboard.press('Escape');
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await expect(page.locator('tr.sel')).toHaveAttribute('data-row-index', '1');
    await page.keyboard.press('Enter');
    const timeline = full.filter((t) => t.type === 'timeline');
    await expect(page.getByTestId('task-id')).toHaveText(timeline[1]!.task_id);
    await expect(page.getByTestId('task-position')).toHaveText(`2 of ${timeline.length}`);
    await page.keyboard.press('j');
    await expect(page.getByTestId('task-id')).toHaveText(timeline[2]!.task_id);
    await expect(page.getByTestId('task-position')).toHaveText(`3 of ${timeline.length}`);
    await page.keyboard.press('k');
    await expect(page.getByTestId('task-id')).toHaveText(timeline[1]!.task_id);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('tasks-table')).toBeVisible();
    await expect(page).toHaveURL(/type=timeline/);
  });

  test('a document page shows its text, chunks, entities and the tasks using it', async ({ page }) => {
    const task = full.find((t) => t.type === 'single_hop' && t.answer)!;
    const doc = task.gold_docs[0]!;
    await page.goto(`/?view=doc&doc=${doc}&hl=${encodeURIComponent(task.answer!)}`);
    await expect(page.getByTestId('doc-text')).toBeVisible();
    await expect(page.getByTestId('doc-quality')).toHaveText(/clean|degraded|garbage/);
    await expect(page.getByTestId('chunk-summary')).toContainText("matches the release's chunks");
    await expect(page.getByTestId('doc-uses')).toContainText(task.question);
    // One line per task, whatever roles the document plays in it (gold and source here).
    const both = full.find((t) => t.type === 'single_hop' && t.gold_docs.some((d) => t.source_doc_ids.includes(d)))!;
    await page.goto(`/?view=doc&doc=${both.gold_docs.find((d) => both.source_doc_ids.includes(d))}`);
    const line = page.getByTestId('doc-uses').locator('li').filter({ hasText: both.question });
    await expect(line).toHaveCount(1);
    await expect(line.locator('.role')).toContainText(['gold', 'source']);
    const hrefs = await page
      .getByTestId('doc-uses')
      .locator('li > a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(new Set(hrefs).size).toBe(hrefs.length);
    await expect(page.getByRole('heading', { name: /^Used by / })).toHaveText(
      `Used by ${hrefs.length} task${hrefs.length === 1 ? '' : 's'}`,
    );
  });

  test('a rejected candidate shows its stage, what it saw and why; the funnel equals the log', async ({ page }) => {
    const rejected = jsonl<{ task_id: string; type: string; reason: string }>(
      path.join(sampleDir, 'build/rejected.jsonl'),
    );
    const details = jsonl<{ task_id: string; stage: string; saw: string; why: string }>(
      path.join(sampleDir, 'build/rejection-details.jsonl'),
    );
    const dropped = jsonl<{ task_id: string }>(path.join(sampleDir, 'build/pool_dropped.jsonl'));
    await page.goto('/?view=rejections');
    const stageOf = (r: string) => (r.includes(':') ? r.slice(0, r.indexOf(':')) : r);
    for (const stage of ['standalone', 'answerability', 'necessity', 'adjudication', 'error']) {
      const n = rejected.filter((r) => stageOf(r.reason) === stage).length;
      await expect(page.getByTestId(`funnel-rejected-${stage}`)).toHaveText(String(n));
    }
    await expect(page.getByTestId('funnel-rejected-pooling')).toHaveText(String(dropped.length));
    const byTypeStage = rejected.filter(
      (r) => r.type === 'aggregation' && stageOf(r.reason) === 'answerability',
    ).length;
    await expect(page.getByTestId('funnel-aggregation-answerability')).toHaveText(String(byTypeStage));

    const pick = rejected.find((r) => r.reason === 'necessity')!;
    const detail = details.find((d) => d.task_id === pick.task_id)!;
    await page.getByTestId('facet-stage-necessity').click();
    await expect(page.getByTestId('rejection-total')).toHaveText(
      `${rejected.filter((r) => r.reason === 'necessity').length} rejected`,
    );
    await page.goto(`/?view=rejections&candidate=${pick.task_id}`);
    await expect(page.getByTestId('candidate-stage')).toHaveText('necessity');
    await expect(page.getByTestId('candidate-saw')).toHaveText(detail.saw);
    await expect(page.getByTestId('candidate-why')).toHaveText(detail.why);
  });

  test('the dataset card is rendered and its tables agree with the loaded files', async ({ page }) => {
    await page.goto('/?view=card');
    await expect(page.getByTestId('card').locator('table').first()).toBeVisible();
    await expect(page.getByTestId('card-verdict')).toContainText('all agree');
    const checked = Number((await page.getByTestId('card-verdict').innerText()).split(' ')[0]);
    expect(checked).toBeGreaterThan(40);
    await expect(page.getByTestId('card').locator('script, iframe')).toHaveCount(0);
  });

  test('entities list targets with the tasks about each', async ({ page }) => {
    const targets = JSON.parse(readFileSync(path.join(sampleDir, 'targets.json'), 'utf8')) as Record<string, unknown>;
    await page.goto('/?view=entities');
    await expect(page.getByTestId('entity-row').filter({ has: page.locator('.tag') })).toHaveCount(
      Object.keys(targets).length,
    );
    const withTasks = page.getByTestId('entity-row').filter({ has: page.locator('td.num:last-child:not(:text("0"))') });
    await withTasks.first().locator('a').click();
    await expect(page.getByTestId('entity-detail').locator('li').first()).toBeVisible();
  });

  test('no {@html}-style injection: question text renders as text', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    expect(await page.locator('main script').count()).toBe(0);
  });
});

test.describe('the real v1.0 files', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);

  test('facets per type equal the manifest; a task shows gold ids and says text is unavailable offline', async ({
    page,
  }) => {
    const manifest = JSON.parse(readFileSync(path.join(v10Dir, 'manifest.json'), 'utf8')) as {
      splits: Record<string, { by_type: Record<string, number> }>;
    };
    await page.goto('/');
    await page.getByTestId('open-load-dialog').click();
    await page.getByTestId('pick-folder').setInputFiles(v10Dir);
    await expect(page.getByTestId('release-title')).toContainText('Epstein Bench v1.0');
    await expect(page.getByTestId('task-total')).toHaveText('1,038 tasks');
    expect(await facetCounts(page, 'type')).toEqual(manifest.splits.full!.by_type);
    await page.getByTestId('split-dev').click();
    await expect(page.getByTestId('task-total')).toHaveText('50 tasks');
    expect(await facetCounts(page, 'type')).toEqual(manifest.splits.dev!.by_type);
    const devTasks = jsonl<TaskLine>(path.join(v10Dir, 'dev/tasks.jsonl'));
    const task = devTasks.find((t) => t.gold_docs.length > 0)!;
    await page.getByTestId('task-row').first().click();
    await expect(page.getByTestId('task-id')).toHaveText(task.task_id);
    await expect(page.getByTestId('corpus-unavailable')).toContainText('text unavailable offline');
    for (const d of task.gold_docs) await expect(page.getByTestId('gold-doc-id').filter({ hasText: d })).toHaveCount(1);
    await page.screenshot({ path: 'test-results/screens/task-v1.0-dev.png', fullPage: true });

    await page.getByRole('link', { name: 'Leaderboard' }).click();
    await expect(page.getByTestId('board-row')).toHaveCount(7);
    await expect(page.getByTestId('board-row').filter({ hasText: 'Closed book' }).getByTestId('board-rank')).toHaveText(
      '—',
    );
    await expect(
      page.getByTestId('board-row').filter({ hasText: 'Claude Sonnet 5 agent' }).getByTestId('board-rank'),
    ).toHaveText('1');
    await page.getByRole('button', { name: 'BM25 keyword search' }).click();
    await expect(page.getByTestId('board-scores')).toContainText('retrieval.recall@20');
    await page.screenshot({ path: 'test-results/screens/leaderboard-v1.0.png', fullPage: true });
  });
});
