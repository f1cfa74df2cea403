/**
 * A release with what the audit fed the views (findings 4.4 and 4.9): a doc id repeated in
 * gold_docs, a duplicated pool row, a task id twice, duplicated leaderboard names, a 20,000-
 * character and a 10 MB unbroken question, bidirectional overrides in names. The views show it
 * (no crash, no endless "Loading task…"), validation names the duplicates, no page gets wider
 * than the window, and no override reaches the page unescaped.
 */
import { sha256HexSync } from '../../src/adapters/node/sha256.ts';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { copyFolder, projectRoot, startStaticServer, trackErrors } from './support.ts';
import { openScorePage, setFile } from './score-support.ts';

const RLO = '\u202E';
const LONG = 'W'.repeat(20_000);
const HUGE = `zeppelin ${'x'.repeat(10_000_000)}`;

interface TaskLine {
  task_id: string;
  type: string;
  question: string;
  gold_docs: string[];
}

function sha(file: string): string {
  return sha256HexSync(readFileSync(file));
}

/** A copy of the sample release with the hostile changes, re-pinned so that it loads. */
function hostileRelease(): { dir: string; tasks: TaskLine[] } {
  const dir = copyFolder(path.join(projectRoot, 'static-data/sample'));
  const at = (rel: string) => path.join(dir, rel);
  const lines = (rel: string) => readFileSync(at(rel), 'utf8').trim().split('\n');
  const tasks = lines('full/tasks.jsonl').map((l) => JSON.parse(l) as TaskLine & Record<string, unknown>);
  const questions = lines('full/questions.jsonl').map((l) => JSON.parse(l) as { task_id: string; question: string });
  const withGold = tasks.filter((t) => t.gold_docs.length > 0);
  const [dupGold, dupId, long, huge] = [withGold[0]!, withGold[1]!, withGold[2]!, withGold[3]!];
  dupGold.gold_docs = [...dupGold.gold_docs, dupGold.gold_docs[0]!];
  for (const [task, question] of [
    [long, LONG],
    [huge, HUGE],
  ] as const) {
    task.question = question;
    questions.find((q) => q.task_id === task.task_id)!.question = question;
  }
  const taskLines = tasks.map((t) => JSON.stringify(t));
  taskLines.push(JSON.stringify(dupId));
  writeFileSync(at('full/tasks.jsonl'), `${taskLines.join('\n')}\n`);
  writeFileSync(at('full/questions.jsonl'), `${questions.map((q) => JSON.stringify(q)).join('\n')}\n`);
  const pool = lines('build/pool.jsonl');
  const poolRow = pool.find((l) => (JSON.parse(l) as { task_id: string }).task_id === dupGold.task_id)!;
  writeFileSync(at('build/pool.jsonl'), `${[...pool, poolRow].join('\n')}\n`);
  const board = JSON.parse(readFileSync(at('leaderboard.json'), 'utf8')) as { entries: Array<{ system_name: string }> };
  board.entries.push({ ...board.entries[0]! });
  board.entries[1]!.system_name = `system${RLO}fdp.exe`;
  writeFileSync(at('leaderboard.json'), JSON.stringify(board, null, 2));
  const entities = JSON.parse(readFileSync(at('entities.json'), 'utf8')) as Record<string, unknown>;
  entities[`evil${RLO}name`] = { aliases: [`Evil${RLO}Name`], doc_ids: dupGold.gold_docs.slice(0, 1) };
  writeFileSync(at('entities.json'), JSON.stringify(entities));
  const manifest = JSON.parse(readFileSync(at('manifest.json'), 'utf8')) as {
    splits: { full: { questions_sha256: string } };
  };
  manifest.splits.full.questions_sha256 = sha(at('full/questions.jsonl'));
  writeFileSync(at('manifest.json'), JSON.stringify(manifest, null, 2));
  // The submissions answer these questions: their metadata pins the new questions file, or the
  // release is refused once its submissions are read (they would answer other questions).
  const submissions = readdirSync(at('submissions'));
  for (const slug of submissions) {
    const meta = JSON.parse(readFileSync(at(`submissions/${slug}/metadata.json`), 'utf8')) as Record<string, unknown>;
    meta.questions_sha256 = manifest.splits.full.questions_sha256;
    writeFileSync(at(`submissions/${slug}/metadata.json`), JSON.stringify(meta, null, 2));
  }
  const descriptor = JSON.parse(readFileSync(at('release.json'), 'utf8')) as { sha256: Record<string, string> };
  for (const rel of [
    'full/tasks.jsonl',
    'full/questions.jsonl',
    'build/pool.jsonl',
    'leaderboard.json',
    'entities.json',
    'manifest.json',
    ...submissions.map((slug) => `submissions/${slug}/metadata.json`),
  ]) {
    descriptor.sha256[rel] = sha(at(rel));
  }
  writeFileSync(at('release.json'), JSON.stringify(descriptor, null, 2));
  return { dir, tasks: [dupGold, dupId, long, huge] };
}

async function pageWidth(page: Page): Promise<{ scroll: number; window: number }> {
  return page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, window: window.innerWidth }));
}

async function rawOverrides(page: Page): Promise<number> {
  return page.evaluate(() => (document.body.innerText.match(/[\u202A-\u202E\u2066-\u2069]/g) ?? []).length);
}

let release: { url: string; close: () => Promise<void> };
let tasks: TaskLine[];
test.beforeAll(async () => {
  const built = hostileRelease();
  tasks = built.tasks;
  release = await startStaticServer(built.dir);
});
test.afterAll(async () => {
  await release.close();
});

const at = (query: string) => `/?release=${encodeURIComponent(release.url)}${query ? `&${query}` : ''}`;

test('duplicates: validation names them and the task, doc, entity and leaderboard views show them', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = trackErrors(page);
  const [dupGold, dupId] = [tasks[0]!, tasks[1]!];
  await page.goto(at(''));
  const problems = page.getByTestId('file-problems');
  await expect(problems).toContainText(/full\/tasks\.jsonl, line 1\d\d: task_id ".+" repeats line \d+/);
  await expect(problems).toContainText(/field "gold_docs": doc id "SMPL\d{8}" is listed twice/);
  await expect(problems).toContainText(/build\/pool\.jsonl, line \d+: task_id and doc_id ".+" repeats line \d+/);

  await page.goto(at(`view=task&task=${dupGold.task_id}&split=full`));
  await expect(page.getByTestId('task-question')).toHaveText(dupGold.question);
  await expect(page.getByTestId('gold-doc')).toHaveCount(dupGold.gold_docs.length);
  await expect(page.getByTestId('pool-table').locator('tbody tr').first()).toBeVisible();
  await page.goto(at(`view=task&task=${dupId.task_id}&split=full`));
  await expect(page.getByTestId('task-question')).toHaveText(dupId.question);
  await page.goto(at(`view=doc&doc=${dupGold.gold_docs[0]}`));
  await expect(page.getByTestId('doc-uses')).toBeVisible();
  await page.goto(at('view=leaderboard'));
  await expect(page.getByTestId('board-row')).toHaveCount(4);
  await page.goto(at(`view=entities&entity=${encodeURIComponent(`evil${RLO}name`)}`));
  await expect(page.getByTestId('entity-detail')).toBeVisible();
  // Free-text search over the tasks, built with the duplicate id and the 10 MB question.
  await page.goto(at(`q=zeppelin`));
  await expect(page.getByTestId('task-row')).toHaveCount(1);
  await page.goto(at(`q=${encodeURIComponent(dupId.question.split(' ').slice(0, 4).join(' '))}`));
  await expect(page.getByTestId('task-row').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('duplicates: the Systems, Audit and Spot-check views show them too', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = trackErrors(page);
  const [dupGold, dupId] = [tasks[0]!, tasks[1]!];
  await page.goto(at('view=systems'));
  await expect(page.getByTestId('systems-row').first()).toBeVisible();
  // Every task listed, so the repeated task id is listed twice.
  await page.goto(at('view=audit&tab=grounding&show=all&type=single_hop'));
  await expect(page.getByTestId('grounding-row').filter({ hasText: dupId.question })).toHaveCount(2);
  await page.goto(at('view=audit&tab=cutoff'));
  await expect(page.getByTestId('cutoff-summary')).toBeVisible();
  await page.goto(at('view=audit&tab=bias'));
  await expect(page.getByTestId('bias-row').first()).toBeVisible();
  await page.goto(at('view=audit&tab=absence'));
  await expect(page.getByTestId('absence-tasks')).toBeVisible();
  await page.goto(at('view=audit&tab=signals'));
  await expect(page.getByTestId('signal')).toHaveCount(4);
  // The spot-check sample holds every task with size 2000; walk to the one whose gold docs repeat.
  await page.goto(at('view=spotcheck&size=2000&seed=1'));
  const shown = page.getByTestId('spot-task');
  await expect(shown).toBeVisible();
  for (let step = 0; step < tasks.length + 200; step++) {
    if ((await shown.getAttribute('data-task-id')) === dupGold.task_id) break;
    const before = await page.getByTestId('spot-position').textContent();
    await page.getByTestId('spot-next').click();
    await expect(page.getByTestId('spot-position')).not.toHaveText(before!);
  }
  await expect(shown).toHaveAttribute('data-task-id', dupGold.task_id);
  await expect(shown.locator('ul.gold > li')).toHaveCount(dupGold.gold_docs.length);
  expect(errors).toEqual([]);
});

for (const width of [1440, 390]) {
  test(`a 20,000-character word widens no view at ${width} px`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 900 });
    const long = tasks[2]!;
    const views: Array<[string, string]> = [
      ['tasks', `q=${'W'.repeat(30)}`],
      ['task', `view=task&task=${long.task_id}&split=full`],
      ['search with the task', `view=search&task=${long.task_id}&split=full`],
      ['search query', 'view=search'],
      ['score', 'view=score'],
    ];
    for (const [name, query] of views) {
      await page.goto(at(query));
      if (name === 'tasks') await expect(page.getByTestId('task-row').first()).toContainText('WWWW');
      if (name === 'task') await expect(page.getByTestId('task-question')).toHaveText(LONG);
      if (name === 'search with the task') await expect(page.getByTestId('task-banner')).toContainText('WWWW');
      if (name === 'score') await expect(page.getByTestId('inputs-state')).toContainText('Tasks:');
      if (name === 'search query') {
        // Typed, since a 20,000-character URL is more than the server takes.
        await page.getByTestId('search-input').fill(LONG);
        await page.getByTestId('search-submit').click();
        await expect(page.getByTestId('results-bm25')).toContainText(/No document matches|SMPL/);
      }
      const { scroll, window } = await pageWidth(page);
      expect(scroll, `${name} at ${width} px`).toBeLessThanOrEqual(window);
    }
    await page.goto(at(`view=task&task=${long.task_id}&split=full`));
    await expect(page.getByTestId('task-question')).toHaveText(LONG);
    await page.screenshot({ path: `/tmp/hardening-long-word-${width}.png` });
  });
}

test('bidirectional overrides in names and file names are shown as escapes', async ({ page }) => {
  await page.goto(at('view=leaderboard'));
  await expect(page.getByTestId('board-table')).toContainText('system\\u202efdp.exe');
  expect(await rawOverrides(page)).toBe(0);
  await page.goto(at(`view=entities&all=1&entity=${encodeURIComponent(`evil${RLO}name`)}`));
  await expect(page.getByTestId('entity-table')).toContainText('evil\\u202ename');
  await expect(page.getByTestId('entity-table')).toContainText('Evil\\u202eName');
  await expect(page.getByTestId('entity-detail')).toContainText('evil\\u202ename');
  expect(await rawOverrides(page)).toBe(0);

  await openScorePage(page);
  const spoof = `predictions${RLO}lmth.jsonl`;
  await setFile(page, 'predictions-file', spoof, `{"task_id": "abc${RLO}def", "answer": "x", "citations": []}\n`);
  await expect(page.getByTestId('validation-count')).toContainText('predictions\\u202elmth.jsonl');
  await expect(page.getByTestId('validation-issue').first()).toContainText('\\u202e');
  expect(await rawOverrides(page)).toBe(0);
});
