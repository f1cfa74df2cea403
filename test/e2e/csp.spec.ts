/**
 * The site under its Content-Security-Policy (audit finding 4.6). The built site is served with
 * the headers `npm start` sends (src/cli/security-headers.ts) plus a report-uri, and the app, the
 * search engines, the scorer and an embed run with no violation reported by the page or by any
 * worker; a page of another origin can frame the embed page but not the Score page.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { preview, type Plugin } from 'vite';
import { PAGE_POLICY } from '../../src/cli/security-headers.ts';
import { projectRoot, startStaticServer } from './support.ts';

const SITE = `http://localhost:${process.env.E2E_PORT ?? 4173}/`;
const dist = path.join(projectRoot, 'dist');

interface CspReport {
  'document-uri'?: string;
  'violated-directive'?: string;
  'blocked-uri'?: string;
  'source-file'?: string;
}

/**
 * The built site as `npm start` serves it (vite preview with the project's config, whose plugin
 * sends the security headers), each policy extended with a report-uri collected here.
 */
async function previewReporting(): Promise<{ url: string; reports: CspReport[]; close: () => Promise<void> }> {
  const reports: CspReport[] = [];
  const collect: Plugin = {
    name: 'test-csp-reports',
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.method === 'POST' && req.url === '/__csp-report') {
          let body = '';
          req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          req.on('end', () => {
            const parsed = JSON.parse(body) as { 'csp-report'?: CspReport };
            if (parsed['csp-report']) reports.push(parsed['csp-report']);
            res.statusCode = 204;
            res.end();
          });
          return;
        }
        const policy = res.getHeader('Content-Security-Policy');
        if (typeof policy === 'string') res.setHeader('Content-Security-Policy', `${policy}; report-uri /__csp-report`);
        next();
      });
    },
  };
  const port = Number(process.env.E2E_PORT ?? 4173) + 1000;
  const server = await preview({
    root: projectRoot,
    preview: { port, strictPort: true, host: '127.0.0.1' },
    plugins: [collect],
    logLevel: 'silent',
  });
  return { url: `http://127.0.0.1:${port}/`, reports, close: () => server.close() };
}

/** Violations the page itself sees, and every console line about a policy (page and workers). */
function watch(page: Page): { events: string[]; console: string[] } {
  const seen = { events: [] as string[], console: [] as string[] };
  const onText = (text: string): void => {
    if (/Content Security Policy|Refused to/i.test(text)) seen.console.push(text);
  };
  page.on('console', (m) => onText(m.text()));
  page.on('worker', (w) => w.on('console', (m) => onText(m.text())));
  page.on('pageerror', (e) => onText(String(e)));
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __violations?: string[] };
      (w.__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return seen;
}

const sampleTasks = readFileSync(path.join(projectRoot, 'static-data/sample/full/tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { task_id: string; type: string; question: string });

test('the built pages carry the policy as a meta tag, and npm start sends it with frame-ancestors', async ({
  request,
}) => {
  for (const page of ['index.html', 'embed/index.html']) {
    const html = readFileSync(path.join(dist, page), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    expect(meta?.[1]?.replaceAll('&#39;', "'")).toBe(PAGE_POLICY);
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf('<script'));
  }
  const app = await request.get(SITE);
  expect(app.headers()['content-security-policy']).toBe(`${PAGE_POLICY}; frame-ancestors 'none'`);
  expect(app.headers()['x-frame-options']).toBe('DENY');
  const embed = await request.get(`${SITE}embed/index.html`);
  expect(embed.headers()['content-security-policy']).toBe(PAGE_POLICY);
  expect(embed.headers()['x-frame-options']).toBeUndefined();
});

test('the app, its workers and an embed run under the policy with no violation', async ({ page }) => {
  test.setTimeout(240_000);
  const site = await previewReporting();
  const seen = watch(page);
  try {
    const task = sampleTasks.find((t) => t.type === 'single_hop')!;
    // Tasks list and a task with its gold documents: data worker, DuckDB and its worker, parquet.
    await page.goto(site.url);
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    await page.goto(`${site.url}?view=task&task=${task.task_id}&split=full`);
    await expect(page.getByTestId('task-question')).toHaveText(task.question);
    await expect(page.getByTestId('gold-doc').first()).toBeVisible();
    // Free-text search (Orama in the data worker).
    await page.goto(`${site.url}?q=${encodeURIComponent(task.question.split(' ').slice(0, 3).join(' '))}`);
    await expect(page.getByTestId('task-row').first()).toBeVisible();
    // Retrieval: BM25 and the dense model (onnxruntime wasm) in the search worker.
    await page.goto(`${site.url}?view=search&q=${encodeURIComponent(task.question)}`);
    for (const method of ['bm25', 'dense', 'hybrid']) {
      await expect(page.getByTestId(`results-${method}`).getByTestId('result-row').first()).toBeVisible();
    }
    // Scoring a reference submission from the shipped judge cache (score worker, IndexedDB).
    await page.goto(`${site.url}?view=score`);
    await page.getByTestId('release-submission').selectOption('bm25-top-doc-sample');
    await expect(page.getByTestId('validation-ok')).toBeVisible();
    await page.getByTestId('score-run').click();
    await expect(page.getByTestId('scorecard')).toBeVisible();
    // The other views.
    for (const view of ['rejections', 'entities', 'leaderboard', 'card']) {
      await page.goto(`${site.url}?view=${view}`);
      await expect(page.locator('main')).not.toBeEmpty();
    }
    // An embed.
    await page.goto(`${site.url}embed/index.html?task=${task.task_id}&split=full`);
    await expect(page.getByTestId('task-question')).toHaveText(task.question);
    const violations = await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);
    const consoleLines = [...seen.console];
    // A deliberate violation last (an inline script): once its report is in, the earlier ones would be.
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__sentinel = 1';
      document.head.append(script);
    });
    const isSentinel = (r: CspReport) =>
      r['blocked-uri'] === 'inline' && Boolean(r['document-uri']?.includes('/embed/'));
    await expect.poll(() => site.reports.some(isSentinel)).toBe(true);
    const unexpected = site.reports.filter((r) => !isSentinel(r));
    expect(unexpected).toEqual([]);
    expect(violations).toEqual([]);
    expect(consoleLines).toEqual([]);
  } finally {
    await site.close();
  }
});

test('a page of another origin can frame an embed but not the Score page', async ({ page }) => {
  const task = sampleTasks.find((t) => t.type === 'single_hop')!;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-frame-'));
  writeFileSync(
    path.join(dir, 'page.html'),
    `<!doctype html><title>foreign</title>
     <iframe id="embed" src="${SITE}embed/index.html?task=${task.task_id}&split=full" width="600" height="400"></iframe>
     <iframe id="score" src="${SITE}?view=score" width="600" height="400"></iframe>`,
  );
  const host = await startStaticServer(dir);
  const refused = new Promise<string>((resolve) =>
    page.on('console', (m) => {
      if (m.text().includes('frame-ancestors')) resolve(m.text());
    }),
  );
  try {
    await page.goto(`${host.url}page.html`);
    await expect(page.frameLocator('#embed').getByTestId('task-question')).toHaveText(task.question);
    expect(await refused).toContain("frame-ancestors 'none'");
    await expect(page.frameLocator('#score').getByTestId('score-view')).toHaveCount(0);
    await expect(page.frameLocator('#score').locator('#app')).toHaveCount(0);
  } finally {
    await host.close();
  }
});
