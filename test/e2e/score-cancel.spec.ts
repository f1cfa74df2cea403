/**
 * Issue 25.22 in the page: a release whose judge profile asks for 100,000 bootstrap iterations
 * (the most allowed) shows the bootstrap's progress while it scores, and a Cancel stops it with
 * a "Scoring cancelled" state, not an error; the worker still answers (it scores again after).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { sha256HexSync } from '../../src/adapters/node/sha256.ts';
import { MAX_BOOTSTRAP_ITERATIONS } from '../../src/core/release/profile-limits.ts';
import { audit } from './axe-support.ts';
import { copyFolder, projectRoot, startStaticServer } from './support.ts';
import { setFile } from './score-support.ts';

/** A copy of the sample release whose judge profile runs the most iterations allowed, re-pinned. */
function longBootstrapRelease(): string {
  const dir = copyFolder(path.join(projectRoot, 'static-data/sample'));
  const at = (rel: string) => path.join(dir, rel);
  const profile = JSON.parse(readFileSync(at('judge-profile.json'), 'utf8')) as { bootstrap: { iterations: number } };
  profile.bootstrap.iterations = MAX_BOOTSTRAP_ITERATIONS;
  writeFileSync(at('judge-profile.json'), JSON.stringify(profile, null, 2));
  const descriptor = JSON.parse(readFileSync(at('release.json'), 'utf8')) as { sha256: Record<string, string> };
  descriptor.sha256['judge-profile.json'] = sha256HexSync(readFileSync(at('judge-profile.json')));
  writeFileSync(at('release.json'), JSON.stringify(descriptor, null, 2));
  return dir;
}

/**
 * 3,000 answerable tasks answered with nothing: no judge call at all, and a bootstrap that takes
 * far longer than a click (its cost grows with the tasks), so Cancel always lands during it.
 */
const TASKS = Array.from({ length: 3000 }, (_, i) => ({
  task_id: `t${i}`,
  type: 'single_hop',
  question: `Question ${i}?`,
  answer: `answer ${i}`,
  items: null,
  source_doc_ids: ['SMPL00041989'],
  gold_docs: ['SMPL00041989'],
}));
const jsonl = (rows: readonly object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

let release: { url: string; close: () => Promise<void> };
test.beforeAll(async () => {
  release = await startStaticServer(longBootstrapRelease());
});
test.afterAll(async () => {
  await release.close();
});

// both themes, desktop and phone widths, axe clean while it runs and once cancelled
for (const [scheme, width] of [
  ['light', 1440],
  ['dark', 390],
] as const)
  test(`a long bootstrap shows its progress and Cancel stops it as "Scoring cancelled" (${scheme}, ${width} px)`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/?release=${encodeURIComponent(release.url)}&view=score`);
    await expect(page.getByTestId('inputs-state')).toContainText('Tasks:');
    await setFile(page, 'tasks-file', 'tasks.jsonl', jsonl(TASKS));
    await expect(page.getByTestId('inputs-state')).toContainText('tasks.jsonl');
    const predictions = TASKS.map((t) => ({ task_id: t.task_id, answer: '', citations: [], retrieved: [] }));
    await setFile(page, 'predictions-file', 'predictions.jsonl', jsonl(predictions));
    await expect(page.getByTestId('validation-ok')).toBeVisible();
    await expect(page.getByTestId('judge-uncached')).toHaveText('0');

    await page.getByTestId('score-run').click();
    const progress = page.getByTestId('bootstrap-progress-text');
    await expect(progress).toHaveText(/^bootstrap [\d,]+\/200,000$/);
    expect(await audit(page, `score (bootstrap under way, ${scheme}, ${width} px)`)).toEqual([]);
    const cancel = page.getByTestId('judge-cancel');
    await cancel.focus();
    await page.keyboard.press('Enter');

    const status = page.getByTestId('score-status');
    await expect(status).toContainText('Scoring cancelled');
    const [, done] = /after ([\d,]+)\/200,000 iterations/.exec((await status.textContent()) ?? '') ?? [];
    expect(Number(done?.replaceAll(',', ''))).toBeLessThan(200_000);
    await expect(status).toContainText("the judge's verdicts stay in the cache");
    await expect(status).toHaveAttribute('role', 'status');
    await expect(page.getByTestId('scorecard')).toHaveCount(0);
    await expect(progress).toHaveCount(0);
    await expect(cancel).toHaveCount(0);
    // the run is over: the button scores again
    await expect(page.getByTestId('score-run')).toBeEnabled();
    expect(await audit(page, `score (scoring cancelled, ${scheme}, ${width} px)`)).toEqual([]);
  });
