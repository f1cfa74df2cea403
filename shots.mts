import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './test/e2e/find-browser.ts';
const base = 'http://localhost:4207/';
const browser = await chromium.launch(chromiumLaunchOptions());
const which = process.argv[2] ?? 'all';
for (const [w, h] of [[1440, 1000], [390, 844]] as const) {
  for (const theme of ['light', 'dark'] as const) {
    const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: theme });
    const page = await ctx.newPage();
    page.on('console', (m) => { if (m.type() === 'error') console.log('console error:', m.text()); });
    page.on('pageerror', (e) => console.log('page error:', e.message));
    page.on('response', (r) => { if (r.status() === 404) console.log('404', r.url()); });
    const shots: Array<[string, string, string]> = [
      ['grounding', '?view=audit', 'grounding-line'],
      ['cutoff', '?view=audit&tab=cutoff', 'cutoff-row'],
      ['bias', '?view=audit&tab=bias', 'bias-row'],
      ['absence', '?view=audit&tab=absence&at=4919bb7a-c015-4677-a876-0bf9220fe03a', 'absence-mentions'],
      ['appeals', '?view=audit&tab=appeals', 'rule-appeals'],
      ['spot', '?view=spotcheck&size=12', 'spot-task'],
      ['v10', '?release=' + encodeURIComponent('http://127.0.0.1:44077/') + '&view=audit', 'audit-no-text'],
      ['v10bias', '?release=' + encodeURIComponent('http://127.0.0.1:44077/') + '&view=audit&tab=bias', 'bias-row'],
      ['doc', '?view=doc&doc=SMPL00002558&appeal=a540f015-d0b6-427c-902b-d668ba98a7d2&hl=aboard%20aircraft%20QX-XZZ%20on%2019%20August%202010', 'excerpt-end'],
    ];
    for (const [name, q, wait] of shots) {
      if (which !== 'all' && which !== name) continue;
      await page.goto(base + q);
      try { await page.getByTestId(wait).first().waitFor({ timeout: 30000 }); } catch (e) { console.log(name, 'wait failed', (e as Error).message.split('\n')[0]); }
      if (name === 'absence') { await page.getByTestId('absence-target').locator('summary').first().click(); await page.getByTestId('absence-target').getByTestId('doc-text').first().waitFor(); }
      if (w === 390) {
        await page.screenshot({ path: `/tmp/audit-${name}-${w}-${theme}.png`, fullPage: true, clip: { x: 0, y: 0, width: 390, height: 1300 } });
        await page.screenshot({ path: `/tmp/audit-${name}-${w}-${theme}-b.png`, fullPage: true, clip: { x: 0, y: 1300, width: 390, height: 1300 } }).catch(() => undefined);
      } else await page.screenshot({ path: `/tmp/audit-${name}-${w}-${theme}.png`, fullPage: true });
    }
    await ctx.close();
  }
}
await browser.close();
