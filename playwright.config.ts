import { existsSync } from 'node:fs';
import { chromium, defineConfig } from '@playwright/test';
import { chromiumLaunchOptions, findChromium, NO_BROWSER_HELP } from './test/e2e/find-browser.ts';

const executablePath = findChromium();
if (!executablePath && !existsSync(chromium.executablePath())) {
  throw new Error(NO_BROWSER_HELP);
}

// E2E_PORT lets two checkouts run their suites side by side.
const port = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  workers: 1,
  timeout: 120_000,
  expect: { timeout: 60_000 },
  reporter: 'list',
  // The built site as `npm start` serves it (precompressed files, cache lifetimes, ranges).
  webServer: {
    command: `npx tsx src/cli/start.ts --no-build`,
    env: { PORT: String(port) },
    url: `http://localhost:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
  use: {
    baseURL: `http://localhost:${port}/`,
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
  },
});
