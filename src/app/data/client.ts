import * as Comlink from 'comlink';
import type { DataApi } from '../../../workers/data.worker.ts';

let api: Comlink.Remote<DataApi> | undefined;

/** The one place that starts the data worker. */
export function dataWorker(): Comlink.Remote<DataApi> {
  api ??= Comlink.wrap<DataApi>(
    new Worker(new URL('../../../workers/data.worker.ts', import.meta.url), { type: 'module', name: 'data' }),
  );
  return api;
}
