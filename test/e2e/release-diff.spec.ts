/**
 * The Diff view in Chromium, the diff worker reading both releases: today's v1.0 (loaded, from a
 * localhost URL) against the second build labelled v1.0 (../shared/epstein-bench-history/, named
 * in `?against=`), and the sample against an edited copy picked as a folder. The counts shown must
 * equal the CLI's `release-diff --json` on the same folders, and the downloads the CLI's files,
 * byte for byte.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ReleaseDiff } from '../../src/core/release-diff/diff.ts';
import { spawnCli } from '../support/cli.ts';
import { listenLocal } from '../support/local-server.ts';
import { startRepositoryMirror, type RepositoryMirror } from '../support/repository-mirror.ts';
import { writePinnedRelease, type ReleaseTask } from '../support/pinned-release.ts';
import { audit } from './axe-support.ts';
import { downloaded } from './score-support.ts';
import {
  hasShared,
  projectRoot,
  routeGitHubTo,
  sharedDir,
  SKIP_NO_SHARED,
  startStaticServer,
  v10Dir,
} from './support.ts';
import { sidewaysOverflow } from './ux-support.ts';

const historyDir = path.join(sharedDir, 'epstein-bench-history');
const olderV10 = path.join(historyDir, 'e21acec3/dataset/v1.0');
const sampleDir = path.join(projectRoot, 'static-data/sample');

async function cliDiff(a: string, b: string, extra: string[] = []): Promise<ReleaseDiff> {
  const run = await spawnCli(['release-diff', a, b, '--json', ...extra]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ReleaseDiff;
}

/** The counts the view shows for every split, in the CLI's terms. */
async function expectCountsOf(page: Page, diff: ReleaseDiff): Promise<void> {
  for (const s of diff.splits) {
    const shown = page.getByTestId(`diff-split-${s.split}`);
    await expect(shown).toBeVisible();
    const expected: Record<string, number> = {
      added: s.added.length,
      removed: s.removed.length,
      kept: s.kept.length,
      unchanged: s.unchanged.length,
      changed: s.changed.length,
      reidentified: s.reidentified.length,
      near: s.near_matches.length,
      key: s.key_compared,
    };
    for (const [key, n] of Object.entries(expected))
      await expect(page.getByTestId(`diff-count-${s.split}-${key}`), `${s.split} ${key}`).toHaveText(
        n.toLocaleString('en'),
      );
  }
}

async function pickPredictions(page: Page, split: string, file: string): Promise<Buffer> {
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(`diff-predictions-${split}`).setInputFiles(file),
  ]);
  return readFileSync(await saved.path());
}

test.describe('today’s v1.0 against the second build labelled v1.0', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);
  let loaded: { url: string; close: () => Promise<void> };
  let other: { url: string; close: () => Promise<void> };
  test.beforeAll(async () => {
    loaded = await startStaticServer(v10Dir);
    other = await startStaticServer(historyDir);
  });
  test.afterAll(async () => {
    await loaded?.close();
    await other?.close();
  });

  test('counts equal the CLI’s, the same-label warning shows, the downloads are the CLI’s files', async ({ page }) => {
    const cut = mkdtempSync(path.join(os.tmpdir(), 'diff-e2e-'));
    const predictions = path.join(v10Dir, 'submissions/bm25-reference/predictions.jsonl');
    const cliRun = await cliDiff(olderV10, v10Dir, [
      '--shared-tasks',
      path.join(cut, 'full-tasks.jsonl'),
      '--predictions',
      predictions,
      '--shared-predictions',
      path.join(cut, 'full-predictions.jsonl'),
    ]);
    await spawnCli(['release-diff', olderV10, v10Dir, '--split', 'dev', '--shared-tasks', path.join(cut, 'dev.jsonl')]);
    const against = `${other.url}e21acec3/dataset/v1.0/`;
    const search = new URLSearchParams({ release: loaded.url, view: 'diff', against });
    await page.goto(`/?${search.toString()}`);
    await expect(page.getByTestId('diff-status')).toHaveText('Compared.');
    await expectCountsOf(page, cliRun);
    await expect(page.getByTestId('diff-same-label')).toContainText('Same label, different contents');
    await expect(page.getByTestId('diff-same-label')).toContainText('"v1.0"');
    await expect(page.getByTestId('diff-version-a')).toHaveText('v1.0');
    await expect(page.getByTestId('diff-version-b')).toHaveText('v1.0');
    // The other release is in the address; the loaded release stayed loaded.
    expect(new URL(page.url()).searchParams.get('against')).toBe(against);
    expect(new URL(page.url()).searchParams.get('release')).toBe(loaded.url);

    expect(await downloaded(page, 'diff-shared-tasks-full')).toEqual(readFileSync(path.join(cut, 'full-tasks.jsonl')));
    await expect(page.getByTestId('diff-shared-status-full')).toContainText('answer key of release B');
    expect(await downloaded(page, 'diff-shared-tasks-dev')).toEqual(readFileSync(path.join(cut, 'dev.jsonl')));
    expect(await pickPredictions(page, 'full', predictions)).toEqual(
      readFileSync(path.join(cut, 'full-predictions.jsonl')),
    );
    await expect(page.getByTestId('diff-shared-status-full')).toContainText('predictions kept');

    // An added task links to its page in the loaded release.
    const added = page.getByTestId('diff-list-full-added');
    await added.locator('summary').click();
    const first = cliRun.splits.find((s) => s.split === 'full')!.added[0]!;
    await added.getByRole('link', { name: first }).click();
    await expect(page).toHaveURL(new RegExp(`view=task.*task=${first}`));
    await expect(page.getByTestId('release-title')).toBeVisible();
  });
});

/** The sample's full split in the benchmark's layout, edited: one task dropped, one renamed, one reworded. */
function editedSample(): string {
  const tasks = readFileSync(path.join(sampleDir, 'full/tasks.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as ReleaseTask);
  const edited = tasks
    .slice(1)
    .map((t, i) =>
      i === 0 ? { ...t, task_id: randomUUID() } : i === 1 ? { ...t, question: `${t.question} Briefly.` } : t,
    );
  const { version } = JSON.parse(readFileSync(path.join(sampleDir, 'manifest.json'), 'utf8')) as { version: string };
  return writePinnedRelease(edited, version, 'edited-sample');
}

test('the sample against an edited copy picked as a folder: the CLI’s counts, the warning, keyboard, axe at both widths and themes', async ({
  page,
}) => {
  const edited = editedSample();
  const cliRun = await cliDiff(edited, sampleDir);
  expect(cliRun.same_label_warning).toBeDefined();
  await page.goto('/?view=diff');
  await expect(page.getByTestId('diff-status')).toHaveText('Pick a release to compare with.');
  await page.getByTestId('diff-pick-folder').setInputFiles(edited);
  await expect(page.getByTestId('diff-status')).toHaveText('Compared.');
  await expectCountsOf(page, cliRun);
  await expect(page.getByTestId('diff-same-label')).toContainText(`"${cliRun.b.version}"`);
  // Picked files cannot be named in a link: the address names no other release.
  expect(new URL(page.url()).searchParams.get('against')).toBeNull();

  // Keyboard: the lists open and their task links are reached with the keyboard alone.
  const reidentified = page.getByTestId('diff-list-full-reidentified');
  await reidentified.locator('summary').focus();
  await page.keyboard.press('Enter');
  const link = reidentified.getByRole('link');
  await expect(link).toHaveText(cliRun.splits[0]!.reidentified[0]!.added_id);
  await link.focus();
  await expect(link).toBeFocused();

  for (const scheme of ['light', 'dark'] as const)
    for (const width of [1440, 390]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByTestId('diff-split-full')).toBeVisible();
      expect(await audit(page, `diff ${scheme} ${width}`)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);
      await page.screenshot({ path: `/tmp/release-diff-${scheme}-${width}.png`, fullPage: true });
    }
});

test('a URL that never answers shows progress and Cancel; a site release is then named in the address and reopens from it', async ({
  page,
  context,
}) => {
  const hung = await listenLocal(() => undefined);
  try {
    await page.goto(`/?view=diff&against=${encodeURIComponent(`${hung.origin}/release/`)}`);
    const status = page.getByTestId('diff-status');
    await expect(status).toContainText('Reading the other release (A)…');
    await expect(status).toContainText(/\d+ s$/);
    await page.getByTestId('diff-cancel').click();
    await expect(page.getByTestId('diff-cancel')).toHaveCount(0);
    await expect(page.getByTestId('load-failed')).toHaveCount(0);

    // The sample against itself: nothing changed, no warning, every task shared.
    await page.getByTestId('diff-shipped-sample').click();
    await expect(status).toHaveText('Compared.');
    await expect(page.getByTestId('diff-shipped-sample')).toHaveAttribute('aria-pressed', 'true');
    expect(new URL(page.url()).searchParams.get('against')).toBe('sample');
    const cliRun = await cliDiff(sampleDir, sampleDir);
    await expectCountsOf(page, cliRun);
    await expect(page.getByTestId('diff-same-label')).toHaveCount(0);

    const other = await context.newPage();
    await other.goto(`/${new URL(page.url()).search}`);
    await expect(other.getByTestId('diff-status')).toHaveText('Compared.');
    await expectCountsOf(other, cliRun);
    await other.close();
  } finally {
    await hung.close();
  }
});

test.describe('the official v1.0 entry as the other release, the loaded one (an older build) as A', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);
  const entry = (
    JSON.parse(readFileSync(path.join(projectRoot, 'static-data/releases.json'), 'utf8')) as {
      releases: Array<{ id: string; url?: string }>;
    }
  ).releases.find((r) => r.url?.startsWith('https://raw.githubusercontent.com/'))!;
  let mirror: RepositoryMirror;
  let loaded: { url: string; close: () => Promise<void> };
  test.beforeAll(async () => {
    mirror = await startRepositoryMirror(v10Dir, new URL(entry.url!).pathname);
    loaded = await startStaticServer(olderV10);
  });
  test.afterAll(async () => {
    await mirror?.close();
    await loaded?.close();
  });

  test('read from its repository layout: the CLI’s counts and shared tasks; the loaded release’s kept tasks link to it', async ({
    page,
    context,
  }) => {
    await routeGitHubTo(context, mirror);
    const shared = path.join(mkdtempSync(path.join(os.tmpdir(), 'diff-e2e-')), 'full.jsonl');
    const cliRun = await cliDiff(olderV10, v10Dir, ['--shared-tasks', shared]);
    await page.goto(`/?${new URLSearchParams({ release: loaded.url, view: 'diff', loaded: 'a', against: entry.id })}`);
    await expect(page.getByTestId('diff-status')).toHaveText('Compared.');
    await expectCountsOf(page, cliRun);
    await expect(page.getByTestId('diff-same-label')).toBeVisible();
    await expect(page.getByTestId('diff-loaded-a')).toBeChecked();
    expect(await downloaded(page, 'diff-shared-tasks-full')).toEqual(readFileSync(shared));
    // Loaded as A: added tasks are not in it (no link), kept ones are.
    const addedList = page.getByTestId('diff-list-full-added');
    await addedList.locator('summary').click();
    await expect(addedList.getByRole('link')).toHaveCount(0);
    const kept = page.getByTestId('diff-list-full-kept');
    await kept.locator('summary').click();
    const first = cliRun.splits.find((s) => s.split === 'full')!.kept[0]!;
    await kept.getByRole('link', { name: first }).click();
    await expect(page).toHaveURL(new RegExp(`view=task.*task=${first}`));
    await expect(page.getByTestId('release-title')).toBeVisible();
  });
});
