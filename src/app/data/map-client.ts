import * as Comlink from 'comlink';
import type { MapApi } from '../../../workers/map.worker.ts';

let api: Comlink.Remote<MapApi> | undefined;

/** The one place that starts the map worker (only once the Map page opens). */
export function mapWorker(): Comlink.Remote<MapApi> {
  api ??= Comlink.wrap<MapApi>(
    new Worker(new URL('../../../workers/map.worker.ts', import.meta.url), { type: 'module', name: 'map' }),
  );
  return api;
}
