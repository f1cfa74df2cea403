import * as Comlink from 'comlink';
import type { DiffApi } from '../../../workers/diff.worker.ts';

let api: Comlink.Remote<DiffApi> | undefined;

/** The one place that starts the release-diff worker (only once the Diff view compares). */
export function diffWorker(): Comlink.Remote<DiffApi> {
  api ??= Comlink.wrap<DiffApi>(
    new Worker(new URL('../../../workers/diff.worker.ts', import.meta.url), { type: 'module', name: 'diff' }),
  );
  return api;
}
