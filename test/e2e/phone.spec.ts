/**
 * Every view at 390 px (a phone) and 1440 px, in both themes: nothing scrolls sideways but a
 * table that says it does; screenshots are written to test-results/screens for review.
 */
import { expect, test } from '@playwright/test';
import { go, jsonl, openApp, sampleViews, sidewaysOverflow, type SampleTask } from './ux-support.ts';

test('at 390 px the task list comes first, facets open from a button, rows are stacked', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page);
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  const search = await page.getByTestId('task-search').boundingBox();
  expect(search!.y).toBeLessThan(500);
  await expect(page.getByTestId('facet-type')).toBeHidden();
  const firstRow = await page.getByTestId('task-row').first().boundingBox();
  expect(firstRow!.y).toBeLessThan(844);
  expect(firstRow!.width).toBeLessThanOrEqual(390);
  await page.getByTestId('filters-toggle').click();
  await expect(page.getByTestId('facet-type')).toBeVisible();
  await page.getByTestId('facet-type-timeline').click();
  await expect(page.getByTestId('filters-toggle')).toHaveText('Filters (1)');
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`no view scrolls sideways at 390 px; screenshots at 390 and 1440 px (${scheme})`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 390, height: 844 });
    await openApp(page);
    const views = sampleViews();
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const view of views) {
        await go(page, view.search);
        await expect(view.ready(page)).toBeVisible();
        if (width === 390) expect(await sidewaysOverflow(page), `${view.name} at 390 px`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: `test-results/screens/${view.name}-${width}-${scheme}.png` });
        // And scrolled to what the view is about (the scorecard, the open candidate…).
        await view.ready(page).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `test-results/screens/${view.name}-${width}-${scheme}-content.png` });
      }
    }
    const task = jsonl<SampleTask>('full/tasks.jsonl')[0]!;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`embed/index.html?task=${task.task_id}&split=full`);
    await expect(page.getByTestId('task-question')).toBeVisible();
    await expect(page.getByTestId('embed-fictional')).toBeVisible();
    await expect(page.locator('main')).toHaveCount(1);
    expect(await sidewaysOverflow(page), 'embed at 390 px').toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/screens/embed-390-${scheme}.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `test-results/screens/embed-1440-${scheme}.png` });
  });
}
