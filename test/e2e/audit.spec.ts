import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startMockHub, tally, type MockHub } from '../support/mock-hub.ts';
import { corpuslessSample, makeSourceShards, readSampleDocs } from '../support/source-shards.ts';
import { cardLines, sampleTasks } from '../support/card-rule.ts';
import { documentsNeeded } from '../../src/core/audit/grounding.ts';
import type { Task } from '../../src/core/release/types.ts';
import { HfSourceDocs } from '../../src/core/source-docs/lookup.ts';
import { settingsFrom } from '../../src/core/source-docs/settings.ts';
import { projectRoot, startStaticServer } from './support.ts';
import { spotCheckStats, wilson } from '../../src/core/audit/spot-check/stats.ts';
import { parseLabelsJsonl } from '../../src/core/audit/spot-check/labels.ts';
import { parseAppealsJsonl } from '../../src/core/audit/appeals.ts';
import { downloaded } from './score-support.ts';
import { audit } from './axe-support.ts';
import { sidewaysOverflow } from './ux-support.ts';
import { parsePredictions } from '../../src/core/scoring/predictions.ts';
import { parseTasksJsonl } from '../../src/core/scoring/scoring-inputs.ts';
import { keyBuiltPredictions } from '../support/key-built.ts';

const pctText = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The rate and interval cells of each question, as the Spot-check page shows them. */
async function rates(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const q of ['standalone', 'answer_right', 'docs_support', 'judge_agrees']) {
    const row = page.getByTestId(`spot-rate-${q}`);
    out.push(`${q}: ${await row.getByTestId('rate').innerText()} | ${await row.getByTestId('interval').innerText()}`);
  }
  return out;
}

test.describe('spot-check', () => {
  test('label five tasks by keyboard, reload, export, import into a fresh profile: the same error rates', async ({
    page,
    browser,
  }) => {
    await test.step('a sample of five, the reviewer named', async () => {
      await page.goto('/?view=spotcheck&size=5&seed=7');
      await expect(page.getByTestId('spot-task')).toBeVisible();
      await expect(page.getByTestId('spot-position')).toHaveText('task 1 of 5');
      await page.getByTestId('spot-reviewer').fill('ann');
      await page.getByTestId('spot-reviewer').press('Enter');
    });

    const seen: string[] = [];
    let before: string[] = [];
    let exported = '';
    await test.step('five tasks labelled by keyboard', async () => {
      for (let i = 0; i < 5; i++) {
        await expect(page.getByTestId('spot-position')).toHaveText(`task ${i + 1} of 5`);
        const id = await page.getByTestId('spot-task').getAttribute('data-task-id');
        seen.push(id!);
        const open = await page.locator('[data-testid^="spot-q-"]:not(.na)').count();
        // "no" to the first question on tasks 1 and 3, "unsure" to the second question of task 2, "yes" otherwise
        for (let q = 0; q < open; q++) {
          const key = q === 0 && (i === 0 || i === 2) ? 'n' : q === 1 && i === 1 ? 'u' : 'y';
          await page.keyboard.press(key);
          if (q < open - 1)
            await expect(page.locator('[data-testid^="spot-q-"]:not(.na)').nth(q)).not.toHaveAttribute(
              'data-value',
              '',
            );
        }
      }
      await expect(page.getByTestId('spot-progress')).toHaveText('5 of 5 labelled by ann');
      expect(new Set(seen).size).toBe(5);
    });

    await test.step('the error rates with their intervals', async () => {
      const w = wilson(2, 5)!;
      const standalone = `standalone: 40.0% (2/5) | ${pctText(w[0])} – ${pctText(w[1])}`;
      await expect(page.getByTestId('spot-rate-standalone')).toContainText('40.0% (2/5)');
      before = await rates(page);
      expect(before[0]).toBe(standalone);
      expect(before[1]).toMatch(/^answer_right: 0\.0% \(0\/4\) \| 0\.0% – 49\.0%$/);
    });

    await test.step('a reload keeps the labels and the rates', async () => {
      await page.reload();
      await expect(page.getByTestId('spot-progress')).toHaveText('5 of 5 labelled by ann');
      expect(await rates(page)).toEqual(before);
    });

    await test.step('the export holds the five labels and the same figures', async () => {
      exported = (await downloaded(page, 'spot-export')).toString('utf8');
      const parsed = parseLabelsJsonl(exported);
      expect(parsed.issues).toEqual([]);
      expect(parsed.labels).toHaveLength(5);
      expect(new Set(parsed.labels.map((l) => l.task_id))).toEqual(new Set(seen));
      expect(parsed.labels.every((l) => l.release_id === 'sample' && l.dataset_version === 'v1.0-sample')).toBe(true);
      expect(parsed.labels.every((l) => l.reviewer === 'ann' && l.sample.seed === 7 && l.sample.size === 5)).toBe(true);
      // the figures of the exported file, computed in Node, are the page's
      expect(spotCheckStats(parsed.labels).questions[0]).toMatchObject({ answered: 5, errors: 2 });
    });

    await test.step('imported into a fresh profile: the same rates', async () => {
      const fresh = await browser.newContext();
      const other = await fresh.newPage();
      await other.goto('/?view=spotcheck&size=5&seed=7');
      await expect(other.getByTestId('spot-task')).toBeVisible();
      await expect(other.getByTestId('spot-rate-standalone').getByTestId('rate')).toHaveText('—');
      await other.getByTestId('spot-import').setInputFiles({
        name: 'labels.jsonl',
        mimeType: 'application/x-ndjson',
        buffer: Buffer.from(exported, 'utf8'),
      });
      await expect(other.getByTestId('spot-message')).toContainText('Merged 5 label(s) of 1 reviewer(s) (ann)');
      expect(await rates(other)).toEqual(before);
      await fresh.close();
    });
  });
});

test.describe('gold appeals', () => {
  test('file an appeal from a document page, see it counted in the task list, export it', async ({ page }) => {
    const taskId = 'a540f015-d0b6-427c-902b-d668ba98a7d2';
    const passage = 'aboard aircraft QX-XZZ on 19 August 2010';
    await test.step("the document shows where the judges' excerpt ends", async () => {
      await page.goto(`/?view=doc&doc=SMPL00002558&hl=${encodeURIComponent(passage)}`);
      // the judges' excerpt is marked where Python's text[:2500] ends
      await expect(page.getByTestId('excerpt-end')).toContainText('judge excerpt ends (first 2,500 characters)');
    });
    await test.step('an appeal filed with the selected passage', async () => {
      await page.getByTestId('appeal-form').locator('summary').click();
      await page.getByTestId('appeal-task-search').fill('Clementine Ostrowe 2010');
      await page
        .getByTestId('appeal-matches')
        .getByRole('button', { name: /Clementine Ostrowe.*2010/ })
        .first()
        .click();
      await expect(page.getByTestId('appeal-task')).toContainText('Clementine Ostrowe');
      // select the highlighted passage in the text and take it
      await page
        .getByTestId('highlight')
        .first()
        .evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const sel = window.getSelection()!;
          sel.removeAllRanges();
          sel.addRange(range);
        });
      await page.getByTestId('appeal-use-selection').click();
      await expect(page.getByTestId('appeal-passage')).toHaveValue(passage);
      await page.getByTestId('appeal-note').fill('Item 6: the deposition names the flight, past the excerpt.');
      await page.getByTestId('appeal-reviewer').fill('ann');
      await page.getByTestId('appeal-reviewer').press('Tab');
      await page.getByTestId('appeal-file').click();
      await expect(page.getByTestId('appeal-filed')).toBeVisible();
      await expect(page.getByTestId('appeal-count')).toHaveText('1 appeal filed for this document.');
    });

    await test.step('the task list counts it', async () => {
      await page.goto(`/?q=${taskId}`);
      await expect(page.getByTestId('task-row')).toHaveCount(1);
      await expect(page.getByTestId('task-appeals')).toHaveText('⚑1');
    });

    await test.step('the Audit page lists the appeal and exports it', async () => {
      await page.goto('/?view=audit&tab=appeals');
      await expect(page.getByTestId('appeal-row')).toHaveCount(1);
      await expect(page.getByTestId('rule-appeals')).toContainText('gold_docs');
      const text = (await downloaded(page, 'appeals-export')).toString('utf8');
      const { appeals, issues } = parseAppealsJsonl(text);
      expect(issues).toEqual([]);
      expect(appeals).toHaveLength(1);
      expect(appeals[0]).toMatchObject({
        format: 'epstein-bench-appeal/1',
        release_id: 'sample',
        dataset_version: 'v1.0-sample',
        split: 'full',
        task_id: taskId,
        item: null,
        doc_id: 'SMPL00002558',
        passage,
        reviewer: 'ann',
      });
      // the passage lies past the judges' excerpt
      expect(appeals[0]!.passage_start).toBeGreaterThan(2500);
    });
  });
});

test.describe('the Audit page on the sample', () => {
  test('shows the figures the CLI prints, with the rules next to them', async ({ page }) => {
    await test.step('grounding: the figures of the CLI and the rule', async () => {
      await page.goto('/?view=audit');
      await expect(page.getByTestId('audit-docs-read')).toContainText('317 of 317 gold and item documents read');
      await expect(page.getByTestId('grounding-line')).toHaveText([
        'single_hop 100.0% (90/90)',
        'timeline 20.0% (2/10)',
        'aggregation 100.0% (78/78 items)',
        'dossier 100.0% (30/30 items)',
      ]);
      await expect(page.getByTestId('rule-grounding')).toContainText('at least 60%');
      await expect(page.getByTestId('rule-grounding')).toContainText('[a-z0-9]{2,}');
      await expect(page.getByTestId('grounding-row')).toHaveCount(8);
    });

    await test.step('the excerpt cutoff: its rule and the six tasks past it', async () => {
      await page.getByTestId('audit-tab-cutoff').click();
      await expect(page.getByTestId('rule-cutoff')).toContainText('2,500');
      await expect(page.getByTestId('cutoff-summary')).toContainText('6 tasks with evidence past the 2,500-character');
      await expect(page.getByTestId('cutoff-row')).toHaveCount(6);
    });

    await test.step('pool bias, as filters of the Systems view too, with the cited documents to read', async () => {
      await page.getByTestId('audit-tab-bias').click();
      await expect(page.getByTestId('bias-row')).toHaveCount(3);
      await expect(page.getByTestId('bias-outside')).toHaveText(['15', '0', '0']);
      await expect(page.getByTestId('bias-correct').first()).toContainText('4');
      await page.getByTestId('bias-only-correct').check();
      await expect(page.getByTestId('bias-task')).toHaveCount(4);
      await expect(page).toHaveURL(/only=correct/);
      // the same in the Systems view, as filters
      await page.goto('/?view=systems&show=cited-outside');
      await expect(page.getByTestId('systems-row')).toHaveCount(15);
      await page.goto('/?view=audit&tab=bias');
      await page.getByTestId('bias-systems-credit').click();
      await expect(page.getByTestId('systems-filter')).toHaveValue('credit-outside');
      await expect(page.getByTestId('systems-row')).toHaveCount(4);
      await page.goto('/?view=audit&tab=bias&only=correct');
      await expect(page.getByTestId('bias-task')).toHaveCount(4);
      // each listed task has its cited document to read, with an appeal ready
      await page.getByTestId('bias-cited-doc').first().click();
      await expect(page.getByTestId('doc-view')).toBeVisible();
      await expect(page.getByTestId('appeal-task')).toBeVisible();
    });

    await test.step("absence: the target's hits and mentions", async () => {
      await page.goto('/?view=audit&tab=absence&at=4919bb7a-c015-4677-a876-0bf9220fe03a');
      await expect(page.getByTestId('absence-target').getByTestId('absence-hit')).toHaveCount(10);
      await expect(page.getByTestId('absence-question').getByTestId('absence-hit').first()).toContainText(
        'checked by the gauntlet',
      );
      await expect(page.getByTestId('absence-target').getByTestId('absence-mentions').first()).toContainText(
        /[1-9]\d* mentions? of the target/,
      );
    });
  });
});

test.describe('a release without corpus text', () => {
  let hub: MockHub;
  let server: { url: string; close: () => Promise<void> };
  let texts: Map<string, string>;
  /** File-host requests a batch read of the split's documents makes before it reads any text. */
  let locateRequests = 0;
  test.beforeAll(async () => {
    const sample = await readSampleDocs();
    texts = new Map(sample.map((d) => [d.doc_id, d.text]));
    // Small row groups: the text is read in many requests, so a read can be caught in the middle.
    const shards = makeSourceShards(sample, { rowGroupSize: 8 });
    hub = await startMockHub({ files: shards.files, mediaRanges: shards.mediaRanges });
    server = await startStaticServer(corpuslessSample());
    // The same batch in Node (the browser runs the same core): how far locating goes.
    const ids = documentsNeeded(sampleTasks() as Task[]);
    await new HfSourceDocs({
      settings: settingsFrom({ endpoint: hub.endpoint }),
      fetch: (u, i) => fetch(u, i),
    }).readMany(ids, (p) => {
      if (p.phase === 'reading' && locateRequests === 0)
        locateRequests = hub.log.filter((e) => e.origin === 'files').length;
    });
    hub.log.length = 0;
  });
  test.afterAll(async () => {
    await hub?.close();
    await server?.close();
  });

  test('offers the read with its cost, reads from the Hub (a local imitation), stops, resumes after a reload, and counts what the card’s rule counts', async ({
    page,
  }) => {
    const expected = cardLines(sampleTasks(), texts);
    await page.goto(
      `/?release=${encodeURIComponent(server.url)}&view=audit&hf_endpoint=${encodeURIComponent(hub.endpoint)}`,
    );
    await test.step('the estimate first, no request made', async () => {
      await expect(page.getByTestId('audit-no-text')).toContainText('None of the 317 documents these audits need');
      await expect(page.getByTestId('grounding-line').first()).toHaveText('single_hop n/a (0/0)');
      await expect(page.getByTestId('audit-source-estimate')).toContainText(
        /Estimate: about [\d,]+ requests and [\d.]+ MB/,
      );
      await expect(page.getByTestId('audit-read-source')).toContainText('Read 317 gold documents from the source');
      for (const colorScheme of ['light', 'dark'] as const)
        for (const width of [1440, 390]) {
          await page.emulateMedia({ colorScheme });
          await page.setViewportSize({ width, height: 900 });
          await expect(page.getByTestId('audit-read-source')).toBeVisible();
          expect(await audit(page, `the source offer (${colorScheme}, ${width} px)`)).toEqual([]);
        }
      expect(hub.log).toHaveLength(0);
    });

    let kept = 0;
    await test.step('Stop keeps what was read', async () => {
      const held = hub.holdAfter(locateRequests + 3);
      try {
        await page.getByTestId('audit-read-source').click();
        await expect(page.getByTestId('audit-progress')).toContainText(/Reading documents\s*[1-9][\d,]* \/ 317/);
        await page.getByTestId('audit-source-stop').click();
        await expect(page.getByTestId('audit-read-source')).toHaveText(/Read the rest/);
      } finally {
        held.release();
      }
      const line = await page.getByTestId('audit-docs-read').innerText();
      kept = Number(/^([\d,]+) of 317/.exec(line)?.[1]?.replace(/,/g, '') ?? NaN);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(317);
      await expect(page.getByTestId('audit-no-text')).toContainText('still not read (the read was stopped');
    });

    await test.step('after a reload, what was read is kept and only the rest is read', async () => {
      await page.reload();
      await expect(page.getByTestId('audit-source-estimate')).toContainText(
        `${kept.toLocaleString('en')} already kept in this browser`,
      );
      const from = hub.log.length;
      await page.getByTestId('audit-read-source').click();
      await expect(page.getByTestId('audit-docs-read')).toContainText('317 of 317 gold and item documents read', {
        timeout: 120_000,
      });
      // Fewer text reads than a read from nothing: the kept texts are not asked for again.
      const texts2 = hub.log.slice(from).filter((e) => e.origin === 'files').length;
      expect(texts2).toBeLessThan(locateRequests + Math.ceil(317 / 8));
    });

    await test.step('the figures are the card’s rule computed independently', async () => {
      await expect(page.getByTestId('grounding-line').nth(0)).toHaveText(expected.single_hop!);
      await expect(page.getByTestId('grounding-line').nth(1)).toHaveText(expected.timeline!);
      // the timelines that fail are listed
      const [k, n] = /\((\d+)\/(\d+)\)/.exec(expected.timeline!)!.slice(1).map(Number);
      await page.getByRole('combobox', { name: 'type' }).selectOption('timeline');
      await expect(page.getByTestId('grounding-row')).toHaveCount(n! - k!);
      await page.getByTestId('audit-tab-cutoff').click();
      await expect(page.getByTestId('cutoff-summary')).toContainText('tasks with evidence past the 2,500-character');
      expect(tally(hub.log).mediaBytes).toBe(0);
    });
  });

  test('a rate limit too long to wait out: the audit says so, with the Hub’s words, and offers to try again', async ({
    page,
  }) => {
    // One request an hour per route, unannounced: the next is answered 429 with a Retry-After past the
    // 10-minute bound.
    const sample = await readSampleDocs();
    const shards = makeSourceShards(sample, { rowGroupSize: 8 });
    const limited = await startMockHub({
      files: shards.files,
      mediaRanges: shards.mediaRanges,
      limits: { rateLimit: { requests: 1, windowMs: 3_600_000, retryAfter: true, announce: false } },
    });
    try {
      await page.goto(
        `/?release=${encodeURIComponent(server.url)}&view=audit&hf_endpoint=${encodeURIComponent(limited.endpoint)}`,
      );
      await page.getByTestId('audit-read-source').click();
      const failures = page.getByTestId('audit-source-failures');
      // The Hub's words once: when to retry.
      await expect(failures).toContainText(
        /^317 could not be read from the source\.\s+The Hub's rate limit would have meant too long a wait.*\(the Hub's rate limit is reached \(1 try\); retry after \d\d:\d\d:\d\d \(in \d+ min\)\)\.$/,
      );
      await expect(failures).not.toContainText('could not be reached');
      await expect(page.getByTestId('audit-source-retry')).toBeVisible();
      expect(limited.limits.refused.count).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

test.describe('key-reading signals on the sample', () => {
  const sampleDir = path.join(projectRoot, 'static-data/sample');
  const tasks = parseTasksJsonl(readFileSync(path.join(sampleDir, 'full/tasks.jsonl'), 'utf8'), 'tasks.jsonl');
  const systems = ['always-refuse-sample-control', 'bm25-top-doc-sample', 'closed-book-sample-control'];
  const bm25 = parsePredictions(
    readFileSync(path.join(sampleDir, 'submissions/bm25-top-doc-sample/predictions.jsonl'), 'utf8'),
    tasks,
    { mode: 'score' },
  );
  const signal = (page: Page, id: string) => page.locator(`[data-testid="signal"][data-signal="${id}"]`);

  test('a predictions file built from the answer key is flagged on every signal, beside every published system; bm25 is not on the signals only the key explains', async ({
    page,
  }) => {
    await page.goto('/?view=audit&tab=signals');
    await expect(page.getByTestId('rule-signals')).toContainText('signals to review, not a verdict');
    await expect(page.getByTestId('signals-summary')).toContainText('signals to review for');

    await page.getByTestId('signals-file').setInputFiles({
      name: 'from-the-key.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from(keyBuiltPredictions(tasks, bm25)),
    });
    await expect(page.getByTestId('signals-summary')).toContainText('4 of 4 signals to review for from-the-key.jsonl');
    await expect(page.locator('[data-testid="signal"][data-raised="true"]')).toHaveCount(4);
    await expect(page.getByTestId('signal-flag')).toHaveCount(4);
    // each figure beside the same figure for the three published systems
    for (const row of await page.getByTestId('signal').all())
      expect((await row.getByTestId('signal-published').locator('th').allInnerTexts()).sort()).toEqual(systems);
    // counted here from the key: every free-text task's answer is the reference
    const freeText = tasks.filter((t) => t.type === 'single_hop' || t.type === 'timeline').length;
    await expect(signal(page, 'answer_equals_reference').getByTestId('signal-count')).toHaveText(String(freeText));

    // the tasks are listed, each a link to its page
    const listed = signal(page, 'citations_equal_gold_set').getByTestId('signal-tasks');
    await listed.locator('summary').click();
    const first = listed.getByTestId('signal-task').first();
    const question = (await first.innerText()).replace(/^\S+\s/, '');
    await first.click();
    await expect(page.getByTestId('task-question')).toHaveText(question);
    await page.goBack();

    // bm25: the system chosen is in the URL, so a reload shows it again
    await page.getByTestId('signals-system').selectOption('bm25-top-doc-sample');
    await expect(page).toHaveURL(/sys=bm25-top-doc-sample/);
    await page.reload();
    await expect(page.getByTestId('signals-summary')).toContainText('for bm25-top-doc-sample');
    await expect(page.getByTestId('signals-summary')).not.toContainText('4 of 4');
    for (const id of ['gold_cited_not_retrieved', 'citations_equal_gold_set']) {
      await expect(signal(page, id)).toHaveAttribute('data-raised', 'false');
      await expect(signal(page, id).getByTestId('signal-count')).toHaveText('0');
    }
    await expect(signal(page, 'gold_cited_not_retrieved').getByTestId('signal-published')).toHaveCount(2);
  });

  for (const [scheme, width] of [
    ['light', 1440],
    ['dark', 390],
  ] as const)
    test(`axe finds no serious violation, nothing scrolls sideways (${scheme}, ${width} px)`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/?view=audit&tab=signals&sys=bm25-top-doc-sample');
      await expect(page.getByTestId('signal')).toHaveCount(4);
      expect(await audit(page, `signals ${scheme} ${width}`)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);
    });
});
