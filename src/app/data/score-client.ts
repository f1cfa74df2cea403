import * as Comlink from 'comlink';
import type { ScoreApi } from '../../../workers/score.worker.ts';

let api: Comlink.Remote<ScoreApi> | undefined;

/** The one place that starts the score worker. */
export function scoreWorker(): Comlink.Remote<ScoreApi> {
  api ??= Comlink.wrap<ScoreApi>(
    new Worker(new URL('../../../workers/score.worker.ts', import.meta.url), { type: 'module', name: 'score' }),
  );
  return api;
}
