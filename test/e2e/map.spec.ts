import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { hasShared, SKIP_NO_SHARED, startStaticServer, v10Dir } from './support.ts';
import { jsonl, sampleDir, type SampleTask } from './ux-support.ts';

const tasks = jsonl<SampleTask>('full/tasks.jsonl');

const canvas = (page: Page) => page.getByTestId('map-canvas');

/** Draws a lasso on the map through the given points (shares of its side from the top left), closing it. */
async function drawLasso(page: Page, around: ReadonlyArray<readonly [number, number]>): Promise<void> {
  const box = (await canvas(page).boundingBox())!;
  const to = ([x, y]: readonly [number, number]) => [box.x + box.width * x, box.y + box.height * y] as const;
  await page.mouse.move(...to(around[0]!));
  await page.mouse.down();
  for (const p of [...around.slice(1), around[0]!]) await page.mouse.move(...to(p), { steps: 4 });
  await page.mouse.up();
}

test('the map of the sample: every task a point, its regions listed, a facet dims the others', async ({ page }) => {
  await page.goto('/?view=map');
  await expect(canvas(page)).toHaveAttribute('data-points', String(tasks.length));
  const regions = page.getByTestId('map-region');
  expect(await regions.count()).toBeGreaterThanOrEqual(2);
  // The regions' counts add up to every task.
  const counts = (await regions.allInnerTexts()).map((t) => Number(/(\d+)$/.exec(t)![1]));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(tasks.length);
  await expect(canvas(page)).toHaveAttribute('data-dimmed', '0');

  await page.goto('/?view=map&type=timeline');
  const timeline = tasks.filter((t) => t.type === 'timeline').length;
  await expect(canvas(page)).toHaveAttribute('data-dimmed', String(tasks.length - timeline));
  await page.screenshot({ path: 'test-results/screens/map-sample.png' });
});

test('a selection on the map filters the Tasks table, survives reload and a copied link; Back from a task returns to the same map', async ({
  page,
  context,
}) => {
  await page.goto('/?view=map');
  await expect(canvas(page)).toHaveAttribute('data-points', String(tasks.length));
  // A lasso with a dent: the left two thirds of the map and a notch out of its middle.
  await drawLasso(page, [
    [0.05, 0.05],
    [0.7, 0.05],
    [0.4, 0.5],
    [0.7, 0.95],
    [0.05, 0.95],
  ]);
  await expect(page).toHaveURL(/[?&]sel=/);
  const summary = page.getByTestId('map-selection-summary');
  const selected = Number(/(\d+) tasks? selected/.exec(await summary.innerText())![1]);
  expect(selected).toBeGreaterThan(0);
  expect(selected).toBeLessThan(tasks.length);
  // The composition per type adds up to the selection.
  const perType = (await page.getByTestId('map-composition').locator('li').allInnerTexts()).map((t) =>
    Number(t.split(': ')[1]),
  );
  expect(perType.reduce((a, b) => a + b, 0)).toBe(selected);

  // The Systems page lists the same selection.
  await page.getByTestId('map-open-systems').click();
  await expect(page.getByTestId('systems-total')).toHaveText(`${selected} of ${tasks.length} tasks`);
  await page.goBack();
  await page.getByTestId('map-open-tasks').click();
  await expect(page.getByTestId('task-total')).toHaveText(`${selected} tasks`);
  await expect(page.getByTestId('map-selection')).toContainText(`${selected} tasks selected on the map`);
  await page.reload();
  await expect(page.getByTestId('task-total')).toHaveText(`${selected} tasks`);
  const copied = await context.newPage();
  await copied.goto(page.url());
  await expect(copied.getByTestId('task-total')).toHaveText(`${selected} tasks`);
  await copied.close();

  // Back to the map, then a task opened by keyboard, then Back: the same map and selection.
  await page.goBack();
  await expect(canvas(page)).toHaveAttribute('data-points', String(tasks.length));
  const mapUrl = page.url();
  await canvas(page).focus();
  await page.keyboard.press('ArrowRight');
  const tip = await page.getByTestId('map-tip').innerText();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('task-question')).toBeVisible();
  expect(tip).toContain(await page.getByTestId('task-question').innerText());
  await page.goBack();
  await expect(canvas(page)).toHaveAttribute('data-points', String(tasks.length));
  expect(page.url()).toBe(mapUrl);
  await expect(summary).toContainText(`${selected} tasks selected`);
});

test('a region is selected from the keyboard and the selection is announced', async ({ page }) => {
  await page.goto('/?view=map');
  const first = page.getByTestId('map-region').first();
  const count = Number(/(\d+)$/.exec(await first.innerText())![1]);
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('map-selection-summary')).toHaveAttribute('aria-live', 'polite');
  await expect(page.getByTestId('map-selection-summary')).toContainText(`${count} tasks selected`);
  await canvas(page).focus();
  await page.keyboard.press('Escape');
  await expect(page).not.toHaveURL(/[?&]sel=/);
});

test.describe('the map of v1.0', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);

  test('the 1,038 tasks of v1.0 served from localhost', async ({ page }) => {
    const server = await startStaticServer(v10Dir);
    try {
      await page.goto(`/?release=${encodeURIComponent(server.url)}&view=map`);
      await expect(canvas(page)).toHaveAttribute('data-points', '1038', { timeout: 60_000 });
      expect(await page.getByTestId('map-region').count()).toBeGreaterThanOrEqual(5);
      await expect(page.getByTestId('map-status')).toContainText('layout computed');
      // Opened again, the layout comes from this browser's cache.
      await page.reload();
      await expect(page.getByTestId('map-status')).toContainText('from this browser’s cache');
    } finally {
      await server.close();
    }
  });
});

test('the candidates layer coloured by gauntlet stage counts what the Rejections page counts', async ({ page }) => {
  await page.goto('/?view=rejections');
  const rejectedAt: Record<string, number> = {};
  for (const stage of ['standalone', 'answerability', 'necessity', 'adjudication', 'error', 'pooling']) {
    const cell = page.getByTestId(`funnel-rejected-${stage}`);
    await expect(cell).toBeVisible();
    rejectedAt[stage] = Number((await cell.innerText()).replace(/,/g, ''));
  }
  await page.goto('/?view=map&layer=candidates');
  const candidates = jsonl<{ task_id: string }>('build/candidates.jsonl').length;
  await expect(canvas(page)).toHaveAttribute('data-points', String(candidates));
  const legend = page.getByTestId('map-legend-item');
  const onMap: Record<string, number> = {};
  for (const item of await legend.all())
    onMap[(await item.getAttribute('data-key'))!] = Number(await item.getAttribute('data-count'));
  for (const [stage, n] of Object.entries(rejectedAt)) expect(onMap[stage] ?? 0, stage).toBe(n);
  expect(onMap.shipped).toBe(candidates - Object.values(rejectedAt).reduce((a, b) => a + b, 0));
});

test("the documents layer: the corpus placed by its text, coloured by quality and by the split's gold sets; a click opens a document", async ({
  page,
}) => {
  const docs = (await parquetReadObjects({
    file: await asyncBufferFromFile(path.join(sampleDir, 'docs.parquet')),
    columns: ['doc_id', 'quality'],
  })) as Array<{ doc_id: string; quality: string }>;
  const gold = new Set(tasks.flatMap((t) => t.gold_docs));
  const legendCounts = async () => {
    await expect(page.getByTestId('map-legend-item').first()).toBeVisible();
    const out: Record<string, number> = {};
    for (const item of await page.getByTestId('map-legend-item').all())
      out[(await item.getAttribute('data-key'))!] = Number(await item.getAttribute('data-count'));
    return out;
  };

  await page.goto('/?view=map&layer=docs&colour=gold');
  await expect(canvas(page)).toHaveAttribute('data-points', String(docs.length));
  const byUse = await legendCounts();
  expect(byUse.gold).toBe(docs.filter((d) => gold.has(d.doc_id)).length);
  expect(Object.values(byUse).reduce((a, b) => a + b, 0)).toBe(docs.length);

  await page.getByTestId('map-colour').selectOption('quality');
  await expect(page.getByTestId('map-legend-item').first()).toHaveAttribute('data-key', 'clean');
  const byQuality = await legendCounts();
  for (const q of new Set(docs.map((d) => d.quality)))
    expect(byQuality[q], q).toBe(docs.filter((d) => d.quality === q).length);

  // A lasso selects documents by their whole ids (they share long prefixes), and a reload keeps them.
  await drawLasso(page, [
    [0.02, 0.02],
    [0.3, 0.02],
    [0.3, 0.45],
    [0.02, 0.45],
  ]);
  const summary = page.getByTestId('map-selection-summary');
  await expect(summary).toContainText(/\d+ documents? selected/);
  const shown = /([\d,]+) documents? selected/.exec(await summary.innerText())![1]!;
  const selected = Number(shown.replace(/,/g, ''));
  expect(selected).toBeGreaterThan(0);
  expect(selected).toBeLessThan(docs.length);
  const sel = new URL(page.url()).searchParams.get('sel')!.split('.');
  expect(sel).toHaveLength(selected);
  for (const id of sel)
    expect(
      docs.some((d) => d.doc_id === id),
      id,
    ).toBe(true);
  await page.reload();
  await expect(summary).toContainText(`${shown} documents selected`);

  // A point opened from the keyboard opens its document; Back returns to the documents map.
  await canvas(page).focus();
  await page.keyboard.press('ArrowRight');
  const id = /^(\S+) ·/.exec(await page.getByTestId('map-tip').innerText())![1]!;
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]doc=${id}`));
  await expect(page.getByTestId('doc-view')).toContainText(id);
  await page.goBack();
  await expect(canvas(page)).toHaveAttribute('data-points', String(docs.length));
  await expect(summary).toContainText(`${shown} documents selected`);
});

test('the wheel, the keys and the buttons zoom; Whole map returns', async ({ page }) => {
  await page.goto('/?view=map');
  await expect(canvas(page)).toHaveAttribute('data-points', String(tasks.length));
  const zoom = page.getByTestId('map-zoom');
  await expect(zoom).toHaveAttribute('data-zoom', '1.000');
  const box = (await canvas(page).boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
  await page.mouse.wheel(0, -400);
  await expect.poll(async () => Number(await zoom.getAttribute('data-zoom'))).toBeGreaterThan(1.5);
  await page.getByTestId('map-zoom-reset').click();
  await expect(zoom).toHaveAttribute('data-zoom', '1.000');
  await canvas(page).focus();
  await page.keyboard.press('+');
  await expect(zoom).toHaveAttribute('data-zoom', '1.500');
  await page.keyboard.press('0');
  await expect(zoom).toHaveAttribute('data-zoom', '1.000');
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

  test('two fingers pinch the map to zoom', async ({ page }) => {
    await page.goto('/?view=map');
    await expect(canvas(page)).toHaveAttribute('data-points', String(tasks.length));
    // Touches land where the viewport shows the canvas.
    await canvas(page).scrollIntoViewIfNeeded();
    const box = (await canvas(page).boundingBox())!;
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    const cdp = await page.context().newCDPSession(page);
    const fingers = (spread: number) => [
      { x: cx - spread, y: cy, id: 0 },
      { x: cx + spread, y: cy, id: 1 },
    ];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(20) });
    for (const spread of [30, 45, 60, 80])
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(spread) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    // The fingers moved four times as far apart: the map is zoomed about four times.
    await expect
      .poll(async () => Number(await page.getByTestId('map-zoom').getAttribute('data-zoom')))
      .toBeGreaterThan(3);
    // A pinch selects nothing and opens nothing.
    await expect(page).not.toHaveURL(/[?&]sel=/);
    await expect(canvas(page)).toBeVisible();
  });
});

test('coloured by a system, every task falls in one outcome; by agreement, in one count of systems', async ({
  page,
}) => {
  await page.goto('/?view=map&colour=system:bm25-top-doc-sample');
  await expect(canvas(page)).toHaveAttribute('data-points', String(tasks.length));
  await expect(page.getByTestId('map-outcome-note')).not.toContainText('Reading');
  const legend = page.getByTestId('map-legend-item');
  await expect(legend.first()).toBeVisible();
  const counts = async () =>
    Object.fromEntries(
      await Promise.all(
        (await legend.all()).map(async (l) => [
          await l.getAttribute('data-key'),
          Number(await l.getAttribute('data-count')),
        ]),
      ),
    ) as Record<string, number>;
  const outcomes = await counts();
  expect(Object.values(outcomes).reduce((a, b) => a + b, 0)).toBe(tasks.length);
  const judged = ['correct and cited', 'correct, citations not credited', 'wrong', 'no answer'];
  const byCitations = ['cited gold', 'cited outside the gold only', 'cited no gold', 'no gold to cite', 'no answer'];
  const note = await page.getByTestId('map-outcome-note').innerText();
  const expected = note.includes('judge’s cached verdicts') ? judged : byCitations;
  for (const key of Object.keys(outcomes)) expect(expected).toContain(key);

  await page.getByTestId('map-colour').selectOption('agreement');
  await expect(page).toHaveURL(/colour=agreement/);
  await expect(legend.first()).toHaveAttribute('data-key', /^(\d+|no gold to cite)$/);
  const agreement = await counts();
  expect(Object.values(agreement).reduce((a, b) => a + b, 0)).toBe(tasks.length);

  await page.getByTestId('map-size').selectOption('gold');
  await expect(page.getByTestId('map-size-note')).toContainText('gold-set size');
  await page.screenshot({ path: 'test-results/screens/map-agreement.png' });
});

test("placed by the release's embedding model: the questions are embedded in this tab and laid out by their vectors", async ({
  page,
}) => {
  await page.goto('/?view=map&placed=model');
  await expect(canvas(page)).toHaveAttribute('data-points', String(tasks.length), { timeout: 60_000 });
  await expect(page.getByTestId('map-status')).toContainText('placed by');
  await expect(page.getByTestId('map-status')).toContainText('sample-static');
  await expect(page.getByTestId('map-placed')).toHaveValue('model');
  // Back to the words: no model named.
  await page.getByTestId('map-placed').selectOption('words');
  await expect(page).not.toHaveURL(/placed=/);
  await expect(page.getByTestId('map-status')).not.toContainText('placed by');
});
