import { existsSync } from 'node:fs';

/**
 * Names a system Chromium is installed under, in the order we try them. The headless shell
 * first: it is what Playwright's own headless mode runs, and it has no browser UI. The full
 * browser in headless mode builds the UI of a new window for every new context, including a
 * renderer for the omnibox popup: about 0.5 s of CPU that, on a two-core machine, the page
 * under test competes with.
 */
const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/**
 * The browser for end-to-end tests: CHROMIUM_PATH if set, else a system Chromium, else
 * Playwright's own download (undefined executablePath). Throws with what to install when the
 * variable names a missing file.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env.CHROMIUM_PATH;
  if (named) {
    if (!existsSync(named)) throw new Error(`CHROMIUM_PATH=${named} does not exist`);
    return named;
  }
  return SYSTEM_CHROMIUMS.find((p) => existsSync(p));
}

export const NO_BROWSER_HELP =
  'No Chromium found. Set CHROMIUM_PATH, install a system Chromium (Debian/Ubuntu: `apt-get install -y chromium`), ' +
  'or, when online, run `npx playwright install chromium`.';

/**
 * Launch options for every Chromium we start (tests and benches). Without the
 * background-networking flags Chromium keeps dialling Google on a closed network.
 */
export function chromiumLaunchOptions(): { executablePath?: string; args: string[] } {
  const executablePath = findChromium();
  return {
    ...(executablePath ? { executablePath } : {}),
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
  };
}
