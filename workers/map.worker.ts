/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { cachedMap, keepMap } from '../src/adapters/browser/map-cache.ts';
import {
  computeMap,
  MAP_METHOD,
  MAP_SEED,
  type BenchmarkMap,
  type MapInput,
  type MapLayer,
} from '../src/core/map/layout.ts';

/** The map's layout off the main thread (UMAP takes seconds at v1.0 size), cached per content. */
async function contentKey(inputs: readonly MapInput[], layer: MapLayer, model?: string): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify([MAP_METHOD, MAP_SEED, layer, inputs, model ?? null]));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

const api = {
  /**
   * The map of these points; `fromCache` says whether it was computed before (this visit or an
   * earlier one). With `embedded`, the neighbours come from a model's vectors (one row of `dim`
   * per input), and the model's label is part of the cache key.
   */
  async layout(
    inputs: MapInput[],
    layer: MapLayer,
    onProgress?: (done: number) => void,
    embedded?: { label: string; dim: number; vectors: Float32Array },
  ): Promise<{ map: BenchmarkMap; fromCache: boolean }> {
    const key = await contentKey(inputs, layer, embedded?.label);
    const kept = await cachedMap(key);
    if (kept) return { map: kept, fromCache: true };
    const vectors = embedded
      ? inputs.map((_, i) => embedded.vectors.subarray(i * embedded.dim, (i + 1) * embedded.dim))
      : undefined;
    const map = computeMap(inputs, { layer, vectors, onProgress: (d) => void onProgress?.(d) });
    await keepMap(key, map);
    return { map, fromCache: false };
  },
};
export type MapApi = typeof api;
Comlink.expose(api);
