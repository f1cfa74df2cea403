/**
 * A release without corpus text (the sample's questions and tasks in the benchmark's own layout,
 * served from a temp folder) whose documents come from a local imitation of the Hugging Face Hub
 * over shards generated from the sample's documents, with 1-5 MB media values in the same row
 * groups. The text must equal the sample's, the answer must be highlighted, and no media byte may
 * leave the file host.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { HfSourceDocs } from '../../src/core/source-docs/lookup.ts';
import { buildLocator, locatorJson } from '../../src/core/source-docs/locator.ts';
import { settingsFrom } from '../../src/core/source-docs/settings.ts';
import { listenLocal } from '../support/local-server.ts';
import { startMockHub, tally, type HubRequest, type MockHub } from '../support/mock-hub.ts';
import { corpuslessSample, makeSourceShards, readSampleDocs, type SampleDoc } from '../support/source-shards.ts';
import { projectRoot, startStaticServer } from './support.ts';

interface TaskLine {
  task_id: string;
  type: string;
  answer: string | null;
  gold_docs: string[];
}

const sampleDir = path.join(projectRoot, 'static-data/sample');
const tasks = readFileSync(path.join(sampleDir, 'full/tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as TaskLine);

let docs: Map<string, SampleDoc>;
let hub: MockHub;
let official: { url: string; close: () => Promise<void> };
let withLocator: { url: string; close: () => Promise<void> };
let task: TaskLine;
let longTask: TaskLine;

test.beforeAll(async () => {
  const sample = await readSampleDocs();
  docs = new Map(sample.map((d) => [d.doc_id, d]));
  const answered = tasks.filter(
    (t) => t.type === 'single_hop' && t.answer && docs.get(t.gold_docs[0]!)!.text.includes(t.answer),
  );
  task = answered[0]!;
  // A gold document longer than the judge excerpt, so that its end is marked.
  longTask = answered.find((t) => docs.get(t.gold_docs[0]!)!.text.length > 3000) ?? task;
  const shards = makeSourceShards(sample, {
    mediaNear: [...task.gold_docs, ...longTask.gold_docs],
  });
  hub = await startMockHub({ files: shards.files, mediaRanges: shards.mediaRanges, pageSize: 4 });
  official = await startStaticServer(corpuslessSample());

  // The same release in our layout, shipping a locator file for its documents.
  const dir = corpuslessSample();
  const located = await new HfSourceDocs({
    settings: settingsFrom({ endpoint: hub.endpoint }),
    fetch: (u, i) => fetch(u, i),
  }).locate(tasks.flatMap((t) => t.gold_docs));
  writeFileSync(
    path.join(dir, 'source-locator.json'),
    locatorJson(buildLocator('aurora2424/Epstein-Files', 'main', located.found, located.missing)),
  );
  writeFileSync(
    path.join(dir, 'release.json'),
    JSON.stringify({
      id: 'nocorpus-located',
      title: 'Sample without corpus, with a locator',
      dataset_version: 'v1.0-sample',
      manifest: 'manifest.json',
      splits: {
        full: { questions: 'full/questions.jsonl', tasks: 'full/tasks.jsonl' },
        dev: { questions: 'dev/questions.jsonl', tasks: 'dev/tasks.jsonl' },
      },
      files: { source_locator: 'source-locator.json' },
    }),
  );
  withLocator = await startStaticServer(dir);
  hub.log.length = 0;
});

test.afterAll(async () => {
  await hub?.close();
  await official?.close();
  await withLocator?.close();
});

const hf = () => `hf_endpoint=${encodeURIComponent(hub.endpoint)}`;
const docUrl = (release: string, t: TaskLine) =>
  `/?release=${encodeURIComponent(release)}&view=doc&doc=${t.gold_docs[0]}&hl=${encodeURIComponent(t.answer!)}&${hf()}`;

/** The document text as shown, without the chunk and excerpt markers. */
async function shownText(page: Page): Promise<string> {
  return page.getByTestId('doc-text').evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('[data-testid="chunk-start"], [data-testid="excerpt-end"]').forEach((m) => m.remove());
    return copy.textContent ?? '';
  });
}

function report(label: string, entries: readonly HubRequest[]): ReturnType<typeof tally> {
  const t = tally(entries);
  console.log(
    `${label}: ${t.requests} HTTP requests (${t.hubRequests} Hub, ${t.fileRequests} file host), ${t.bytes.toLocaleString('en')} bytes, media bytes ${t.mediaBytes}`,
  );
  return t;
}

test('a document page reads its text from the mock Hub once allowed: answer highlighted, no media bytes', async ({
  page,
}) => {
  const docId = longTask.gold_docs[0]!;
  const doc = docs.get(docId)!;
  const before = hub.log.length;
  await test.step('nothing is read from the Hub before the user allows it', async () => {
    await page.goto(docUrl(official.url, longTask));
    // Loaded (its manifest is the sample's; that it is the corpus-less copy shows in source-ask below).
    await expect(page.getByTestId('release-title')).not.toContainText(/loading|no release/);
    // Nothing is read from the Hub before the user allows it.
    // The ask names scheme and host (plain http shows as such).
    await expect(page.getByTestId('source-ask')).toContainText(`at ${new URL(hub.endpoint).origin}`);
    expect(hub.log.length).toBe(before);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: '/tmp/hfsource-doc-ask-1440-light.png', fullPage: false });
  });

  await test.step('allowed: the text, its highlighted answer and its origin, no media bytes', async () => {
    await page.getByTestId('source-allow').click();
    await expect(page.getByTestId('doc-text')).toBeVisible();
    expect(await shownText(page)).toBe(doc.text);
    const mark = page.getByTestId('highlight').first();
    await expect(mark).toBeVisible();
    expect(await mark.innerText()).toBe(longTask.answer);
    await expect(page.getByTestId('excerpt-end')).toHaveCount(doc.text.length > 2500 ? 1 : 0);
    await expect(page.getByTestId('chunk-summary')).toContainText('chunk');
    await expect(page.getByTestId('source-meta')).toContainText(doc.file_name);
    await expect(page.getByTestId('source-pdf')).toHaveAttribute('href', doc.online_url);
    await expect(page.getByTestId('source-origin')).toContainText(
      /From data\/train-\d{5}-of-00006\.parquet, row group \d+, row \d+/,
    );
    const cold = report(`cold lookup of ${docId} (browser, no locator)`, hub.log.slice(before));
    expect(cold.mediaBytes).toBe(0);
    expect(cold.hubRequests).toBeGreaterThan(1); // the paginated tree API, then resolve redirects

    await page.getByTestId('excerpt-end').scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/hfsource-doc-excerpt-1440-light.png', fullPage: false });
  });

  await test.step('a reload: the location from IndexedDB, one range read of the text', async () => {
    // A reload is a new session: the location comes from IndexedDB, one range read of text_content.
    const warmFrom = hub.log.length;
    await page.reload();
    await expect(page.getByTestId('doc-text')).toBeVisible();
    expect(await shownText(page)).toBe(doc.text);
    await expect(page.getByTestId('source-origin')).toContainText('location cached in this browser');
    const warm = report(`warm lookup of ${docId} after a reload (IndexedDB)`, hub.log.slice(warmFrom));
    expect(warm.mediaBytes).toBe(0);
    expect(warm.fileRequests).toBe(1);
    expect(warm.hubRequests).toBe(1); // the resolve redirect: signed file-host URLs are not kept across sessions
  });

  await test.step('at 1440 and 390 px, light and dark: nothing wider than the page', async () => {
    // Screenshots: 1440 and 390 wide, light and dark; nothing wider than the viewport.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expect(page.getByTestId('doc-text')).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${width} px ${scheme}`).toBeLessThanOrEqual(1);
        await page.screenshot({ path: `/tmp/hfsource-doc-${width}-${scheme}.png`, fullPage: false });
      }
    }
  });
});

test('the task page shows the gold document from the source; errors say what failed and keep the page', async ({
  page,
}) => {
  await page.goto(`/?release=${encodeURIComponent(official.url)}&view=task&task=${task.task_id}&split=full&${hf()}`);
  await expect(page.getByTestId('corpus-unavailable')).toContainText('Hugging Face source');
  await page.getByTestId('source-allow').click();
  const gold = page.getByTestId('gold-doc').first();
  await expect(gold.getByTestId('doc-text')).toBeVisible();
  await expect(gold.getByTestId('highlight').first()).toHaveText(task.answer!);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: '/tmp/hfsource-task-1440-light.png', fullPage: false });

  // The file host fails: the document says what failed, the task stays usable, a retry works.
  const other = tasks.find(
    (t) => t.type === 'single_hop' && t.answer && t.task_id !== task.task_id && t.gold_docs[0] !== task.gold_docs[0],
  )!;
  hub.mode.filesDown = true;
  try {
    await page.goto(`/?release=${encodeURIComponent(official.url)}&view=doc&doc=${other.gold_docs[0]}&${hf()}`);
    await expect(page.getByTestId('source-error')).toContainText('HTTP 503');
    await expect(page.getByTestId('doc-uses')).toBeVisible();
    await page.screenshot({ path: '/tmp/hfsource-doc-error-1440-light.png', fullPage: false });
  } finally {
    hub.mode.filesDown = false;
  }
  await page.getByTestId('source-retry').click();
  await expect(page.getByTestId('doc-text')).toBeVisible();
  expect(await shownText(page)).toBe(docs.get(other.gold_docs[0]!)!.text);
});

test('the source is a visible setting; a release that ships a locator is read without the shard list', async ({
  page,
}) => {
  const hosts = new Set<string>();
  page.on('request', (r) => {
    if (/^https?:/.test(r.url())) hosts.add(new URL(r.url()).host);
  });
  // Without hf_endpoint the default is huggingface.co; the user changes it in the settings.
  await page.goto(
    `/?release=${encodeURIComponent(withLocator.url)}&view=doc&doc=${task.gold_docs[0]}&hl=${encodeURIComponent(task.answer!)}`,
  );
  await expect(page.getByTestId('source-ask')).toContainText('at https://huggingface.co');
  await page.getByTestId('source-settings').locator('summary').click();
  await page.getByLabel('Hugging Face endpoint').fill('ftp://nope');
  await page.getByRole('button', { name: 'Use these' }).click();
  await expect(page.getByTestId('source-settings').getByRole('alert')).toContainText('must be an http(s) URL');
  await page.getByLabel('Hugging Face endpoint').fill(hub.endpoint);
  await page.getByRole('button', { name: 'Use these' }).click();
  await expect(page).toHaveURL(new RegExp(`hf_endpoint=${encodeURIComponent(hub.endpoint).replace(/\./g, '\\.')}`));
  // The ask names scheme and host (plain http shows as such).
  await expect(page.getByTestId('source-ask')).toContainText(`at ${new URL(hub.endpoint).origin}`);

  const before = hub.log.length;
  await page.getByTestId('source-allow').click();
  await expect(page.getByTestId('doc-text')).toBeVisible();
  expect(await shownText(page)).toBe(docs.get(task.gold_docs[0]!)!.text);
  await expect(page.getByTestId('source-origin')).toContainText('located by the release’s locator file');
  const traffic = hub.log.slice(before);
  const t = report(`cold lookup of ${task.gold_docs[0]} with the release's locator`, traffic);
  expect(traffic.filter((e) => e.path.includes('/tree/'))).toEqual([]);
  expect(t.mediaBytes).toBe(0);
  // Footer (length, then metadata) and the row's two text ranges; one redirect at the Hub.
  expect(t.fileRequests).toBe(4);
  expect(t.hubRequests).toBe(1);
  expect(hosts.has('huggingface.co')).toBe(false);
});

test('a silent Hugging Face endpoint (attack): the consent names scheme and host, and Cancel stops the lookup', async ({
  page,
}) => {
  const silent = await listenLocal(() => undefined);
  try {
    const url = `/?release=${encodeURIComponent(official.url)}&view=doc&doc=${task.gold_docs[0]}&hf_endpoint=${encodeURIComponent(silent.origin)}`;
    await page.goto(url);
    await expect(page.getByTestId('source-allow')).toHaveText(`Read documents from ${silent.origin}`);
    await page.getByTestId('source-allow').click();
    await expect(page.getByTestId('source-progress')).toBeVisible();
    await page.getByTestId('source-cancel').click();
    await expect(page.getByTestId('source-cancelled')).toContainText(`Stopped reading ${task.gold_docs[0]}`);
    await expect(page.getByTestId('source-retry')).toBeVisible();
  } finally {
    await silent.close();
  }
});
