/**
 * Issue 21: the default build, copied as plain files under /explorer/ of a header-less static
 * host (no CSP, no cache headers, no precompressed copies), once with Range support and once
 * on a server that answers ranges with 200 and the whole file (python's http.server): the
 * landing page, tasks, a task page with gold text, rejections, search, scoring from the cache,
 * the offline copy (service worker scope /explorer/) and the README's embed snippet on a page of
 * another origin all work, with no console error and no "changed file" refusal.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startPlainServer, type PlainServer } from '../support/plain-static-server.ts';
import { projectRoot, startStaticServer } from './support.ts';

const dist = path.join(projectRoot, 'dist');
const README_HOST = 'https://YOUR-EXPLORER-HOST/';

interface TaskLine {
  task_id: string;
  type: string;
  question: string;
  gold_docs: string[];
}
const tasks = readFileSync(path.join(projectRoot, 'static-data/sample/full/tasks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as TaskLine);
const withGold = tasks.find((t) => t.type === 'single_hop' && t.gold_docs.length > 0)!;

/** The first html block of the README's "Embedding" section, as a maintainer would copy it. */
export function readmeEmbedSnippet(): string {
  const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Embedding'));
  const block = /```html\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md: no html block in the Embedding section');
  return block[1]!;
}

/** Console errors and uncaught errors of the page (its frames and workers included). */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

for (const ranges of [true, false]) {
  test.describe(`the build as plain files under /explorer/, ${ranges ? 'with Range' : 'on a server that ignores Range'}`, () => {
    let site: PlainServer;
    test.beforeAll(async () => {
      site = await startPlainServer(dist, { prefix: '/explorer/', ranges });
    });
    test.afterAll(() => site.close());

    test('landing, tasks, a task page, rejections, search, scoring and the offline copy work', async ({ page }) => {
      test.setTimeout(300_000);
      const errors = consoleErrors(page);
      await test.step('landing and tasks', async () => {
        await page.goto(site.url);
        await expect(page.getByTestId('task-row').first()).toBeVisible();
        await expect(page.getByTestId('background-progress')).toHaveCount(0);
        await expect(page.getByTestId('load-error')).toHaveCount(0);
        if (!ranges) {
          // The release's file report names the cause instead of refusing the release.
          await expect(page.getByTestId('file-note').first()).toContainText('ignores range requests');
        }
      });

      await test.step('a task page with gold text and its BM25 ranking', async () => {
        await page.goto(`${site.url}?view=task&task=${withGold.task_id}&split=full`);
        await expect(page.getByTestId('task-question')).toHaveText(withGold.question);
        await expect(page.getByTestId('gold-doc').first().getByTestId('doc-text')).toBeVisible();
        await expect(
          page.getByTestId('task-rankings').getByTestId('results-bm25').getByTestId('result-row').first(),
        ).toBeVisible();
      });

      await test.step('rejections', async () => {
        await page.goto(`${site.url}?view=rejections`);
        await expect(page.getByTestId('rejection-total')).toContainText('rejected');
      });

      await test.step('search', async () => {
        await page.goto(`${site.url}?view=search`);
        await page.getByTestId('search-input').fill(withGold.question);
        await page.getByTestId('search-submit').click();
        await expect(page.getByTestId('results-bm25').getByTestId('result-row').first()).toBeVisible();
      });

      await test.step('scoring from the cache', async () => {
        await page.goto(`${site.url}?view=score`);
        await expect(page.getByTestId('inputs-state')).toContainText('Tasks:');
        await page.getByTestId('release-submission').selectOption('bm25-top-doc-sample');
        await expect(page.getByTestId('judge-uncached')).toHaveText('0');
        await page.getByTestId('score-run').click();
        await expect(page.getByTestId('scorecard')).toBeVisible();
      });

      await test.step('the offline copy, service worker scope /explorer/', async () => {
        // The offline copy: the service worker sits beside the site, its scope the site's folder.
        await page.goto(site.url);
        await expect(page.getByTestId('task-row').first()).toBeVisible();
        await page.getByTestId('offline-toggle').click();
        await expect(page.getByTestId('offline-release')).toContainText('sample', { timeout: 120_000 });
        const scope = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope);
        expect(scope).toBe(site.url);
        await page.context().setOffline(true);
        await page.reload();
        await expect(page.getByTestId('task-row').first()).toBeVisible();
        await page.context().setOffline(false);
        await page.getByTestId('offline-toggle').click();
        await page.getByTestId('offline-clear').click();
        await expect(page.getByTestId('offline-empty')).toBeVisible();
      });

      await test.step('no console error, nothing asked outside /explorer/', async () => {
        await expect(page.getByText(/while it was read/)).toHaveCount(0);
        expect(errors).toEqual([]);
        // Nothing was asked for outside the site's folder.
        expect(site.log.filter((e) => !e.path.startsWith('/explorer/'))).toEqual([]);
      });
    });

    test("the README's embed snippet, on a page of another origin, shows each embed and sizes it", async ({ page }) => {
      const errors = consoleErrors(page);
      const snippet = readmeEmbedSnippet();
      expect(snippet).toContain(README_HOST);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-readme-embed-'));
      writeFileSync(
        path.join(dir, 'page.html'),
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title></head><body>\n${snippet.replaceAll(README_HOST, site.url)}</body></html>`,
      );
      const host = await startStaticServer(dir);
      try {
        expect(new URL(host.url).origin).not.toBe(site.origin);
        await page.goto(`${host.url}page.html`);
        const embeds = page.locator('epstein-bench-task, epstein-bench-embed');
        const count = await embeds.count();
        expect(count).toBe((snippet.match(/<epstein-bench-(task|embed)\b/g) ?? []).length);
        for (let i = 0; i < count; i++) {
          await test.step(`embed ${i + 1} of ${count}: shown, sized, themed`, async () => {
            const element = embeds.nth(i);
            const frame = element.frameLocator('iframe');
            const kind = await element.evaluate((e) =>
              e.getAttribute('task-id') ? 'task' : e.getAttribute('doc-id') ? 'doc' : e.getAttribute('view'),
            );
            if (kind === 'task') {
              await expect(frame.getByTestId('task-question')).toBeVisible();
              await expect(frame.getByTestId('gold-doc').first()).toBeVisible();
            } else if (kind === 'doc') {
              await expect(frame.getByTestId('doc-text')).toBeVisible();
            } else {
              await expect(frame.getByTestId('leaderboard')).toBeVisible();
            }
            await expect(frame.getByTestId('embed-error')).toHaveCount(0);
            // Sized to its content: the iframe's height is the embed's, not the loader's 320 px.
            await expect
              .poll(async () => {
                const outer = await element
                  .locator('iframe')
                  .evaluate((f) => Math.round(f.getBoundingClientRect().height));
                const inner = await frame
                  .getByTestId('embed')
                  .evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
                return Math.abs(outer - inner) <= 2 && outer !== 320;
              })
              .toBe(true);
            // theme= when given, else the host's colour scheme (this page declares none: light).
            const theme = (await element.getAttribute('theme')) ?? 'light';
            await expect(frame.locator('html')).toHaveAttribute('data-theme', theme);
          });
        }
        expect(errors).toEqual([]);
      } finally {
        await host.close();
      }
    });
  });
}
