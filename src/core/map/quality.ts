/**
 * How well a map keeps neighbours: for each point, the share of its `kMap` nearest on the map
 * that are among its `kVectors` nearest in the vector space, averaged. A random placement gives
 * kVectors / (n - 1) on average; the test and the bench print both.
 */
import type { Position } from './regions.ts';

/** The `k` nearest points of each point on the map (itself excluded), ties to the lower index. */
export function mapNeighbours(points: readonly Position[], k: number): number[][] {
  return points.map((p, i) =>
    points
      .map((q, j) => ({ j, d: (p.x - q.x) ** 2 + (p.y - q.y) ** 2 }))
      .filter((e) => e.j !== i)
      .sort((a, b) => a.d - b.d || a.j - b.j)
      .slice(0, k)
      .map((e) => e.j),
  );
}

/** `vectorNeighbours[i]`: point i's nearest in the vector space, itself excluded, at least `kVectors` of them. */
export function neighbourShare(
  points: readonly Position[],
  vectorNeighbours: readonly (readonly number[])[],
  kMap: number,
  kVectors: number,
): { share: number; chance: number } {
  const onMap = mapNeighbours(points, kMap);
  let total = 0;
  onMap.forEach((near, i) => {
    const inVectors = new Set(vectorNeighbours[i]!.slice(0, kVectors));
    total += near.filter((j) => inVectors.has(j)).length / near.length;
  });
  return { share: total / points.length, chance: kVectors / (points.length - 1) };
}
