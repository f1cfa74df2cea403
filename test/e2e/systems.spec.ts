/**
 * The Systems view and the task page's systems section, on the sample's three submissions and on
 * v1.0's available ones (the official entry answered by a localhost mirror of the repository).
 * Expected counts are computed here from the files, independently of the app's code.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startRepositoryMirror, type RepositoryMirror } from '../support/repository-mirror.ts';
import { hasShared, projectRoot, routeGitHubTo, SKIP_NO_SHARED, v10Dir } from './support.ts';

interface TaskLine {
  task_id: string;
  type: string;
  question: string;
  gold_docs: string[];
  items: Array<{ doc_ids: string[] }> | null;
}
interface Prediction {
  task_id: string;
  answer: string | null;
  citations?: string[];
  retrieved?: string[];
}
const jsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as T);

/** Per task with gold: does each system cite a citation-gold document, and retrieve a gold one in its top 20? */
function goldHits(tasks: TaskLine[], systems: Prediction[][]) {
  return tasks
    .filter((t) => t.gold_docs.length > 0)
    .map((t) => {
      const citeGold = new Set([...t.gold_docs, ...(t.items ?? []).flatMap((i) => i.doc_ids)]);
      return systems.map((preds) => {
        const p = preds.find((x) => x.task_id === t.task_id)!;
        const top = [...new Set(p.retrieved ?? [])].slice(0, 20);
        return {
          cited: (p.citations ?? []).some((c) => citeGold.has(c)),
          retrieved: t.gold_docs.some((g) => top.includes(g)),
        };
      });
    });
}

const sample = path.join(projectRoot, 'static-data/sample');
const SAMPLE_SLUGS = ['bm25-top-doc-sample', 'closed-book-sample-control', 'always-refuse-sample-control'];

/** Screenshots for review at 1440 and 390 px in both themes (`at` scrolled into view); no sideways scroll at 390. */
async function shoot(page: Page, name: string, at?: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      if (at) await page.getByTestId(at).first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/official-${name}-${width}-${scheme}.png`, fullPage: false });
      if (width === 390) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} at 390 px scrolls sideways`).toBeLessThanOrEqual(0);
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe("the sample's three systems", () => {
  const tasks = jsonl<TaskLine>(path.join(sample, 'full/tasks.jsonl'));
  const preds = SAMPLE_SLUGS.map((s) => jsonl<Prediction>(path.join(sample, 'submissions', s, 'predictions.jsonl')));
  const hits = goldHits(tasks, preds);

  test('filters count what the files say, survive reload, sort by a system and open a task by keyboard', async ({
    page,
  }) => {
    await test.step('every task with the three systems', async () => {
      await page.goto('/?view=systems');
      await expect(page.getByTestId('systems-total')).toHaveText('150 of 150 tasks');
      await expect(page.getByTestId('systems-table').locator('thead th')).toHaveCount(5);
    });

    const oneCited = hits.filter((row) => row.filter((c) => c.cited).length === 1).length;
    const allMissed = hits.filter((row) => row.every((c) => !c.cited && !c.retrieved)).length;
    const noneCited = hits.filter((row) => row.every((c) => !c.cited)).length;
    await test.step('the filters count what the files say and survive a reload', async () => {
      await page.getByTestId('systems-filter').selectOption('one-cited');
      await expect(page.getByTestId('systems-total')).toHaveText(`${oneCited} of 150 tasks`);
      await expect(page).toHaveURL(/show=one-cited/);
      await expect(page.getByTestId('systems-filter').locator('option[value="all-missed"]')).toContainText(
        `(${allMissed})`,
      );
      await expect(page.getByTestId('systems-filter').locator('option[value="none-cited"]')).toContainText(
        `(${noneCited})`,
      );
      await page.reload();
      await expect(page.getByTestId('systems-total')).toHaveText(`${oneCited} of 150 tasks`);
    });

    await test.step('hiding a system leaves it out of the filters; Back shows it again', async () => {
      // Hiding the only system that cites anything leaves no task where exactly one system cited gold.
      await page.getByTestId('systems-show-bm25-top-doc-sample').click();
      await expect(page.getByTestId('systems-total')).toHaveText('0 of 150 tasks');
      await expect(page).toHaveURL(/hide=bm25-top-doc-sample/);
      await page.goBack();
      await expect(page.getByTestId('systems-total')).toHaveText(`${oneCited} of 150 tasks`);
    });

    await test.step('sorting by a system: ascending, then descending', async () => {
      // Sort by the BM25 system as every sortable header does (ascending, then descending): the first
      // row then has its best recall@20.
      await page.getByTestId('systems-filter').selectOption('all');
      await page.getByTestId('sort-bm25-top-doc-sample').click();
      await expect(page).toHaveURL(/sort=bm25-top-doc-sample/);
      await expect(page).not.toHaveURL(/desc=1/);
      await expect(page.getByTestId('systems-row').first().getByTestId('systems-cell').first()).toHaveText('0');
      await page.getByTestId('sort-bm25-top-doc-sample').click();
      await expect(page).toHaveURL(/desc=1/);
      await expect(page.getByTestId('systems-row').first().getByTestId('systems-cell').first()).toHaveText('1');
    });

    await test.step('keyboard: j focuses the first task, Enter opens it', async () => {
      // Keyboard: j focuses the first task, Enter opens it.
      await page.getByTestId('systems-view').locator('h1').click();
      await page.keyboard.press('j');
      const first = page.getByTestId('systems-task').first();
      await expect(first).toBeFocused();
      const taskId = (await first.getAttribute('data-task'))!;
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('task-id')).toHaveText(taskId);
      await expect(page.getByTestId('task-system')).toHaveCount(3);
    });
  });

  test('a selection on the Map page (sel=) lists only its tasks until it is cleared', async ({ page }) => {
    // Two tasks whose 8-character prefixes name no other task of the sample.
    const prefixOf = (t: TaskLine) => t.task_id.slice(0, 8);
    const unique = tasks.filter((t) => tasks.filter((u) => prefixOf(u) === prefixOf(t)).length === 1);
    const chosen = [unique[3]!, unique[40]!];
    await page.goto(`/?view=systems&metric=cited-gold&sel=${chosen.map(prefixOf).join('.')}`);
    await expect(page.getByTestId('systems-total')).toHaveText('2 of 150 tasks');
    const listed = page.getByTestId('systems-task');
    await expect(listed).toHaveCount(2);
    expect(await listed.evaluateAll((links) => links.map((a) => a.getAttribute('data-task')))).toEqual(
      chosen.map((t) => t.task_id),
    );
    const bar = page.getByTestId('map-selection');
    await expect(bar).toContainText('2 tasks selected on the map');
    // The map link keeps the rest of the URL.
    const href = (await bar.getByRole('link', { name: 'map' }).getAttribute('href'))!;
    const params = new URLSearchParams(href.replace(/^\?/, ''));
    expect(params.get('view')).toBe('map');
    expect(params.get('metric')).toBe('cited-gold');
    expect(params.get('sel')).toBe(chosen.map(prefixOf).join('.'));

    await bar.getByRole('button', { name: 'Clear the selection' }).click();
    await expect(page.getByTestId('systems-total')).toHaveText('150 of 150 tasks');
    await expect(page.getByTestId('map-selection')).toHaveCount(0);
    await expect(page).not.toHaveURL(/sel=/);
    await expect(page).toHaveURL(/metric=cited-gold/);
  });

  test('the task page shows each answer, citations as gold or not (links), and the gold ranks', async ({ page }) => {
    const task = tasks.find((t) => t.type === 'single_hop' && t.gold_docs.length > 0)!;
    const bm25 = preds[0]!.find((p) => p.task_id === task.task_id)!;
    await page.goto(`/?view=task&task=${task.task_id}&split=full`);
    const card = page.locator('[data-testid="task-system"][data-slug="bm25-top-doc-sample"]');
    await expect(card.getByTestId('task-system-answer')).toHaveText(bm25.answer ?? '');
    const citations = card.getByTestId('task-system-citations').locator('li');
    await expect(citations).toHaveCount(bm25.citations!.length);
    const citeGold = new Set([...task.gold_docs, ...(task.items ?? []).flatMap((i) => i.doc_ids)]);
    for (const [i, c] of bm25.citations!.entries()) {
      await expect(citations.nth(i).locator('a')).toHaveText(c);
      await expect(citations.nth(i).getByTestId('citation-badge')).toHaveText(citeGold.has(c) ? 'gold' : 'not gold');
    }
    const ranks = card.getByTestId('task-system-gold-ranks').locator('li');
    await expect(ranks).toHaveCount(task.gold_docs.length);
    const top = [...new Set(bm25.retrieved)].slice(0, 20);
    for (const [i, g] of task.gold_docs.entries()) {
      await expect(ranks.nth(i)).toContainText(top.includes(g) ? `rank ${top.indexOf(g) + 1}` : 'not in its top');
    }
    // The sample ships a judge cache: verdicts appear.
    await expect(card.getByTestId('task-system-verdict')).toContainText('judge: correct & cited');
    await shoot(page, 'task-sample', 'task-systems');
    await card.getByTestId('task-system-citations').locator('a').first().click();
    await expect(page).toHaveURL(new RegExp(`view=doc&doc=${bm25.citations![0]}`));
  });

  test('verdicts from the shipped judge cache add a metric and judge filters', async ({ page }) => {
    await page.goto('/?view=systems');
    await expect(page.getByTestId('systems-verdicts')).toContainText('150/150');
    await page.getByTestId('systems-metric').selectOption('correct');
    await expect(page).toHaveURL(/metric=correct/);
    await expect(page.getByTestId('systems-cell').first()).toHaveText(/^(0|1|0\.\d\d)$/);
    await expect(page.getByTestId('systems-filter').locator('option[value="one-correct"]')).toHaveCount(1);
    await shoot(page, 'systems-sample');
  });
});

test.describe("v1.0's available systems (localhost mirror of the repository)", () => {
  test.skip(!hasShared, SKIP_NO_SHARED);
  let mirror: RepositoryMirror;
  const entry = (
    JSON.parse(readFileSync(path.join(projectRoot, 'static-data/releases.json'), 'utf8')) as {
      releases: Array<{ id: string; url: string }>;
    }
  ).releases.find((r) => r.id === 'epstein-bench-v1.0')!;
  test.beforeAll(async () => {
    mirror = await startRepositoryMirror(v10Dir, new URL(entry.url).pathname);
  });
  test.afterAll(async () => mirror?.close());
  test.beforeEach(async ({ context }) => routeGitHubTo(context, mirror));

  test('bm25-reference alone: the gold filters count what its predictions say; dense is named as lacking predictions', async ({
    page,
  }) => {
    if (!hasShared) return;
    const tasks = jsonl<TaskLine>(path.join(v10Dir, 'full/tasks.jsonl'));
    const preds = [jsonl<Prediction>(path.join(v10Dir, 'submissions/bm25-reference/predictions.jsonl'))];
    const hits = goldHits(tasks, preds);
    await page.goto(`/?release=${entry.id}&view=systems`);
    await expect(page.getByTestId('systems-total')).toHaveText('1,038 of 1,038 tasks');
    await expect(page.getByTestId('systems-view')).toContainText(
      'dense (reference): the release has no predictions.jsonl',
    );
    await expect(page.getByTestId('systems-verdicts')).toContainText('No judge verdicts');
    const parseMs = await page.getByTestId('systems-parse-ms').innerText();
    console.log(`v1.0 Systems view: bm25-reference predictions parsed in ${parseMs} ms in the data worker`);

    await page.getByTestId('systems-filter').selectOption('all-missed');
    const missed = hits.filter((row) => row.every((c) => !c.cited && !c.retrieved)).length;
    await expect(page.getByTestId('systems-total')).toHaveText(`${missed} of 1,038 tasks`);
    await page.getByTestId('systems-filter').selectOption('retrieved-not-cited');
    const notCited = hits.filter((row) => row.some((c) => c.retrieved && !c.cited)).length;
    await expect(page.getByTestId('systems-total')).toHaveText(`${notCited.toLocaleString('en')} of 1,038 tasks`);
    await page.getByTestId('systems-type-aggregation').click();
    const agg = new Set(tasks.filter((t) => t.type === 'aggregation').map((t) => t.task_id));
    const aggNotCited = tasks
      .filter((t) => t.gold_docs.length > 0)
      .filter((t, i) => agg.has(t.task_id) && hits[i]!.some((c) => c.retrieved && !c.cited)).length;
    await expect(page.getByTestId('systems-total')).toHaveText(`${aggNotCited} of 1,038 tasks`);
    await expect(page).toHaveURL(/type=aggregation/);
    await page.getByTestId('systems-type-aggregation').click();
    await page.getByTestId('systems-filter').selectOption('all');
    await expect(page.getByTestId('systems-page')).toHaveText('page 1 of 21');
    await shoot(page, 'systems-v1.0');

    await page.getByTestId('systems-task').first().click();
    await expect(page.getByTestId('task-system')).toHaveCount(1);
    await expect(page).toHaveURL(new RegExp(`release=${entry.id}`));
    await shoot(page, 'task-v1.0', 'task-systems');
  });
});
