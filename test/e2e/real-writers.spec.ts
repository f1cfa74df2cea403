/**
 * The sample release with docs.parquet and chunks.parquet rewritten by DuckDB (ZSTD, GZIP), pins
 * updated, as a maintainer who re-exports them would publish it: the Tasks, Task, Document and
 * Retrieval pages work as on the Snappy original, and only the codec's decompressor is downloaded.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { FolderSource } from '../../src/adapters/node/folder-source.ts';
import { SearchSession } from '../../src/core/search/index.ts';
import { rewriteParquet, sampleReleaseWrittenBy, variantOf } from '../support/real-writers.ts';
import { projectRoot, startStaticServer, trackErrors } from './support.ts';

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
const task = tasks.find((t) => t.type === 'single_hop' && t.gold_docs.length > 0)!;

for (const codec of ['ZSTD', 'GZIP'] as const) {
  test.describe(`a release whose parquet files DuckDB wrote with ${codec}`, () => {
    let release: { url: string; close: () => Promise<void> };
    let expected: string[];
    let parent: string | undefined;
    test.beforeAll(async () => {
      test.setTimeout(180_000);
      const variant = variantOf(codec);
      // Written before the release copy so both share the cached file.
      await rewriteParquet(new Uint8Array(readFileSync(path.join(sampleDir, 'docs.parquet'))), variant);
      parent = mkdtempSync(path.join(tmpdir(), 'real-writers-e2e-'));
      const dir = await sampleReleaseWrittenBy(variant, parent);
      release = await startStaticServer(dir);
      const session = await SearchSession.open(new FolderSource(sampleDir));
      expected = (await session.rank('bm25', task.question, 20)).map((d) => d.doc_id);
    });
    test.afterAll(async () => {
      await release?.close();
      if (parent) rmSync(parent, { recursive: true, force: true });
    });
    const at = (query: string) => `/?release=${encodeURIComponent(release.url)}${query ? `&${query}` : ''}`;

    test('Tasks, Task, Document and Retrieval pages work, with the codec loaded on demand', async ({ page }) => {
      test.setTimeout(240_000);
      const errors = trackErrors(page);
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script' || r.url().endsWith('.js')) scripts.push(r.url());
      });

      await page.goto(at(''));
      await expect(page.getByTestId('task-row').first()).toBeVisible();
      await expect(page.getByTestId('file-problems')).toHaveCount(0);

      await page.goto(at(`view=task&task=${task.task_id}&split=full`));
      await expect(page.getByTestId('task-question')).toHaveText(task.question);
      await expect(page.getByTestId('gold-doc')).toHaveCount(task.gold_docs.length);
      const rankings = page.getByTestId('task-rankings');
      await expect(rankings.getByTestId('results-bm25').getByTestId('result-row').first()).toBeVisible();

      await page.goto(at(`view=doc&doc=${task.gold_docs[0]}`));
      await expect(page.getByTestId('doc-text')).not.toBeEmpty();
      await expect(page.getByTestId('chunk-summary')).toContainText("matches the release's chunks");

      await page.goto(at('view=search'));
      await page.getByTestId('search-input').fill(task.question);
      await page.getByTestId('search-submit').click();
      const rows = page.getByTestId('results-bm25').getByTestId('result-row');
      await expect(rows).toHaveCount(expected.length);
      expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-doc')))).toEqual(expected);
      await expect(rows.first().locator('.snippet')).not.toBeEmpty();

      expect(scripts.some((u) => new RegExp(`/${codec.toLowerCase()}[-.][^/]*\\.js$`).test(u))).toBe(true);
      const other = codec === 'ZSTD' ? 'gzip' : 'zstd';
      expect(scripts.filter((u) => new RegExp(`/${other}[-.][^/]*\\.js$`).test(u))).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
}
