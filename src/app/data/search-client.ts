import * as Comlink from 'comlink';
import type { SourceSpec } from '../../core/release/source-spec.ts';
import type { SearchApi } from '../../../workers/search.worker.ts';

let api: Comlink.Remote<SearchApi> | undefined;

/** The one place that starts the search worker. */
export function searchWorker(): Comlink.Remote<SearchApi> {
  api ??= Comlink.wrap<SearchApi>(
    new Worker(new URL('../../../workers/search.worker.ts', import.meta.url), { type: 'module', name: 'search' }),
  );
  return api;
}

/**
 * A task page's BM25 ranking: the release is opened in the search worker, and its BM25 index
 * read, while the page still loads the release (the page's own open is then a no-op).
 */
export function warmBm25(spec: SourceSpec): void {
  const api = searchWorker();
  api.open(spec).catch(() => undefined);
  // Not after open's answer: the worker takes calls in order, and the load needs only release.json
  // (a release without a BM25 index refuses it, and the page says so from open's answer).
  api.load('bm25').catch(() => undefined);
}
