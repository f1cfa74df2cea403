/**
 * The Score page when the judge or the browser fails (audit findings 4.3 and 4.8): a refused key
 * stops the run at once and shows the HTTP status and the provider's message; two tabs scoring
 * the same predictions send each call once; replies IndexedDB refuses (quota) are scored from
 * and offered for download.
 */
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { startMockJudgeServer, type MockJudgeServer, type RecordedRequest } from '../support/mock-judge-server.ts';
import { downloaded, jsonlLines, openScorePage, sampleDir, setFile } from './score-support.ts';

const KEY = 'sk-test-e2e-failures-0123456789';

function promptOf(r: RecordedRequest): string {
  const body = r.body as { messages: Array<{ content: string }> };
  return body.messages[body.messages.length - 1]!.content;
}

function mockReply(prompt: string): string {
  if (prompt.startsWith('[SAMPLELIST]')) return '{"matched_items": [true], "extra_items": 0}';
  if (prompt.startsWith('[SAMPLEPREMISE]')) return '{"identified": false}';
  return '{"correct": true, "is_refusal": false}';
}

/** The sample's reference predictions with every answer changed (a tag per test), so no cached reply applies. */
function livePredictions(tag: string): string {
  return `${jsonlLines(path.join(sampleDir, 'submissions/bm25-top-doc-sample/predictions.jsonl'))
    .map((line) => {
      const rec = JSON.parse(line) as { answer: string };
      rec.answer = `${rec.answer} (${tag})`;
      return JSON.stringify(rec);
    })
    .join('\n')}\n`;
}

async function prepare(page: Page, predictions: string, baseUrl: string): Promise<void> {
  await openScorePage(page);
  await setFile(page, 'predictions-file', 'predictions.jsonl', predictions);
  await expect(page.getByTestId('validation-ok')).toBeVisible();
  await page.getByTestId('judge-provider').selectOption('openai');
  await page.getByTestId('judge-base-url').fill(baseUrl);
  await page.getByTestId('judge-key').fill(KEY);
  await expect(page.getByTestId('judge-uncached')).not.toHaveText('0');
}

let mock: MockJudgeServer | undefined;
test.afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

test('a refused key stops the run at once and the page shows the status and the provider message', async ({ page }) => {
  mock = await startMockJudgeServer({
    fallback: () => ({
      status: 401,
      body: { error: { message: 'Incorrect API key provided: sk-te****6789', code: 'invalid_api_key' } },
    }),
  });
  await prepare(page, livePredictions('401'), `${mock.url}/v1`);
  await page.getByTestId('score-run').click();
  await expect(page.getByTestId('judge-stopped')).toContainText('HTTP 401');
  await expect(page.getByTestId('judge-stopped-message')).toContainText(
    'HTTP 401 (invalid_api_key): Incorrect API key provided',
  );
  await expect(page.getByTestId('judge-stopped-message')).toContainText('No more calls were sent');
  expect(mock.requests.length).toBeLessThanOrEqual(4);
  await expect(page.getByTestId('score-status')).not.toContainText(/type an API key/);
});

test('failed calls: the panel says why in one line, with how many share the reason', async ({ page }) => {
  mock = await startMockJudgeServer({
    fallback: (request) =>
      promptOf(request).includes('FAIL-ME')
        ? { status: 400, body: { error: { message: 'prompt too long', code: 'context_length_exceeded' } } }
        : { reply: mockReply(promptOf(request)) },
  });
  const predictions = livePredictions('reasons')
    .split('\n')
    .map((line, i) => (i < 3 ? line.replace('(reasons)', '(reasons FAIL-ME)') : line))
    .join('\n');
  await prepare(page, predictions, `${mock.url}/v1`);
  await page.getByTestId('score-run').click();
  await expect(page.getByTestId('scorecard')).toBeVisible();
  await expect(page.getByTestId('judge-failure-reason')).toContainText(
    /^3 calls failed: .*context_length_exceeded.*prompt too long.* \(all for this reason\)$/,
  );
});

test('two tabs scoring the same predictions send each judge call once', async ({ context }) => {
  const server = (mock = await startMockJudgeServer({
    fallback: (r) => ({ reply: mockReply(promptOf(r)), delayMs: 30 }),
  }));
  const predictions = livePredictions('two tabs');
  const [a, b] = [await context.newPage(), await context.newPage()];
  await prepare(a, predictions, `${server.url}/v1`);
  await prepare(b, predictions, `${server.url}/v1`);
  await Promise.all([a.getByTestId('score-run').click(), b.getByTestId('score-run').click()]);
  await expect(a.getByTestId('scorecard')).toBeVisible();
  await expect(b.getByTestId('scorecard')).toBeVisible();
  const prompts = server.requests.map(promptOf);
  expect(new Set(prompts).size).toBeGreaterThan(100);
  expect(prompts.length).toBe(new Set(prompts).size);
  await expect(a.getByTestId('headline')).toHaveText(await b.getByTestId('headline').innerText());
});

async function limitStorage(context: BrowserContext, page: Page, quotaSize: number): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(page.url()).origin, quotaSize });
}

test('replies IndexedDB refuses (quota) are scored from, counted, and offered for download', async ({
  context,
  page,
}) => {
  const server = (mock = await startMockJudgeServer({ fallback: (r) => ({ reply: mockReply(promptOf(r)) }) }));
  await prepare(page, livePredictions('quota'), `${server.url}/v1`);
  await limitStorage(context, page, 1);
  await page.getByTestId('score-run').click();
  await expect(page.getByTestId('scorecard')).toBeVisible();
  await expect(page.getByTestId('cache-unsaved')).toContainText(`${server.requests.length} judge replies`);
  await expect(page.getByTestId('cache-unsaved')).toContainText('download them before you reload');
  const saved = JSON.parse((await downloaded(page, 'cache-unsaved-download')).toString('utf8')) as Record<
    string,
    string
  >;
  const replies = new Set(Object.values(saved));
  for (const r of server.requests) expect(replies.has(mockReply(promptOf(r)))).toBe(true);
  expect(Object.keys(saved).length).toBeGreaterThanOrEqual(server.requests.length);
});
