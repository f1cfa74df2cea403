/**
 * Measures what a page costs before something is on screen, for the delivery bench and the
 * byte-budget test: the site server notes every answer with its arrival time, and an init
 * script in every frame notes when each awaited element first appears. Bytes before a view =
 * the bodies (as sent: compressed when encoded) of the requests that arrived before it was
 * visible; requests started later (the rest of a release, read in the background) do not count.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { startSiteServer, type SiteServer, type SiteServerOptions } from '../../src/cli/site-server.ts';
import type { ServedEntry } from '../../src/cli/static-files.ts';

export interface Served extends ServedEntry {
  at: number;
}

export interface MeasuredServer extends SiteServer {
  served: Served[];
  /** Forgets what was served so far (between a cold and a warm visit). */
  reset(): void;
  /** Body bytes of the requests that arrived at or before `until` (epoch ms). */
  bytesUntil(until: number): number;
}

export async function startMeasuredServer(options: SiteServerOptions): Promise<MeasuredServer> {
  const served: Served[] = [];
  const site = await startSiteServer({ ...options, onServed: (e) => served.push({ ...e, at: Date.now() }) });
  return {
    ...site,
    served,
    reset: () => void served.splice(0),
    bytesUntil: (until) => served.filter((s) => s.at <= until).reduce((sum, s) => sum + s.bytes, 0),
  };
}

/**
 * Marks, in every frame, the epoch ms at which each selector first matches an element (attribute
 * changes count: a selector may name an element's state). The
 * script is a string: functions serialised from tsx-compiled code carry helpers the page lacks.
 */
export async function watchVisible(context: BrowserContext, marks: Record<string, string>): Promise<void> {
  await context.addInitScript(`(() => {
    const wanted = ${JSON.stringify(marks)};
    const seen = {};
    window.__ebxVisible = seen;
    new MutationObserver(() => {
      for (const [name, selector] of Object.entries(wanted)) {
        if (seen[name] === undefined && document.querySelector(selector)) seen[name] = Date.now();
      }
    }).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
  })()`);
}

/**
 * Resolves once `name` is visible in at least `frames` frames of the page (its own or its
 * iframes, of any origin: Playwright reaches every frame). Polls; the times come from the page.
 */
export async function waitVisible(page: Page, name: string, frames = 1, timeout = 180_000): Promise<void> {
  const until = Date.now() + timeout;
  while ((await marksOf(page, name)).length < frames) {
    if (Date.now() > until) throw new Error(`${name} not visible in ${frames} frame(s) after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function marksOf(page: Page, name: string): Promise<number[]> {
  const times: number[] = [];
  for (const frame of page.frames()) {
    const t: unknown = await frame
      .evaluate(`window.__ebxVisible && window.__ebxVisible[${JSON.stringify(name)}]`)
      .catch(() => undefined);
    if (typeof t === 'number') times.push(t);
  }
  return times.sort((a, b) => a - b);
}

/** When `name` became visible: in the page, or in the last of the first `frames` frames showing it. */
export async function visibleAt(page: Page, name: string, frames = 1): Promise<number> {
  const times = await marksOf(page, name);
  if (times.length < frames) throw new Error(`${name} is visible in ${times.length} frame(s), expected ${frames}`);
  return times[frames - 1]!;
}
