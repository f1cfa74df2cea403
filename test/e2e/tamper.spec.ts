/**
 * Issue 21's "tampering is still caught": a copy of the sample served by URL from another origin,
 * with one byte of docs.parquet changed inside the block every reader reads (the footer's last
 * 16 KiB, in its created_by text, so that the file still parses and only the pins can tell). An
 * embed of a task and the full task page are both refused, once with release.json's block pins
 * (the embed checks the blocks it reads) and once with them removed (the whole-file check).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { copyFolder, flipByte, projectRoot, startStaticServer } from './support.ts';

const sample = path.join(projectRoot, 'static-data/sample');

interface Descriptor {
  sha256: Record<string, string>;
  blocks?: Record<string, { block_bytes: number; sha256: string[] }>;
}
const descriptor = JSON.parse(readFileSync(path.join(sample, 'release.json'), 'utf8')) as Descriptor;
const docsPin = descriptor.sha256['docs.parquet']!;
const docsBlocks = descriptor.blocks!['docs.parquet']!;
const docs = readFileSync(path.join(sample, 'docs.parquet'));
/** A letter of the footer's created_by text: the file stays a readable parquet file. */
const changedAt = docs.lastIndexOf('sample generator') + 3;
const lastBlock = docsBlocks.sha256.length;

const task = readFileSync(path.join(sample, 'full/tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { task_id: string; type: string; question: string; gold_docs: string[] })
  .find((t) => t.type === 'single_hop' && t.gold_docs.length > 0)!;

/** The sample copied, docs.parquet changed at `changedAt` (unless `intact`), block pins kept or removed. */
function servedCopy(options: { blockPins: boolean; intact?: boolean }): string {
  const dir = copyFolder(sample);
  if (!options.intact) flipByte(path.join(dir, 'docs.parquet'), changedAt);
  if (!options.blockPins) {
    const { blocks, ...rest } = descriptor;
    expect(blocks).toBeDefined();
    writeFileSync(path.join(dir, 'release.json'), JSON.stringify(rest, null, 2));
  }
  return dir;
}

const embedOf = (release: string) => `/embed/?task=${task.task_id}&split=full&release=${encodeURIComponent(release)}`;
const taskPageOf = (release: string) =>
  `/?release=${encodeURIComponent(release)}&view=task&task=${task.task_id}&split=full`;

const WHOLE_FILE = new RegExp(`docs\\.parquet: sha256 is [0-9a-f]{64} but the pin is ${docsPin}`);
const BLOCK = new RegExp(
  `docs\\.parquet: block ${lastBlock} of ${lastBlock} \\(bytes ${(lastBlock - 1) * docsBlocks.block_bytes}–${docs.byteLength}\\) has sha256 [0-9a-f]{64}, but release\\.json blocks pins ${docsBlocks.sha256[lastBlock - 1]}`,
);

async function fullPageRefused(page: Page, release: string): Promise<void> {
  await page.goto(taskPageOf(release));
  // The full page keeps the whole-file check, pins of blocks or not.
  await expect(page.getByTestId('load-error')).toContainText(WHOLE_FILE);
  await expect(page.getByTestId('load-error')).toContainText('The rest of the release was refused');
  await expect(page.getByTestId('task-question')).toHaveCount(0);
}

test.beforeAll(() => {
  // The changed byte lies in the last block, which every reader of the footer reads.
  expect(changedAt).toBeGreaterThanOrEqual((lastBlock - 1) * docsBlocks.block_bytes);
  expect(docs.byteLength - changedAt).toBeLessThan(16 * 1024);
});

test('with block pins, an intact copy: the embed shows the task and passes its block checks', async ({ page }) => {
  const host = await startStaticServer(servedCopy({ blockPins: true, intact: true }));
  try {
    await page.goto(embedOf(host.url));
    await expect(page.getByTestId('task-question')).toHaveText(task.question);
    await expect(page.getByTestId('embed')).toHaveAttribute('data-pin-check', 'done');
    await expect(page.getByTestId('embed-error')).toHaveCount(0);
  } finally {
    await host.close();
  }
});

for (const { blockPins, embedRefusal, how } of [
  { blockPins: true, embedRefusal: BLOCK, how: 'the embed naming the block, the full task page the file pin' },
  { blockPins: false, embedRefusal: WHOLE_FILE, how: 'both by the whole-file check (an older release)' },
]) {
  test(`${blockPins ? 'with' : 'without'} block pins, a changed byte is refused: ${how}`, async ({ page }) => {
    const host = await startStaticServer(servedCopy({ blockPins }));
    try {
      await test.step('the task embed', async () => {
        await page.goto(embedOf(host.url));
        await expect(page.getByTestId('embed-error')).toContainText(embedRefusal);
        await expect(page.getByTestId('task-question')).toHaveCount(0);
      });
      await test.step('the full task page', () => fullPageRefused(page, host.url));
    } finally {
      await host.close();
    }
  });
}
