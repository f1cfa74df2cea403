/**
 * Issue 22.1: the official release entry (its raw.githubusercontent.com files answered by a
 * localhost mirror of the repository layout) scores with the judge profile the site ships for it,
 * from a judge cache made for the test and live against the mock judge; the exported scores.json
 * is the CLI's, report fields included.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startEchoJudge } from '../support/mock-judge-server.ts';
import { startRepositoryMirror, type RepositoryMirror } from '../support/repository-mirror.ts';
import { siteProfileFile, v10Judge, v10JudgeCache } from '../support/v10-judge.ts';
import { downloaded, setFile } from './score-support.ts';
import { hasShared, projectRoot, routeGitHubTo, SKIP_NO_SHARED, v10Dir } from './support.ts';

const KEY = 'sk-test-e2e-official-0123456789';
const entry = (
  JSON.parse(readFileSync(path.join(projectRoot, 'static-data/releases.json'), 'utf8')) as {
    releases: Array<{ id: string; url: string }>;
  }
).releases.find((r) => r.id === 'epstein-bench-v1.0')!;
const tasksFile = path.join(v10Dir, 'full/tasks.jsonl');
const bm25 = path.join(v10Dir, 'submissions/bm25-reference');

function cliScore(predictions: string, cache: string): Promise<string> {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'score-official-cli-')), 'scores.json');
  const args = ['score', '--tasks', tasksFile, '--predictions', predictions, '--judge-profile', siteProfileFile];
  return new Promise((resolve, reject) =>
    execFile(
      'npx',
      ['tsx', 'src/cli/main.ts', ...args, '--judge-cache', cache, '--out', out],
      { cwd: projectRoot },
      (error, _stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(readFileSync(out, 'utf8'))),
    ),
  );
}

async function openOfficialScore(page: Page): Promise<void> {
  await page.goto(`/?release=${entry.id}&view=score`);
  await expect(page.getByTestId('inputs-state')).toContainText('Judge: gpt-5.5-2026-04-23, prompts v2');
  await expect(page.getByTestId('inputs-state')).toContainText("the site's copy");
  await expect(page.getByTestId('inputs-state')).toContainText('fcad921e');
}

test.describe('scoring the official release with the judge profile the site ships', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);
  let mirror: RepositoryMirror;
  let tmp: string;
  let cache: Record<string, string>;
  let cacheFile: string;
  let lonePredictions: string;
  test.beforeAll(async () => {
    mirror = await startRepositoryMirror(v10Dir, new URL(entry.url).pathname);
    tmp = mkdtempSync(path.join(tmpdir(), 'score-official-'));
    cache = await v10JudgeCache(tasksFile, path.join(bm25, 'predictions.jsonl'));
    cacheFile = path.join(tmp, 'verdicts.json');
    writeFileSync(cacheFile, JSON.stringify(cache));
    lonePredictions = path.join(tmp, 'predictions.jsonl');
    copyFileSync(path.join(bm25, 'predictions.jsonl'), lonePredictions);
  });
  test.afterAll(async () => mirror?.close());

  test('bm25-reference scores from a judge cache made for the test to the CLI bytes, with and without metadata.json', async ({
    page,
    context,
  }) => {
    await routeGitHubTo(context, mirror);
    await openOfficialScore(page);
    await expect(page.getByTestId('profile-help')).toHaveCount(0);
    await setFile(page, 'cache-import-file', 'verdicts.json', readFileSync(cacheFile));
    await expect(page.getByTestId('cache-stored')).toHaveText(Object.keys(cache).length.toLocaleString('en'));

    await page.getByTestId('release-submission').selectOption('bm25-reference');
    await expect(page.getByTestId('validation-ok')).toBeVisible();
    await expect(page.getByTestId('judge-uncached')).toHaveText('0');
    await page.getByTestId('score-run').click();
    await expect(page.getByTestId('scorecard')).toBeVisible();
    const withMeta = (await downloaded(page, 'export-scores')).toString('utf8');
    expect(withMeta).toBe(await cliScore(path.join(bm25, 'predictions.jsonl'), cacheFile));
    expect(JSON.parse(withMeta)).toMatchObject({
      system_name: 'bm25 (reference)',
      split: 'full',
      dataset_version: 'v1.0',
    });

    // predictions picked alone: the submission's fields go, and those left empty show and get what the
    // CLI gives (the split scored)
    await expect(page.getByTestId('extra-system-name')).toHaveValue('bm25 (reference)');
    await setFile(page, 'predictions-file', 'predictions.jsonl', readFileSync(lonePredictions));
    await expect(page.getByTestId('validation-ok')).toBeVisible();
    await expect(page.getByTestId('extra-system-name')).toHaveValue('');
    await expect(page.getByTestId('extra-split')).toHaveValue('');
    await expect(page.getByTestId('extra-split')).toHaveAttribute('placeholder', 'full');
    await expect(page.getByTestId('extra-dataset-version')).toHaveAttribute('placeholder', 'v1.0');
    await page.getByTestId('score-run').click();
    await expect(page.getByTestId('scorecard')).toBeVisible();
    const lone = (await downloaded(page, 'export-scores')).toString('utf8');
    expect(lone).toBe(await cliScore(lonePredictions, cacheFile));
    expect(JSON.parse(lone)).toMatchObject({ split: 'full', dataset_version: 'v1.0' });
  });

  test('the same files by URL, without the entry: the page says where to get a profile and takes the one picked', async ({
    page,
  }) => {
    await page.goto(`/?release=${encodeURIComponent(mirror.url)}&view=score`);
    await expect(page.getByTestId('profile-help')).toContainText('This release has no judge profile');
    await expect(page.getByTestId('inputs-state')).toContainText('pick its judge-profile.json');
    const copy = page.getByTestId('profile-copy');
    await expect(copy).toHaveAttribute('href', /static-data\/judge-profiles\/epstein-bench-v1\.0\.json$/);
    // the link serves the pinned bytes
    const served = await page.request.get((await copy.getAttribute('href'))!);
    expect(Buffer.from(await served.body()).equals(readFileSync(siteProfileFile))).toBe(true);
    await setFile(page, 'profile-file', 'judge-profile.json', readFileSync(siteProfileFile));
    await expect(page.getByTestId('inputs-state')).toContainText(
      'Judge: gpt-5.5-2026-04-23, prompts v2 (judge-profile.json)',
    );
    await page.getByTestId('release-submission').selectOption('bm25-reference');
    await expect(page.getByTestId('validation-ok')).toBeVisible();
    await expect(page.getByTestId('judge-estimate')).toBeVisible();
  });

  test('a live run against the mock judge sends only what the cache lacks, and exports the CLI bytes', async ({
    page,
    context,
  }) => {
    const judge = await startEchoJudge(v10Judge);
    try {
      await routeGitHubTo(context, mirror);
      await openOfficialScore(page);
      // nine replies in ten are cached; the tenth go to the judge
      const entries = Object.entries(cache);
      const cached = Object.fromEntries(entries.filter((_, i) => i % 10 !== 0));
      await setFile(page, 'cache-import-file', 'part.json', JSON.stringify(cached));
      await page.getByTestId('release-submission').selectOption('bm25-reference');
      await expect(page.getByTestId('validation-ok')).toBeVisible();
      await page.getByTestId('judge-base-url').fill(`${judge.url}/v1`);
      await page.getByTestId('judge-key').fill(KEY);
      await page.getByTestId('score-run').click();
      await expect(page.getByTestId('scorecard')).toBeVisible();
      expect(judge.requests.length).toBe(entries.length - Object.keys(cached).length);
      const live = (await downloaded(page, 'export-scores')).toString('utf8');
      expect(live).toBe(await cliScore(path.join(bm25, 'predictions.jsonl'), cacheFile));
    } finally {
      await judge.close();
    }
  });
});
