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
let shards: ReturnType<typeof makeSourceShards>;

test.beforeAll(async () => {
  const sample = await readSampleDocs();
  docs = new Map(sample.map((d) => [d.doc_id, d]));
  const answered = tasks.filter(
    (t) => t.type === 'single_hop' && t.answer && docs.get(t.gold_docs[0]!)!.text.includes(t.answer),
  );
  task = answered[0]!;
  // A gold document longer than the judge excerpt, so that its end is marked.
  longTask = answered.find((t) => docs.get(t.gold_docs[0]!)!.text.length > 3000) ?? task;
  shards = makeSourceShards(sample, {
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

const TOKEN = 'hf_e2eGatedToken0123456789';

/** Opens the Source settings panel unless it is open. */
async function openSettings(page: Page): Promise<void> {
  const panel = page.getByTestId('source-settings');
  if (!(await panel.evaluate((el) => (el as HTMLDetailsElement).open))) await panel.locator('summary').click();
}

/** Everything this origin keeps: localStorage, and every IndexedDB store's keys and values as text. */
async function storedText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts = [JSON.stringify({ ...localStorage })];
    const text = (v: unknown): string =>
      v instanceof ArrayBuffer || ArrayBuffer.isView(v)
        ? new TextDecoder('latin1').decode(v instanceof ArrayBuffer ? v : new Uint8Array(v.buffer))
        : JSON.stringify(v, (_k, x: unknown) => (x instanceof ArrayBuffer || ArrayBuffer.isView(x) ? text(x) : x));
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      for (const store of [...db.objectStoreNames]) {
        const tx = db.transaction(store, 'readonly').objectStore(store);
        const all = (q: IDBRequest) =>
          new Promise<unknown[]>((resolve, reject) => {
            q.onsuccess = () => resolve(q.result as unknown[]);
            q.onerror = () => reject(q.error);
          });
        parts.push(...(await all(tx.getAllKeys())).map(text), ...(await all(tx.getAll())).map(text));
      }
      db.close();
    }
    return parts.join('\n');
  });
}

test('a gated dataset: a token is asked for, given in Source settings it reads; the token goes to the Hub only, never in the address, the cache or storage unless remembered', async ({
  page,
}) => {
  const gated = await startMockHub({
    files: shards.files,
    mediaRanges: shards.mediaRanges,
    pageSize: 4,
    limits: { gatedToken: TOKEN },
  });
  try {
    const docId = task.gold_docs[0]!;
    const address = `/?release=${encodeURIComponent(official.url)}&view=doc&doc=${docId}&hf_endpoint=${encodeURIComponent(gated.endpoint)}`;
    await test.step('without a token: the message says one is needed, the settings open at the token field', async () => {
      await page.goto(address);
      await page.getByTestId('source-allow').click();
      const error = page.getByTestId('source-error');
      await expect(error).toHaveAttribute('data-kind', 'auth');
      await expect(error).toContainText('is gated or private');
      await expect(error).toContainText('give a Hugging Face token in Source settings');
      await expect(page.getByTestId('source-token')).toBeVisible();
      await page.getByTestId('source-open-token').click();
      await expect(page.getByTestId('source-token')).toBeFocused();
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `/tmp/hfsource-auth-${width}-light.png`, fullPage: false });
      }
      expect(gated.log.filter((e) => e.origin === 'files')).toEqual([]);
    });

    const withToken = gated.log.length;
    await test.step('with the token: the text is read; the Hub got it, the file host never', async () => {
      await page.getByTestId('source-token').fill(TOKEN);
      await page.getByRole('button', { name: 'Use these' }).click();
      await expect(page.getByTestId('doc-text')).toBeVisible();
      expect(await shownText(page)).toBe(docs.get(docId)!.text);
      await expect(page.getByTestId('source-settings').locator('summary')).toContainText('with a token');
      const after = gated.log.slice(withToken);
      const hubRequests = after.filter((e) => e.origin === 'hub');
      const fileRequests = after.filter((e) => e.origin === 'files');
      expect(hubRequests.length).toBeGreaterThan(0);
      expect(fileRequests.length).toBeGreaterThan(0);
      expect(hubRequests.every((e) => e.authorization && e.status !== 401 && e.status !== 403)).toBe(true);
      expect(gated.log.filter((e) => e.origin === 'files' && e.authorization)).toEqual([]);
      expect(page.url()).not.toContain(TOKEN);
      expect(await storedText(page)).not.toContain(TOKEN);
    });

    await test.step('Check this source with the token: the summary and "can read"', async () => {
      await openSettings(page);
      await page.getByTestId('source-check-run').click();
      await expect(page.getByTestId('source-check-verdict')).toContainText('Can read this source');
      await expect(page.getByTestId('source-check-summary')).toContainText('the product can read this source');
      expect(gated.log.filter((e) => e.origin === 'files' && e.authorization)).toEqual([]);
    });

    await test.step('remembered only while ticked; Forget removes it everywhere', async () => {
      await page.getByTestId('source-token-remember').check();
      expect(await page.evaluate(() => localStorage.getItem('ebx.source-docs.hfToken'))).toBe(TOKEN);
      await page.reload();
      await expect(page.getByTestId('doc-text')).toBeVisible();
      await openSettings(page);
      await expect(page.getByTestId('source-token')).toHaveValue(TOKEN);
      await expect(page.getByTestId('source-token-remember')).toBeChecked();
      await page.getByTestId('source-token-remember').uncheck();
      expect(await storedText(page)).not.toContain(TOKEN);
      await page.getByTestId('source-token-remember').check();
      await page.getByTestId('source-token-forget').click();
      await expect(page.getByTestId('source-token')).toHaveValue('');
      await expect(page.getByTestId('source-token-remember')).not.toBeChecked();
      expect(await storedText(page)).not.toContain(TOKEN);
      expect(page.url()).not.toContain(TOKEN);
    });
  } finally {
    await gated.close();
  }
});

test('Check this source: the CLI’s summary with the shard count and "can read", after the user allows the endpoint', async ({
  page,
}) => {
  const shardCount = [...shards.files.keys()].filter((p) => p.endsWith('.parquet')).length;
  await page.goto(`/?release=${encodeURIComponent(official.url)}&view=doc&doc=${task.gold_docs[0]}&${hf()}`);
  await page.getByTestId('source-settings').locator('summary').click();
  const before = hub.log.length;
  const run = page.getByTestId('source-check-run');
  await expect(run).toHaveText(`Check this source (allow ${new URL(hub.endpoint).origin})`);
  expect(hub.log.length).toBe(before);
  await run.click();
  await expect(page.getByTestId('source-check-verdict')).toContainText('Can read this source');
  const summary = page.getByTestId('source-check-summary');
  await expect(summary).toContainText(`shards: ${shardCount} parquet files`);
  await expect(summary).toContainText('doc id order:');
  await expect(summary).toContainText('v1.0 audit');
  await expect(summary).toContainText('the product can read this source');
  // Allowed by the press: the document is read too.
  await expect(page.getByTestId('doc-text')).toBeVisible();

  await test.step('the panel at 1440 and 390 px, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 1100 });
        await page.getByTestId('source-settings').scrollIntoViewIfNeeded();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${width} px ${scheme}`).toBeLessThanOrEqual(1);
        await page.getByTestId('source-settings').screenshot({ path: `/tmp/hfsource-settings-${width}-${scheme}.png` });
      }
    }
  });
});

test('a small rate window: the lookup says it waits for the Hub’s rate limit, then shows the document', async ({
  page,
}) => {
  // Two requests a 2-second window per budget, answered 429 with Retry-After past them (no advance notice).
  const limited = await startMockHub({
    files: shards.files,
    mediaRanges: shards.mediaRanges,
    pageSize: 4,
    limits: { rateLimit: { requests: 2, windowMs: 2000, retryAfter: true, announce: false } },
  });
  try {
    const docId = task.gold_docs[0]!;
    await page.goto(
      `/?release=${encodeURIComponent(official.url)}&view=doc&doc=${docId}&hf_endpoint=${encodeURIComponent(limited.endpoint)}`,
    );
    // Looked for at every frame, however short the wait.
    const waited = page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="source-progress"]')
          ?.textContent?.match(/waiting for the Hub's rate limit, resumes in \d+ s/)?.[0],
      undefined,
      { polling: 'raf' },
    );
    await page.getByTestId('source-allow').click();
    expect(await (await waited).jsonValue()).toMatch(/resumes in [0-2] s/);
    await expect(page.getByTestId('doc-text')).toBeVisible();
    expect(await shownText(page)).toBe(docs.get(docId)!.text);
    expect(limited.limits.refused.count).toBeGreaterThan(0);
  } finally {
    await limited.close();
  }
});
