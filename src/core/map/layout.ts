/**
 * A benchmark's map: every task a point placed by what its question says. The vectors are the
 * questions' TF-IDF (no model, no download), or an embedding model's vectors of them; UMAP (umap-js, seeded) lays them out in two
 * dimensions, so a release always gets the same map; k-means over the layout makes the regions.
 */
import { UMAP } from 'umap-js';
import { mulberry32 } from '../random.ts';
import { kMeans, regionCount, regionLabels } from './regions.ts';
import { nearestNeighbours, termVectors } from './term-vectors.ts';
import { vectorNeighbours } from './vector-neighbours.ts';

export type MapLayer = 'task' | 'candidate' | 'doc';

export interface MapInput {
  id: string;
  text: string;
}

export interface MapPoint {
  id: string;
  layer: MapLayer;
  /** In [0, 1], both axes on one scale (distances mean the same across and up). */
  x: number;
  y: number;
  region: number;
}

export interface MapRegion {
  region: number;
  label: string;
  count: number;
}

export interface BenchmarkMap {
  points: MapPoint[];
  regions: MapRegion[];
}

/** The version of this method: a cached map made by another is made again. */
export const MAP_METHOD = 'tfidf-umap-1';
export const MAP_SEED = 20240607;

/** Four decimals: 1/10,000 of the map, finer than any screen shows, and the same digits everywhere. */
const round = (v: number) => Math.round(v * 1e4) / 1e4;

/** Scales positions into [0, 1] keeping their aspect, centred on the short axis. */
function fitUnit(positions: number[][]): Array<{ x: number; y: number }> {
  const xs = positions.map((p) => p[0]!);
  const ys = positions.map((p) => p[1]!);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(maxX - minX, maxY - minY) || 1;
  const padX = (1 - (maxX - minX) / span) / 2;
  const padY = (1 - (maxY - minY) / span) / 2;
  return positions.map((p) => ({ x: round(padX + (p[0]! - minX) / span), y: round(padY + (p[1]! - minY) / span) }));
}

export interface MapOptions {
  layer?: MapLayer;
  seed?: number;
  /**
   * One unit vector per input, from an embedding model (the release's or one the user chose): the
   * neighbours are taken from them instead of the questions' TF-IDF. The labels stay words.
   */
  vectors?: readonly Float32Array[];
  /** Called with the share of UMAP's epochs done (0–1). */
  onProgress?: (done: number) => void;
}

export function computeMap(inputs: readonly MapInput[], options: MapOptions = {}): BenchmarkMap {
  const layer = options.layer ?? 'task';
  const seed = options.seed ?? MAP_SEED;
  const texts = inputs.map((i) => i.text);
  let positions: Array<{ x: number; y: number }>;
  if (inputs.length < 4) {
    // Too few points for a neighbourhood graph: a row.
    positions = inputs.map((_, i) => ({ x: round(inputs.length === 1 ? 0.5 : i / (inputs.length - 1)), y: 0.5 }));
  } else {
    const nNeighbors = Math.min(15, inputs.length - 1);
    if (options.vectors && options.vectors.length !== inputs.length)
      throw new Error(`${options.vectors.length} vectors for ${inputs.length} points`);
    const umap = new UMAP({ nComponents: 2, nNeighbors, minDist: 0.1, nEpochs: 200, random: mulberry32(seed) });
    // The exact neighbours, so umap-js never needs the vectors: it gets each row's index only.
    const knn = options.vectors
      ? vectorNeighbours(options.vectors, nNeighbors)
      : nearestNeighbours(termVectors(texts).rows, nNeighbors);
    umap.setPrecomputedKNN(knn.indices, knn.distances);
    const epochs = umap.initializeFit(inputs.map((_, i) => [i]));
    for (let e = 0; e < epochs; e++) {
      umap.step();
      if (options.onProgress && e % 25 === 0) options.onProgress(e / epochs);
    }
    positions = fitUnit(umap.getEmbedding());
  }
  const k = regionCount(inputs.length);
  const region = kMeans(positions, k, seed);
  // Regions numbered by size (largest first), ties by their first point: the same numbers every run.
  const sizes = new Map<number, { count: number; first: number }>();
  region.forEach((r, i) => {
    const s = sizes.get(r);
    if (s) s.count++;
    else sizes.set(r, { count: 1, first: i });
  });
  const order = [...sizes].sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first).map(([r]) => r);
  const renumber = new Map(order.map((r, i) => [r, i]));
  const numbered = region.map((r) => renumber.get(r)!);
  const labels = regionLabels(texts, numbered, order.length);
  return {
    points: inputs.map((input, i) => ({ id: input.id, layer, ...positions[i]!, region: numbered[i]! })),
    regions: order.map((r, i) => ({ region: i, label: labels[i]!, count: sizes.get(r)!.count })),
  };
}
