/**
 * The official release entry of static-data/releases.json, its raw.githubusercontent.com URLs
 * answered by a localhost mirror of the repository layout over ../shared/epstein-bench-v1.0
 * (which holds bm25-reference whole, dense-reference's scores only, and no DATASET_CARD.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { BATCH_COST_PER_DOC } from '../../src/core/source-docs/lookup.ts';
import { startRepositoryMirror, type RepositoryMirror } from '../support/repository-mirror.ts';
import { audit } from './axe-support.ts';
import { hasShared, projectRoot, routeGitHubTo, SKIP_NO_SHARED, v10Dir } from './support.ts';

interface Entry {
  id: string;
  title: string;
  url: string;
}
const entry = (
  JSON.parse(readFileSync(path.join(projectRoot, 'static-data/releases.json'), 'utf8')) as { releases: Entry[] }
).releases.find((r) => r.title === 'Epstein Bench v1.0 (official)')!;
const pinned = new URL(entry.url);

const firstLine = <T>(file: string, where: (row: T) => boolean): T =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T)
    .find(where)!;

test.describe('the official release from the repository (localhost mirror)', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);
  let mirror: RepositoryMirror;
  test.beforeAll(async () => {
    expect(pinned.host).toBe('raw.githubusercontent.com');
    expect(pinned.pathname).toMatch(/^\/yourbuddyconner\/epstein-bench\/[0-9a-f]{40}\/$/);
    mirror = await startRepositoryMirror(v10Dir, pinned.pathname);
  });
  test.afterAll(async () => mirror?.close());

  test('picked in the dialog: names GitHub, shows progress, loads every pinned file and the available submissions', async ({
    page,
    context,
  }) => {
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    await routeGitHubTo(context, mirror, { path: 'dataset/v1.0/full/tasks.jsonl', until });
    await page.goto('/');
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    await page.getByTestId('open-load-dialog').click();
    await expect(page.getByTestId(`shipped-where-${entry.id}`)).toContainText('raw.githubusercontent.com');
    await expect(page.getByTestId(`shipped-where-${entry.id}`)).toContainText('fcad921e');
    await page.screenshot({ path: '/tmp/official-load-dialog.png' });
    mirror.log.length = 0;
    await page.getByTestId(`shipped-release-${entry.id}`).click();
    // Held on full/tasks.jsonl: the progress names the host and counts files.
    const progress = page.getByTestId('load-progress');
    await expect(progress).toContainText('from raw.githubusercontent.com');
    await expect(progress).toContainText(/\d+\/\d+ files/);
    await page.screenshot({ path: '/tmp/official-progress.png' });
    release();
    await expect(page.getByTestId('release-title')).toContainText('Epstein Bench v1.0');
    await expect(page).toHaveURL(new RegExp(`release=${entry.id}`));

    await page.getByTestId('release-files').locator('summary').click();
    const rows = page.getByTestId('file-row');
    for (const pinnedFile of [
      'dataset/v1.0/full/questions.jsonl',
      'dataset/v1.0/dev/questions.jsonl',
      'submissions/bm25-reference/metadata.json',
    ])
      await expect(rows.filter({ hasText: pinnedFile })).toContainText('sha256 ok');
    await expect(rows.filter({ hasText: 'submissions/bm25-reference/predictions.jsonl' })).toContainText('loaded');
    await expect(rows.filter({ hasText: 'submissions/dense-reference/scores.json' })).toContainText('loaded');
    await expect(page.getByTestId('file-problems')).toHaveCount(0);

    const ok = mirror.log.filter((r) => r.status === 200);
    const bytes = ok.reduce((n, r) => n + r.bytes, 0);
    const summary = await page.getByTestId('release-files').locator('summary').innerText();
    console.log(
      `official release from the mirror: ${ok.length} files, ${bytes.toLocaleString('en')} bytes, ${mirror.log.length - ok.length} absent (404); ${summary.split('·')[0]!.trim()}`,
    );
    expect(new Set(mirror.log.map((r) => r.path)).size).toBe(mirror.log.length);
  });

  test('Audit → Grounding shows the card’s published figures beside the measured ones, and offers the gold documents with their cost', async ({
    page,
    context,
  }) => {
    await routeGitHubTo(context, mirror);
    await page.goto(`/?release=${entry.id}&view=audit`);
    await expect(page.getByTestId('grounding-line').first()).toHaveText('single_hop n/a (0/0)', { timeout: 60_000 });
    await expect(page.getByTestId('grounding-card')).toHaveText([
      'single_hop 99.0% (815/823)',
      'timeline 96.3% (26/27)',
      '',
      '',
    ]);
    await expect(page.getByTestId('audit-read-source')).toContainText('Read 4,580 gold documents from the source');
    // Nothing is kept or located in a fresh browser: every document at the measured cost.
    const requests = Math.ceil(4580 * BATCH_COST_PER_DOC.requests).toLocaleString('en');
    const mb = ((4580 * BATCH_COST_PER_DOC.bytes) / 1e6).toFixed(0);
    await expect(page.getByTestId('audit-source-estimate')).toContainText(
      `Estimate: about ${requests} requests and ${mb} MB (measured`,
    );
  });

  test('says which leaderboard entries have no submission folder: in the file list, the Systems and the Leaderboard views', async ({
    page,
    context,
  }) => {
    await routeGitHubTo(context, mirror);
    // The five entries ../shared's v1.0 holds no folder of (it has bm25-reference and dense-reference).
    const absent = ['agentic-sonnet-5', 'hybrid', 'agentic-opus-4-8', 'closed_book', 'parametric'];
    const named = (where: ReturnType<typeof page.getByTestId>) =>
      expect(where.getByTestId('unsubmitted-entry')).toHaveText(
        absent.map((n) => `${n} (reference) (submissions/${n.replace('_', '-')}-reference/)`),
      );
    await page.goto(`/?release=${entry.id}&view=systems`);
    const systems = page.getByTestId('systems-view');
    await named(systems);
    await expect(systems.getByTestId('unsubmitted')).toContainText('5 leaderboard entries without a submission');
    await page.getByTestId('release-files').locator('summary').click();
    await named(page.getByTestId('release-files'));
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('link', { name: 'Leaderboard', exact: true })
      .click();
    await expect(page).toHaveURL(/view=leaderboard/);
    await named(page.getByTestId('leaderboard'));
    // Readable and axe clean in both themes, at desktop and phone widths.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expect(page.getByTestId('leaderboard').getByTestId('unsubmitted')).toBeVisible();
        expect(await audit(page, `leaderboard ${width} px ${colorScheme}`)).toEqual([]);
        await page.screenshot({ path: `/tmp/official-unsubmitted-${width}-${colorScheme}.png` });
      }
    }
  });

  test('reload keeps it, and a v1.0 task permalink opened fresh reaches the task', async ({ page, context }) => {
    await routeGitHubTo(context, mirror);
    const task = firstLine<{ task_id: string; question: string; answer: string | null }>(
      path.join(v10Dir, 'full/tasks.jsonl'),
      (t) => t.answer !== null,
    );
    mirror.log.length = 0;
    await page.goto(`/?release=${entry.id}`);
    await expect(page.getByTestId('release-title')).toContainText('Epstein Bench v1.0');
    const summary = await page.getByTestId('release-files').locator('summary').innerText();
    console.log(
      `official release opened by its permalink: ${mirror.log.filter((r) => r.status === 200).length} files, ${mirror.log.reduce((n, r) => n + r.bytes, 0).toLocaleString('en')} bytes; ${summary.split('·')[0]!.trim()}`,
    );
    await page.reload();
    await expect(page.getByTestId('release-title')).toContainText('Epstein Bench v1.0');
    await expect(page.getByTestId('task-total')).toContainText('tasks');

    const fresh = await context.newPage();
    await fresh.goto(`/?release=${entry.id}&view=task&task=${task.task_id}&split=full`);
    await expect(fresh.getByTestId('task-question')).toHaveText(task.question);
    await expect(fresh.getByTestId('reference-answer')).toHaveText(task.answer!);
  });

  test('a v1.0 task permalink without ?release= says the release it belongs to and loads it, keeping the task', async ({
    page,
    context,
  }) => {
    await routeGitHubTo(context, mirror);
    const task = firstLine<{ task_id: string; question: string }>(path.join(v10Dir, 'dev/tasks.jsonl'), () => true);
    await page.goto(`/?view=task&task=${task.task_id}`);
    await expect(page.getByTestId('task-missing')).toContainText(task.task_id);
    await expect(page.getByTestId('task-home')).toContainText('Epstein Bench v1.0 (official)');
    await expect(page.getByTestId('task-home')).toContainText('raw.githubusercontent.com');
    await page.screenshot({ path: '/tmp/official-task-elsewhere.png' });
    await page.getByTestId('load-task-home').click();
    await expect(page.getByTestId('task-question')).toHaveText(task.question);
    await expect(page).toHaveURL(new RegExp(`task=${task.task_id}`));
    await expect(page).toHaveURL(new RegExp(`release=${entry.id}`));
  });

  test('at full size (bm25-reference standing in for the five absent submissions): load and parse figures, seven columns', async ({
    page,
    context,
  }) => {
    // Only for figures at the real size (~4.7 MB): the stand-ins' answers are bm25's, never asserted as theirs.
    const board = JSON.parse(readFileSync(path.join(v10Dir, 'leaderboard.json'), 'utf8')) as {
      entries: Array<{ system_name: string }>;
    };
    const bm25 = (f: string) => readFileSync(path.join(v10Dir, 'submissions/bm25-reference', f));
    const metadata = JSON.parse(bm25('metadata.json').toString('utf8')) as Record<string, string>;
    const override = new Map<string, Uint8Array>();
    for (const e of board.entries) {
      const slug = e.system_name
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, '-')
        .replace(/^-|-$/g, '');
      if (slug === 'bm25-reference') continue;
      const at = `submissions/${slug}/`;
      override.set(`${at}predictions.jsonl`, bm25('predictions.jsonl'));
      override.set(`${at}metadata.json`, Buffer.from(JSON.stringify({ ...metadata, system_name: e.system_name })));
      override.set(`${at}scores.json`, Buffer.from(JSON.stringify(e)));
    }
    const full = await startRepositoryMirror(v10Dir, pinned.pathname, override);
    try {
      await routeGitHubTo(context, full);
      await page.goto(`/?release=${entry.id}&view=systems`);
      await expect(page.getByTestId('systems-table').locator('thead th')).toHaveCount(9);
      const ok = full.log.filter((r) => r.status === 200);
      const summary = await page.getByTestId('release-files').locator('summary').innerText();
      console.log(
        `official release at full size from the mirror: ${ok.length} files, ${ok.reduce((n, r) => n + r.bytes, 0).toLocaleString('en')} bytes; ${summary.split('·')[0]!.trim()}; seven predictions files parsed in ${await page.getByTestId('systems-parse-ms').innerText()} ms in the data worker`,
      );
    } finally {
      await full.close();
    }
  });

  test('an unknown ?release= says so and loads nothing instead of the sample', async ({ page }) => {
    await page.goto('/?release=no-such-release&view=task&task=00000000-0000-4000-8000-000000000000');
    await expect(page.getByTestId('load-error')).toContainText('no release named "no-such-release"');
    await expect(page.getByTestId('release-title')).toContainText('no release loaded');
    await expect(page).toHaveURL(/release=no-such-release/);
  });
});
