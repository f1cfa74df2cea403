/**
 * The Score view's paired comparison: a scored file against a system of the release shows the
 * numbers the CLI's `paired --json` gives on the same files (run here through the CLI itself),
 * exports them as that JSON, and keeps the system and the metric in the URL.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { PairedResult } from '../../src/core/analysis/paired.ts';
import { samplePairedJson } from '../support/cli.ts';
import { downloaded, openScorePage, sampleDir } from './score-support.ts';

type CliPaired = PairedResult & { system_a: string; system_b: string };

const BM25 = 'bm25-top-doc-sample';

const cliPaired = async (b: string, metric: string) => (await samplePairedJson(BM25, b, metric)) as CliPaired;

/** The page's four-decimal writing, with a true minus sign. */
const f4 = (v: number) => (v < 0 ? '−' : '') + Math.abs(v).toFixed(4);
const pText = (p: number, iterations: number) => (p === 0 ? `< ${1 / iterations}` : p.toFixed(3));

async function expectShown(page: Page, expected: CliPaired): Promise<void> {
  const panel = page.getByTestId('score-paired');
  const it = expected.bootstrap.iterations;
  await expect(panel.getByTestId('paired-summary')).toContainText(
    `: ${f4(expected.difference)}, 95% CI [${f4(expected.ci95[0])}, ${f4(expected.ci95[1])}], p ${pText(expected.p, it)}; A wins ${expected.wins}, ties ${expected.ties}, loses ${expected.losses} of ${expected.n} tasks.`,
  );
  const rows = panel.getByTestId('paired-row');
  await expect(rows).toHaveCount(1 + expected.perType.length);
  for (const [i, t] of [{ ...expected, type: 'overall' }, ...expected.perType].entries())
    await expect(rows.nth(i)).toHaveText(
      [
        t.type,
        String(t.n),
        f4(t.a),
        f4(t.b),
        f4(t.difference),
        `[${f4(t.ci95[0])}, ${f4(t.ci95[1])}]`,
        pText(t.p, it),
        `${t.wins} / ${t.ties} / ${t.losses}`,
      ].join(''),
    );
  // the chart: one point per row of the table
  await expect(panel.getByTestId('paired-chart').locator('circle')).toHaveCount(1 + expected.perType.length);
}

test('a scored file against a system of the release: the numbers of `paired --json`, in the URL, exported', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openScorePage(page);
  await expect(page.getByTestId('cache-shipped')).not.toHaveText('0');
  await page.getByTestId('release-submission').selectOption(BM25);
  await expect(page.getByTestId('judge-uncached')).toHaveText('0');
  await page.getByTestId('score-run').click();
  await expect(page.getByTestId('scorecard')).toBeVisible();

  const panel = page.getByTestId('score-paired');
  // the file itself is not offered first
  await expect(panel.getByTestId('paired-system')).not.toHaveValue(BM25);
  await panel.getByTestId('paired-system').selectOption('closed-book-sample-control');
  await panel.getByTestId('paired-metric').selectOption('ndcg@10');
  await expect(page).toHaveURL(/cs=closed-book-sample-control/);
  await expect(page).toHaveURL(/cm=ndcg%4010/);
  const ndcg = await cliPaired('closed-book-sample-control', 'ndcg@10');
  expect(ndcg.p).toBeLessThan(0.05);
  await expectShown(page, ndcg);
  // the export is the CLI's JSON, bit for bit in every number (A is named after the scored file)
  const exported = JSON.parse((await downloaded(page, 'paired-export')).toString('utf8')) as CliPaired;
  expect({ ...exported, system_a: BM25 }).toStrictEqual(ndcg);

  // a verdict metric: the shipped cache holds both files' replies
  await panel.getByTestId('paired-system').selectOption('always-refuse-sample-control');
  await panel.getByTestId('paired-metric').selectOption('cited');
  const cited = await cliPaired('always-refuse-sample-control', 'cited');
  await expectShown(page, cited);
  const scores = (slug: string) =>
    (
      JSON.parse(readFileSync(path.join(sampleDir, 'submissions', slug, 'scores.json'), 'utf8')) as {
        overall_cited_correctness: number;
      }
    ).overall_cited_correctness;
  // the point estimate is the difference of the two committed numbers, bit for bit
  expect(cited.difference).toBe(scores(BM25) - scores('always-refuse-sample-control'));

  // the choice is in the URL: a reload that scores the file again shows the same comparison
  await page.reload();
  await page.getByTestId('release-submission').selectOption(BM25);
  await expect(page.getByTestId('judge-uncached')).toHaveText('0');
  await page.getByTestId('score-run').click();
  await expect(page.getByTestId('score-paired').getByTestId('paired-metric')).toHaveValue('cited');
  await expect(page.getByTestId('score-paired').getByTestId('paired-system')).toHaveValue(
    'always-refuse-sample-control',
  );
  await expectShown(page, cited);
});
