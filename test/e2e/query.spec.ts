/**
 * The Query view (SQL console) in Chromium over the sample release, DuckDB-WASM in the data
 * worker: a query run, shared by its URL and exported; a write, a file read and a network read
 * refused with a clear message (and the network never reached); DuckDB's error with its place;
 * axe at desktop and phone widths in both themes. Expected rows are
 * counted here from the sample's files.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { downloaded } from './score-support.ts';
import { jsonl, openApp, sidewaysOverflow, type SampleTask } from './ux-support.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

function splitCounts(): [string, number][] {
  const full = jsonl<SampleTask>('full/tasks.jsonl').length;
  const dev = jsonl<SampleTask>('dev/tasks.jsonl').length;
  return [
    ['dev', dev],
    ['full', full],
  ];
}

const COUNT_QUERY = 'SELECT split, count(*) AS n\nFROM tasks\nGROUP BY split\nORDER BY split';

async function runQuery(page: Page, sql: string): Promise<void> {
  await page.getByTestId('query-editor').fill(sql);
  await page.getByTestId('query-editor').press('Control+Enter');
}

async function resultRows(page: Page): Promise<string[][]> {
  const rows = page.getByTestId('query-row');
  return rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

test('runs a query, shares it by its URL and exports it as CSV and JSON', async ({ page, context }) => {
  await openApp(page, '?view=query');
  await expect(page.getByTestId('query-tables')).toContainText('tasks');
  await runQuery(page, COUNT_QUERY);
  const expected = splitCounts();
  await expect(page.getByTestId('query-status')).toHaveText(`${expected.length} rows`);
  expect(await resultRows(page)).toEqual(expected.map(([s, n]) => [s, String(n)]));

  // The query is in the address: a new tab opened on it shows the same rows.
  expect(new URL(page.url()).searchParams.get('sql')).toBe(COUNT_QUERY);
  const other = await context.newPage();
  await openApp(other, new URL(page.url()).search);
  await expect(other.getByTestId('query-status')).toHaveText(`${expected.length} rows`);
  expect(await resultRows(other)).toEqual(expected.map(([s, n]) => [s, String(n)]));
  await expect(other.getByTestId('query-editor')).toHaveValue(COUNT_QUERY);
  await other.close();

  const csv = (await downloaded(page, 'query-export-csv')).toString('utf8');
  expect(csv).toBe(`split,n\r\n${expected.map(([s, n]) => `${s},${n}`).join('\r\n')}\r\n`);
  const json = JSON.parse((await downloaded(page, 'query-export-json')).toString('utf8')) as unknown;
  expect(json).toEqual(expected.map(([split, n]) => ({ split, n })));
});

test('refuses a write, a file read and a network read with a clear message', async ({ page }) => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.setHeader('access-control-allow-origin', '*');
    res.end('a,b\n1,2\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const remote = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data.csv`;
  try {
    await openApp(page, '?view=query');
    const error = page.getByTestId('query-error');

    await runQuery(page, 'DROP TABLE tasks');
    await expect(error).toContainText('Not allowed here');
    await expect(error).toContainText("cannot drop the release's tables");

    await runQuery(page, "SELECT * FROM read_text('release.json')");
    await expect(error).toContainText('cannot read files or reach the network');

    await runQuery(page, `SELECT * FROM read_csv('${remote}')`);
    await expect(error).toContainText('cannot read files or reach the network');
    expect(hits).toBe(0);

    // The tables are as they were.
    await runQuery(page, 'SELECT count(*) AS n FROM tasks');
    const total = splitCounts().reduce((a, [, n]) => a + n, 0);
    await expect(page.getByTestId('query-row')).toHaveText(String(total));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('Cancel stops a query that would run for hours, and the next query runs', async ({ page }) => {
  await openApp(page, '?view=query');
  await expect(page.getByTestId('query-tables')).toContainText('tasks');
  // 10^16 rows: DuckDB-WASM would not finish this in the test's lifetime, nor stop it when asked.
  await runQuery(page, 'SELECT count(*) AS n\nFROM range(100000000) a, range(100000000) b');
  await expect(page.getByTestId('query-status')).toContainText('Running…');
  // The seconds counter shows the query really runs (not answered at once, not failed).
  await expect(page.getByTestId('query-status')).toContainText(/Running… [1-9]\d* s/);
  const pressed = Date.now();
  await page.getByTestId('query-cancel').click();
  // Bounded: the console's DuckDB worker is terminated, not asked to stop.
  await expect(page.getByTestId('query-error')).toContainText('Cancelled', { timeout: 10_000 });
  console.log(`query cancelled ${Date.now() - pressed} ms after Cancel was pressed`);
  await expect(page.getByTestId('query-error')).toContainText('The query was cancelled.');
  await expect(page.getByTestId('query-cancel')).toHaveCount(0);

  // The next query runs on a fresh copy of the tables.
  await runQuery(page, COUNT_QUERY);
  const expected = splitCounts();
  await expect(page.getByTestId('query-status')).toHaveText(`${expected.length} rows`);
  expect(await resultRows(page)).toEqual(expected.map(([s, n]) => [s, String(n)]));
  await expect(page.getByTestId('query-error')).toHaveCount(0);
});

test("shows DuckDB's error at its line and column", async ({ page }) => {
  await openApp(page, '?view=query');
  await runQuery(page, 'SELECT task_id,\n  nope\nFROM tasks');
  const error = page.getByTestId('query-error');
  await expect(error).toContainText('DuckDB could not run the query (line 2, column 3)');
  await expect(error).toContainText('Referenced column "nope" not found');
});

for (const scheme of ['light', 'dark'] as const)
  for (const width of [1440, 390])
    test(`axe finds no serious violation, nothing scrolls sideways (${scheme}, ${width} px)`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await openApp(page, `?view=query&sql=${encodeURIComponent('SELECT * FROM tasks')}`);
      await expect(page.getByTestId('query-row').first()).toBeVisible();
      await expect(page.getByTestId('query-tables')).toContainText('tasks');
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (d: Document) => Promise<{ violations: unknown[] }> } }).axe;
        return (await axe.run(document)).violations as Array<{ id: string; impact: string | null }>;
      });
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);
    });
