/**
 * The charts (loaded on their own chunks): the paired comparison on the Systems page, the
 * leaderboard's forest plot and per-type small multiples, and a scored file's per-type chart and
 * paired comparison on the Score page, at desk and phone widths in both themes, each with its
 * numbers in a table beside it, axe clean; screenshots attached to the report.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { audit } from './axe-support.ts';
import { openApp, sampleDir, sidewaysOverflow } from './ux-support.ts';

const readJson = (file: string) => JSON.parse(readFileSync(path.join(sampleDir, file), 'utf8')) as unknown;
const BOARD = readJson('leaderboard.json') as { entries: Array<{ system_name: string }> };
const BM25_TYPES = Object.keys(
  (readJson('submissions/bm25-top-doc-sample/scores.json') as { per_type: object }).per_type,
);
const PAIR = '?view=systems&pa=bm25-top-doc-sample&pb=closed-book-sample-control&pm=recall%405';

for (const scheme of ['light', 'dark'] as const)
  for (const width of [1440, 390])
    test(`paired comparison, leaderboard forest plot and multiples, score charts at ${width} px, ${scheme} theme`, async ({
      page,
    }, info) => {
      test.setTimeout(240_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await openApp(page, PAIR);
      const panel = page.getByTestId('paired-panel');
      await expect(panel.getByTestId('paired-chart')).toBeVisible();
      // The URL holds the pair and the metric; the table beside the chart has overall + 4 answerable types.
      await expect(panel.getByTestId('paired-metric')).toHaveValue('recall@5');
      await expect(panel.getByTestId('paired-row')).toHaveCount(5);
      await expect(panel.getByTestId('paired-summary')).toContainText(
        /recall@5: 0\.\d{4}, 95% CI \[0\.\d{4}, 0\.\d{4}\], p < 0\.001/,
      );
      // The chart has one point per row of the table.
      await expect(panel.getByTestId('paired-chart').locator('circle')).toHaveCount(5);
      expect(await sidewaysOverflow(page)).toBe(0);
      await panel.scrollIntoViewIfNeeded();
      await info.attach(`paired-${width}-${scheme}.png`, { body: await panel.screenshot(), contentType: 'image/png' });
      const problems = await audit(page, `systems (paired, ${width} px, ${scheme})`);

      await page.goto('/?view=leaderboard');
      // The forest plot: each system's headline with its interval, in the table's order, controls hollow and named.
      const forest = page.getByTestId('board-forest');
      const chart = forest.getByTestId('board-forest-chart');
      await expect(chart.locator('circle')).toHaveCount(BOARD.entries.length);
      await expect(chart.locator('circle.muted')).toHaveCount(
        BOARD.entries.filter((e) => e.system_name.includes('control')).length,
      );
      // each interval: a bar and its two ends
      await expect(chart.locator('line.whisker')).toHaveCount(3 * BOARD.entries.length);
      await expect(chart).toHaveAttribute(
        'aria-label',
        /always-refuse sample control: 0\.\d{3} \(95% CI 0\.\d{3} to 0\.\d{3}\)/,
      );
      await expect(chart).toContainText('closed-book sample control');
      await info.attach(`forest-${width}-${scheme}.png`, { body: await forest.screenshot(), contentType: 'image/png' });
      const multiples = page.getByTestId('board-multiples');
      await expect(multiples.getByTestId('board-multiple-single_hop')).toBeVisible();
      // One point per system that reports the type; the controls named as such.
      await expect(multiples.getByTestId('board-multiple-single_hop').locator('circle')).toHaveCount(3);
      await expect(multiples.getByTestId('board-multiple-single_hop').locator('circle.muted')).toHaveCount(2);
      await expect(multiples.getByTestId('board-multiple-single_hop')).toContainText('always-refuse sample control');
      expect(await sidewaysOverflow(page)).toBe(0);
      await info.attach(`multiples-${width}-${scheme}.png`, {
        body: await multiples.screenshot(),
        contentType: 'image/png',
      });
      problems.push(...(await audit(page, `leaderboard (forest plot, multiples, ${width} px, ${scheme})`)));

      // The Score page: a scored file's per-type chart (headline + six types) and its paired comparison.
      await page.goto('/?view=score&cs=closed-book-sample-control&cm=recall%405');
      await page.getByTestId('release-submission').selectOption('bm25-top-doc-sample');
      await expect(page.getByTestId('judge-uncached')).toHaveText('0');
      await page.getByTestId('score-run').click();
      const types = page.getByTestId('score-type-chart');
      await expect(types.locator('circle')).toHaveCount(1 + BM25_TYPES.length);
      await expect(types).toContainText('false_premise');
      await info.attach(`score-types-${width}-${scheme}.png`, {
        body: await types.screenshot(),
        contentType: 'image/png',
      });
      const paired = page.getByTestId('score-paired');
      await expect(paired.getByTestId('paired-chart').locator('circle')).toHaveCount(5);
      expect(await sidewaysOverflow(page)).toBe(0);
      await info.attach(`score-paired-${width}-${scheme}.png`, {
        body: await paired.screenshot(),
        contentType: 'image/png',
      });
      problems.push(...(await audit(page, `score (per-type chart, paired, ${width} px, ${scheme})`)));
      expect(problems).toEqual([]);
    });

test('every pair, Holm-corrected, on request; a choice of A, B or metric is kept in the URL', async ({ page }) => {
  await openApp(page, '?view=systems');
  const panel = page.getByTestId('paired-panel');
  await expect(panel.getByTestId('paired-summary')).toBeVisible();
  await panel.getByTestId('paired-b').selectOption('always-refuse-sample-control');
  await expect(page).toHaveURL(/pb=always-refuse-sample-control/);
  await panel.getByTestId('paired-metric').selectOption('ndcg@10');
  await expect(page).toHaveURL(/pm=ndcg%4010/);
  await page.reload();
  await expect(page.getByTestId('paired-metric')).toHaveValue('ndcg@10');
  await expect(page.getByTestId('paired-b')).toHaveValue('always-refuse-sample-control');
  await page.getByTestId('paired-all').click();
  const holm = page.getByTestId('paired-holm');
  await expect(holm.locator('tbody tr')).toHaveCount(3);
  await expect(holm).toContainText('Holm');
  // The two controls retrieve nothing: their difference is 0, with p = 1, and it does not survive.
  const controls = holm
    .locator('tbody tr')
    .filter({ hasText: /always-refuse/i })
    .filter({ hasText: /closed-book/i });
  await expect(controls).toHaveCount(1);
  await expect(controls).toContainText(/0\.0000.*1\.000.*no/);

  // On a phone a system's name breaks between its words (three at most here), not to a letter a line.
  await page.setViewportSize({ width: 390, height: 900 });
  const linesOfNames = () =>
    holm.locator('tbody tr').evaluateAll((rows) =>
      rows.flatMap((row) =>
        [...row.querySelectorAll('td')].slice(0, 2).map((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }),
      ),
    );
  await expect.poll(async () => Math.max(...(await linesOfNames()))).toBeLessThanOrEqual(3);
});
