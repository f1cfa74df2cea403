/**
 * Local data under attack (issue 25, items 25–29): spot-check labels from the future, a labels
 * file of 3,000 reviewers, appeals with another release's appeal_id, a release claiming another
 * release's id, and site data blocked. Each test is the attack itself.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { APPEAL_FORMAT, appealsJsonl, type GoldAppeal } from '../../src/core/audit/appeals.ts';
import { emptyLabels, labelsJsonl, SPOT_FORMAT, type SpotLabel } from '../../src/core/audit/spot-check/labels.ts';
import { copyFolder, startStaticServer } from './support.ts';
import { jsonl, sampleDir, type SampleTask } from './ux-support.ts';

const tasks = jsonl<SampleTask>('full/tasks.jsonl');
const withGold = tasks.find((t) => t.gold_docs.length > 0)!;

function spotLabel(task: SampleTask, reviewer: string, standalone: 'yes' | 'no', labelled_at: string): SpotLabel {
  return {
    format: SPOT_FORMAT,
    release_id: 'sample',
    dataset_version: 'v1.0-sample',
    split: 'full',
    task_id: task.task_id,
    type: task.type as SpotLabel['type'],
    reviewer,
    sample: { seed: 7, size: 5 },
    labels: { ...emptyLabels(), standalone },
    judge: null,
    note: '',
    labelled_at,
  };
}

function appeal(releaseId: string, note: string): GoldAppeal {
  return {
    format: APPEAL_FORMAT,
    appeal_id: 'appeal-shared-id',
    release_id: releaseId,
    dataset_version: 'v1.0-sample',
    split: 'full',
    task_id: withGold.task_id,
    item: null,
    doc_id: withGold.gold_docs[0]!,
    passage_start: null,
    passage: 'the supporting passage',
    note,
    reviewer: 'ann',
    created_at: '2026-07-06T10:00:00.000Z',
  };
}

async function importFile(page: Page, testId: string, name: string, text: string): Promise<void> {
  await page.getByTestId(testId).setInputFiles({
    name,
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(text, 'utf8'),
  });
}

async function openAppeals(page: Page, release?: string): Promise<void> {
  await page.goto(`/?${release ? `release=${encodeURIComponent(release)}&` : ''}view=audit&tab=appeals`);
  await expect(page.getByTestId('rule-appeals')).toBeVisible();
  await expect(page.getByTestId('appeals-export')).toBeVisible();
}

test.describe('spot-check labels', () => {
  test("a label claiming 9999-12-31 does not hide the reviewer's own later answer, even after reload", async ({
    page,
  }) => {
    await page.goto('/?view=spotcheck&size=5&seed=7');
    await expect(page.getByTestId('spot-task')).toBeVisible();
    await page.getByTestId('spot-reviewer').fill('ann');
    await page.getByTestId('spot-reviewer').press('Enter');
    const id = (await page.getByTestId('spot-task').getAttribute('data-task-id'))!;
    const task = tasks.find((t) => t.task_id === id)!;
    await page.keyboard.press('y');
    await expect(page.getByTestId('spot-q-standalone')).toHaveAttribute('data-value', 'yes');

    await importFile(
      page,
      'spot-import',
      'future.jsonl',
      labelsJsonl([spotLabel(task, 'ann', 'no', '9999-12-31T23:59:59.999Z')]),
    );
    await expect(page.getByTestId('spot-message')).toContainText('differ from your own labels (ann), which were kept');
    await page.getByTestId('spot-conflicts').locator('summary').click();
    await expect(page.getByTestId('spot-conflicts')).toContainText('ann: your label kept');
    await expect(page.getByTestId('spot-q-standalone')).toHaveAttribute('data-value', 'yes');

    await page.reload();
    await expect(page.getByTestId('spot-task')).toBeVisible();
    await expect(page.getByTestId('spot-q-standalone')).toHaveAttribute('data-value', 'yes');
    await expect(page.getByTestId('spot-rate-standalone').getByTestId('rate')).toHaveText('0.0% (0/1)');
  });

  test('a 1.1 MB labels file of 3,000 reviewers imports, the page stays usable, pairs are bounded', async ({
    page,
  }) => {
    await page.goto('/?view=spotcheck&size=5&seed=7');
    await expect(page.getByTestId('spot-task')).toBeVisible();
    const some = tasks.slice(0, 5);
    const labels = Array.from({ length: 3000 }, (_, i) =>
      spotLabel(some[i % 5]!, `reviewer-${String(i).padStart(4, '0')}`, i % 4 ? 'yes' : 'no', '2026-01-01T00:00:00Z'),
    ).map((l) => ({ ...l, note: 'x'.repeat(180) }));
    const text = labelsJsonl(labels);
    expect(text.length).toBeGreaterThan(1_000_000);
    await importFile(page, 'spot-import', 'many.jsonl', text);
    await expect(page.getByTestId('spot-message')).toContainText('Merged 3000 label(s) of 3000 reviewer(s)');
    await expect(page.getByTestId('spot-counts')).toContainText('on 5 tasks by 3000 reviewers');
    await expect(page.getByTestId('spot-pairs-left-out')).toContainText('2988 other reviewers');
    // rates count the five tasks, agreement is shown apart
    await expect(page.getByTestId('spot-rate-standalone').getByTestId('rate')).toHaveText('0.0% (0/5)');
    await expect(page.getByTestId('spot-agree-standalone')).toContainText('5');
    // the page still answers
    await page.getByTestId('spot-reviewer').fill('zoe');
    await expect(page.getByTestId('spot-reviewer')).toHaveValue('zoe');
  });
});

test.describe('releases keep their own local data', () => {
  let other: { url: string; close: () => Promise<void> };
  let impostor: { url: string; close: () => Promise<void> };
  test.beforeAll(async () => {
    // Another release (its own id) and an impostor: the sample's files on another host, same id and pins.
    const otherDir = copyFolder(sampleDir);
    const descriptor = JSON.parse(readFileSync(path.join(otherDir, 'release.json'), 'utf8')) as { id: string };
    descriptor.id = 'sample-b';
    writeFileSync(path.join(otherDir, 'release.json'), JSON.stringify(descriptor, null, 2));
    other = await startStaticServer(otherDir);
    impostor = await startStaticServer(copyFolder(sampleDir));
  });
  test.afterAll(async () => {
    await other.close();
    await impostor.close();
  });

  test("importing an appeal into one release keeps another release's appeal with the same appeal_id", async ({
    page,
  }) => {
    await openAppeals(page);
    await importFile(page, 'appeals-import', 'a.jsonl', appealsJsonl([appeal('sample', 'the sample appeal')]));
    await expect(page.getByTestId('appeals-table')).toContainText('the sample appeal');

    await openAppeals(page, other.url);
    await expect(page.getByTestId('appeals-empty')).toBeVisible();
    await importFile(page, 'appeals-import', 'b.jsonl', appealsJsonl([appeal('sample-b', 'the other appeal')]));
    await expect(page.getByTestId('appeals-table')).toContainText('the other appeal');

    await openAppeals(page);
    await expect(page.getByTestId('appeals-table')).toContainText('the sample appeal');
    // importing it again adds nothing and changes nothing
    await importFile(page, 'appeals-import', 'a2.jsonl', appealsJsonl([appeal('sample', 'rewritten')]));
    await expect(page.getByRole('status').filter({ hasText: 'already here' })).toContainText(
      '1 were already here (same appeal_id)',
    );
    await expect(page.getByTestId('appeals-table')).toContainText('the sample appeal');
    await expect(page.getByTestId('appeals-table')).not.toContainText('rewritten');
  });

  test("a release on another host claiming the sample's id sees none of its appeals and shows its host", async ({
    page,
  }) => {
    await openAppeals(page);
    await importFile(page, 'appeals-import', 'a.jsonl', appealsJsonl([appeal('sample', 'only for the sample')]));
    await expect(page.getByTestId('appeals-table')).toContainText('only for the sample');
    await expect(page.getByTestId('release-origin')).toHaveCount(0);

    await openAppeals(page, impostor.url);
    await expect(page.getByTestId('release-title')).toContainText('Epstein Bench sample release');
    await expect(page.getByTestId('release-origin')).toHaveText(`from http://${new URL(impostor.url).host}`);
    await expect(page.getByTestId('appeals-empty')).toBeVisible();
    await expect(page.getByTestId('appeals-export')).toHaveText('Export 0 appeals (JSONL)');
  });

  test("records an earlier version kept by claimed id: the site's own release adopts them, another is asked", async ({
    page,
  }) => {
    // Version 1 of the store, as an earlier explorer left it.
    await page.goto('/static-data/releases.json');
    await page.evaluate(
      async ([record]) => {
        await new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('ebx-audit', 1);
          open.onupgradeneeded = () => {
            open.result.createObjectStore('labels');
            open.result.createObjectStore('appeals');
          };
          open.onsuccess = () => {
            const tx = open.result.transaction('appeals', 'readwrite');
            tx.objectStore('appeals').put(record, record!.appeal_id);
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
            tx.onerror = () => reject(new Error('put failed'));
          };
          open.onerror = () => reject(new Error('open failed'));
        });
      },
      [appeal('sample', 'kept by version 1')],
    );

    await openAppeals(page, impostor.url);
    await expect(page.getByTestId('legacy-records')).toContainText('0 spot-check label(s) and 1 appeal(s)');
    await expect(page.getByTestId('appeals-empty')).toBeVisible();

    await openAppeals(page);
    await expect(page.getByTestId('appeals-table')).toContainText('kept by version 1');
    await expect(page.getByTestId('legacy-records')).toHaveCount(0);
  });
});

test('with site data blocked the app works without remembering', async ({ page }) => {
  // What Chromium does when site data is blocked (or the page has an opaque origin): reading
  // localStorage or sessionStorage throws a SecurityError, and so does opening IndexedDB, the
  // Cache API and a service worker registration. (Chromium's headless shell ignores the profile's
  // content settings, so the page is given the same throws before any of its scripts runs.)
  await page.addInitScript(() => {
    const denied = () => new DOMException('Access is denied for this document.', 'SecurityError');
    for (const name of ['localStorage', 'sessionStorage'])
      Object.defineProperty(window, name, {
        configurable: true,
        get() {
          throw denied();
        },
      });
    IDBFactory.prototype.open = () => {
      throw denied();
    };
    if ('caches' in window) CacheStorage.prototype.open = () => Promise.reject(denied());
    if ('serviceWorker' in navigator) ServiceWorkerContainer.prototype.register = () => Promise.reject(denied());
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/');
  await expect(page.getByTestId('release-title')).toContainText('Epstein Bench sample release');
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  await page.getByTestId('theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // the welcome box opens and closes (not remembered)
  const welcome = page.getByTestId('welcome');
  const wasOpen = await welcome.evaluate((d) => (d as HTMLDetailsElement).open);
  await welcome.locator('summary').first().click();
  await expect.poll(() => welcome.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(!wasOpen);
  // spot-check: labels last for this page only, and the page says so
  await page.goto('/?view=spotcheck&size=5&seed=7');
  await expect(page.getByTestId('spot-task')).toBeVisible();
  await page.getByTestId('spot-reviewer').fill('ann');
  await page.getByTestId('spot-reviewer').press('Enter');
  await page.keyboard.press('y');
  await expect(page.getByTestId('spot-q-standalone')).toHaveAttribute('data-value', 'yes');
  await expect(page.getByTestId('spot-view').getByRole('alert').first()).toContainText('IndexedDB is not available');
  expect(errors).toEqual([]);
});
