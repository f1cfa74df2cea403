import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { FolderSource } from '../../src/adapters/node/folder-source.ts';
import { parseRun } from '../../src/core/retrieval/index.ts';
import { nodeEmbedderFor } from '../../src/cli/index-build/node-embedder.ts';
import { SearchSession } from '../../src/core/search/index.ts';
import { SEARCH_METHODS, type SearchMethod } from '../../src/core/search/types.ts';
import { projectRoot } from './support.ts';

const sampleDir = path.join(projectRoot, 'static-data/sample');
interface TaskLine {
  task_id: string;
  type: string;
  question: string;
  gold_docs: string[];
}
const tasks = readFileSync(path.join(sampleDir, 'full/tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as TaskLine);
const withGold = tasks.find((t) => t.type === 'single_hop' && t.gold_docs.length > 0)!;

test('the playground shows BM25 results with snippets for a query', async ({ page }) => {
  const session = await SearchSession.open(new FolderSource(sampleDir));
  const expected = await session.rank('bm25', withGold.question, 20);
  await page.goto('/?view=search');
  await page.getByTestId('search-input').fill(withGold.question);
  await page.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/q=/);
  const rows = page.getByTestId('results-bm25').getByTestId('result-row');
  await expect(rows).toHaveCount(expected.length);
  const shown = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-doc')));
  expect(shown).toEqual(expected.map((d) => d.doc_id));
  await expect(rows.first().locator('.snippet')).not.toBeEmpty();
});

test('a task in the playground and on its page marks its gold documents in the rankings', async ({ page }) => {
  await page.goto(`/?view=search&task=${withGold.task_id}&split=full`);
  await expect(page.getByTestId('task-banner')).toContainText(withGold.question);
  const bm25 = page.getByTestId('results-bm25');
  await expect(bm25.getByTestId('result-row').first()).toBeVisible();
  const gold = await bm25
    .locator('[data-gold="true"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-doc')));
  expect(gold.length).toBeGreaterThan(0);
  for (const d of gold) expect(withGold.gold_docs).toContain(d);

  await page.goto(`/?view=task&task=${withGold.task_id}&split=full`);
  const rankings = page.getByTestId('task-rankings');
  await expect(rankings.getByTestId('results-bm25').getByTestId('result-row').first()).toBeVisible();
  // Dense and hybrid wait for a click (they load onnxruntime and the embedding model).
  await expect(rankings.getByTestId('results-dense')).toHaveCount(0);
  await rankings.getByTestId('rank-dense').click();
  await rankings.getByTestId('rank-hybrid').click();
  await expect(page).toHaveURL(/rank=dense%2Chybrid|rank=dense,hybrid/);
  for (const m of ['bm25', 'dense', 'hybrid']) await expect(rankings.getByTestId(`results-${m}`)).toBeVisible();
  await expect(rankings.getByTestId('results-hybrid').getByTestId('result-row').first()).toBeVisible();
  await expect(rankings.getByTestId('results-bm25').getByTestId('gold-mark').first()).toBeVisible();
  await expect(rankings.getByTestId('task-metrics-bm25')).toContainText('R@5');
});

// Dense query vectors come from onnxruntime-web here and onnxruntime-node in the CLI: they agree
// to about 1e-6, so dense scores are compared with that tolerance; BM25 differs only in Math.log's last bit.
const SCORE_TOLERANCE: Record<SearchMethod, number> = { bm25: 1e-9, dense: 1e-5, hybrid: 1e-9 };

for (const method of SEARCH_METHODS) {
  test(`"run all" reproduces the CLI numbers for ${method} and exports the run`, async ({ page }) => {
    const session = await SearchSession.open(new FolderSource(sampleDir), {
      embedderFor: nodeEmbedderFor({ base: 'http://127.0.0.1:9/unused', key: undefined }),
    });
    const expected = await session.evaluate(method, 'full', 20);
    await page.goto('/?view=search');
    await page.getByTestId('run-all-method').selectOption(method);
    await page.getByTestId('run-all-split').selectOption('full');
    await page.getByTestId('run-all-start').click();
    const card = page.getByTestId('run-all-scorecard');
    await expect(card).toBeVisible({ timeout: 60_000 });
    const r = expected.report;
    await expect(page.getByTestId('overall-recall5')).toHaveText(r.overall['recall@5'].toFixed(4));
    await expect(page.getByTestId('overall-recall20')).toHaveText(r.overall['recall@20'].toFixed(4));
    await expect(page.getByTestId('overall-ndcg10')).toHaveText(r.overall['ndcg@10'].toFixed(4));
    await expect(page.getByTestId('overall-trec-map')).toHaveText(r.trec.map.toFixed(4));
    for (const t of r.perType) {
      await expect(card.locator(`[data-type="${t.type}"] td`).nth(2)).toHaveText(t['recall@5'].toFixed(4));
    }
    const download = page.waitForEvent('download');
    await page.getByTestId('export-trec').click();
    const file = await (await download).path();
    const got = parseRun(readFileSync(file, 'utf8'));
    const want = parseRun(expected.trecRun);
    expect([...got.queries.keys()]).toEqual([...want.queries.keys()]);
    for (const [qid, entries] of want.queries) {
      const mine = got.queries.get(qid)!;
      expect(
        mine.map((e) => e.docid),
        qid,
      ).toEqual(entries.map((e) => e.docid));
      mine.forEach((e, i) =>
        expect(Math.abs(e.score - entries[i]!.score)).toBeLessThan(
          SCORE_TOLERANCE[method] * Math.max(1, entries[i]!.score),
        ),
      );
    }
  });
}
