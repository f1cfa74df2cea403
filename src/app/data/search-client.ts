import * as Comlink from 'comlink';
import type { SearchApi } from '../../../workers/search.worker.ts';

let api: Comlink.Remote<SearchApi> | undefined;

/** The one place that starts the search worker. */
export function searchWorker(): Comlink.Remote<SearchApi> {
  api ??= Comlink.wrap<SearchApi>(
    new Worker(new URL('../../../workers/search.worker.ts', import.meta.url), { type: 'module', name: 'search' }),
  );
  return api;
}
