import { existsSync } from 'node:fs';
import { chromium, defineConfig } from '@playwright/test';
import { findChromium, NO_BROWSER_HELP } from './test/e2e/find-browser.ts';

const executablePath = findChromium();
if (!executablePath && !existsSync(chromium.executablePath())) {
  throw new Error(NO_BROWSER_HELP);
}

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  workers: 1,
  timeout: 120_000,
  expect: { timeout: 60_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  webServer: {
    command: 'npx vite preview --port 4173 --strictPort',
    url: 'http://localhost:4173/',
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
  use: {
    baseURL: 'http://localhost:4173/',
    browserName: 'chromium',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      // Without the background-networking flags Chromium keeps dialling Google on a closed network.
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
