/**
 * The exact nearest neighbours of unit vectors (an embedding model's), by cosine distance, in
 * the shape umap-js's setPrecomputedKNN takes: each row itself first, then its k − 1 nearest.
 * Brute force: a thousand questions by a few hundred dimensions is a fraction of a second.
 */
import type { Neighbours } from './term-vectors.ts';

export function vectorNeighbours(vectors: readonly Float32Array[], k: number): Neighbours {
  const n = vectors.length;
  const dots = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = vectors[i]!;
    for (let j = i + 1; j < n; j++) {
      const b = vectors[j]!;
      let dot = 0;
      for (let d = 0; d < a.length; d++) dot += a[d]! * b[d]!;
      dots[i * n + j] = dot;
      dots[j * n + i] = dot;
    }
  }
  const indices: number[][] = [];
  const distances: number[][] = [];
  const others = Array.from({ length: n }, (_, j) => j);
  for (let i = 0; i < n; i++) {
    const row = (j: number) => dots[i * n + j]!;
    const near = others
      .filter((j) => j !== i)
      .sort((a, b) => row(b) - row(a) || a - b)
      .slice(0, k - 1);
    indices.push([i, ...near]);
    distances.push([0, ...near.map((j) => Math.max(0, 1 - row(j)))]);
  }
  return { indices, distances };
}
