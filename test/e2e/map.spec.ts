import { expect, test, type Page } from '@playwright/test';
import { hasShared, SKIP_NO_SHARED, startStaticServer, v10Dir } from './support.ts';
import { jsonl, type SampleTask } from './ux-support.ts';

const tasks = jsonl<SampleTask>('full/tasks.jsonl');

const canvas = (page: Page) => page.getByTestId('map-canvas');

/** Drags a rectangle over the middle of the map (a share of its side from each edge). */
async function dragOver(page: Page, from: number, to: number): Promise<void> {
  const box = (await canvas(page).boundingBox())!;
  await page.mouse.move(box.x + box.width * from, box.y + box.height * from);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * to, box.y + box.height * to, { steps: 6 });
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
  await dragOver(page, 0.15, 0.85);
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
