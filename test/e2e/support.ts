import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveStatic } from '../../src/cli/static-files.ts';
import type { BrowserContext, Page } from '@playwright/test';
import { listenLocal } from '../support/local-server.ts';
import type { RepositoryMirror } from '../support/repository-mirror.ts';

export {
  goldenDir,
  hasShared,
  projectRoot,
  sharedDir,
  sharedNote as SKIP_NO_SHARED,
  v10Dir,
} from '../support/shared.ts';

/** A copy of a folder in a temp dir, for tests that damage files. */
export function copyFolder(from: string): string {
  const to = path.join(mkdtempSync(path.join(os.tmpdir(), 'ebx-')), path.basename(from));
  cpSync(from, to, { recursive: true });
  return to;
}

export function flipByte(file: string, offset: number): void {
  const bytes = readFileSync(file);
  bytes[offset] = bytes[offset]! ^ 0x01;
  writeFileSync(file, bytes);
}

/** A plain static server on 127.0.0.1 (another origin than the site), with CORS, for URL loading. */
export async function startStaticServer(root: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await listenLocal((req, res) => {
    const headers = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'Content-Length, Content-Range',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...headers, 'Access-Control-Allow-Headers': 'Range' });
      res.end();
      return;
    }
    if (!serveStatic(root, '/', req, res, headers)) {
      res.statusCode = 404;
      res.end();
    }
  });
  return { url: `${server.origin}/`, close: server.close };
}

/**
 * A request still in flight when its test ends (e.g. the search worker probing for indexes) is
 * dropped; Playwright reports it as "Test ended" or a closed/disposed context, by timing.
 */
function endedWithTest(error: unknown): boolean {
  return /Test ended|disposed|closed/i.test(String(error));
}

/** Sends every raw.githubusercontent.com request to the mirror; `hold` delays one path until released. */
export async function routeGitHubTo(
  context: BrowserContext,
  mirror: RepositoryMirror,
  hold?: { path: string; until: Promise<void> },
): Promise<void> {
  const origin = new URL(mirror.url).origin;
  await context.route(/^https:\/\/raw\.githubusercontent\.com\//, async (route) => {
    const at = new URL(route.request().url());
    if (hold && at.pathname.endsWith(hold.path)) await hold.until;
    try {
      const response = await route.fetch({ url: `${origin}${at.pathname}` });
      await route.fulfill({ response });
    } catch (error) {
      if (!endedWithTest(error)) throw error;
    }
  });
}

/** Uncaught errors and console errors of a page (failed resource loads aside), collected as they come. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('Failed to load resource')) errors.push(m.text());
  });
  return errors;
}
