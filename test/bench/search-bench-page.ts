/**
 * The bench page: starts the app's real search worker (the same module the site bundles) and
 * exposes it as window.searchBench for the Playwright driver. Served by a Vite dev server the
 * bench starts; not part of the site's build.
 */
import * as Comlink from 'comlink';
import type { SearchApi } from '../../workers/search.worker.ts';

const api = Comlink.wrap<SearchApi>(
  new Worker(new URL('../../workers/search.worker.ts', import.meta.url), { type: 'module', name: 'search' }),
);
(window as unknown as { searchBench: unknown }).searchBench = {
  api,
  proxy: Comlink.proxy,
};
document.body.dataset['ready'] = 'true';
