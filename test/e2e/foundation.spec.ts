import { sha256HexSync } from '../../src/adapters/node/sha256.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { copyFolder, flipByte, hasShared, projectRoot, SKIP_NO_SHARED, startStaticServer, v10Dir } from './support.ts';

interface Manifest {
  splits: Record<string, { n_tasks: number; by_type: Record<string, number> }>;
}

interface Descriptor {
  sha256: Record<string, string>;
}

async function pickFolder(page: Page, folder: string): Promise<void> {
  await page.getByTestId('open-load-dialog').click();
  await page.getByTestId('pick-folder').setInputFiles(folder);
}

/** A facet's values and counts; values listed at 0 (seen under other filters) are left out. */
async function facetCounts(page: Page, facet: string): Promise<Record<string, number>> {
  const buttons = page.getByTestId(`facet-${facet}`).locator('button.facet');
  const out: Record<string, number> = {};
  for (const b of await buttons.all()) {
    const label = (await b.locator('.label').innerText()).trim();
    const count = Number((await b.locator('.count').innerText()).replace(/,/g, ''));
    if (count > 0) out[label] = count;
  }
  return out;
}

test('the site opens on its embedded release and lists its tasks', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  const total = Number((await page.getByTestId('task-total').innerText()).replace(/[^0-9]/g, ''));
  expect(total).toBeGreaterThan(0);
  await expect(page.getByTestId('release-title')).not.toContainText('no release');
});

test('a page whose code fails to download offers a reload, and says a picked release must be picked again', async ({
  page,
}) => {
  await page.goto('/');
  await pickFolder(page, path.join(projectRoot, 'static-data/sample'));
  await expect(page.getByTestId('release-title')).toContainText('sample');
  await page.route(/\/assets\/TaskView-[^/]*\.js$/, (route) => route.abort());
  await page.getByTestId('task-row').first().getByRole('link').first().click();
  const failed = page.getByTestId('load-failed');
  await expect(failed).toContainText('Could not load the task');
  await expect(failed).toContainText('The release you picked from your files will have to be picked again');
  await page.unrouteAll();
  await page.getByRole('button', { name: 'Reload the page' }).click();
  // As said: the reloaded page asks for the folder again.
  await expect(page.getByRole('alert')).toContainText('a browser cannot reopen those by itself');
  await pickFolder(page, path.join(projectRoot, 'static-data/sample'));
  await expect(page.getByTestId('task-detail')).toBeVisible();
});

test.describe('the real v1.0 files', () => {
  test.skip(!hasShared, SKIP_NO_SHARED);
  const manifest = hasShared
    ? (JSON.parse(readFileSync(path.join(v10Dir, 'manifest.json'), 'utf8')) as Manifest)
    : undefined;

  test('a picked v1.0 folder loads with counts equal to the manifest', async ({ page }) => {
    await page.goto('/');
    await pickFolder(page, v10Dir);
    await expect(page.getByTestId('release-title')).toContainText('Epstein Bench v1.0');
    // One split at a time, full by default: no task is listed twice.
    await expect(page.getByTestId('task-total')).toHaveText('1,038 tasks');
    await expect(page.getByTestId('split-full')).toHaveText('full · 1,038');
    await expect(page.getByTestId('split-dev')).toHaveText('dev · 50');
    expect(await facetCounts(page, 'type')).toEqual(manifest!.splits.full!.by_type);

    await page.getByTestId('split-dev').click();
    await expect(page.getByTestId('task-total')).toHaveText('50 tasks');
    expect(await facetCounts(page, 'type')).toEqual(manifest!.splits.dev!.by_type);
    await expect(page).toHaveURL(/split=dev/);
    // The dev split publishes its answer key: answers are shown.
    const devTasks = readFileSync(path.join(v10Dir, 'dev/tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { answer: string | null });
    const firstAnswer = devTasks.find((t) => t.answer)!.answer!;
    await expect(page.getByTestId('task-answer').filter({ hasText: firstAnswer }).first()).toBeVisible();
    await expect(page.getByTestId('task-row')).toHaveCount(50);
    await page.screenshot({ path: 'test-results/tasks-v1.0-dev.png', fullPage: false });
  });

  test('a release served from another origin loads by URL', async ({ page }) => {
    const server = await startStaticServer(v10Dir);
    try {
      await page.goto('/');
      await page.getByTestId('open-load-dialog').click();
      await page.getByTestId('release-url').fill(server.url);
      await page.getByRole('button', { name: 'Load URL' }).click();
      await expect(page.getByTestId('task-total')).toHaveText('1,038 tasks');
      await expect(page).toHaveURL(new RegExp(`release=${encodeURIComponent(server.url)}`));
      // The permalink reloads the same release.
      await page.reload();
      await expect(page.getByTestId('task-total')).toHaveText('1,038 tasks');
    } finally {
      await server.close();
    }
  });
});

test.describe('a damaged copy of the mini fixture release (its own pins, no ../shared needed)', () => {
  const mini = path.join(projectRoot, 'test/fixtures/mini-release');
  const pins = (JSON.parse(readFileSync(path.join(mini, 'release.json'), 'utf8')) as Descriptor).sha256;

  test('one changed byte in full/questions.jsonl refuses the load, naming the file and its pin', async ({ page }) => {
    const copy = copyFolder(mini);
    flipByte(path.join(copy, 'full/questions.jsonl'), 100);
    await page.goto('/');
    await pickFolder(page, copy);
    const error = page.getByTestId('dialog-error');
    await expect(error).toContainText('full/questions.jsonl');
    await expect(error).toContainText(pins['full/questions.jsonl']!);
  });

  test('a broken line 7 is reported as line 7', async ({ page }) => {
    const copy = copyFolder(mini);
    const file = path.join(copy, 'full/tasks.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[6] = lines[6]!.slice(0, 40);
    writeFileSync(file, lines.join('\n'));
    // Pinned again, so that the load gets past the checksum to the line.
    const descriptorFile = path.join(copy, 'release.json');
    const descriptor = JSON.parse(readFileSync(descriptorFile, 'utf8')) as Descriptor;
    descriptor.sha256['full/tasks.jsonl'] = sha256HexSync(readFileSync(file));
    writeFileSync(descriptorFile, JSON.stringify(descriptor, null, 2));
    await page.goto('/');
    await pickFolder(page, copy);
    await expect(page.getByTestId('file-problems')).toContainText('full/tasks.jsonl');
    await expect(page.getByTestId('file-issue').first()).toContainText('line 7');
  });
});
