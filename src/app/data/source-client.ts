import * as Comlink from 'comlink';
import type { SourceApi } from '../../../workers/source.worker.ts';

let api: Comlink.Remote<SourceApi> | undefined;

/** The one place that starts the source-documents worker (only once a document is read from the source). */
export function sourceWorker(): Comlink.Remote<SourceApi> {
  api ??= Comlink.wrap<SourceApi>(
    new Worker(new URL('../../../workers/source.worker.ts', import.meta.url), { type: 'module', name: 'source' }),
  );
  return api;
}
