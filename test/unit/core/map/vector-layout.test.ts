import { describe, expect, it } from 'vitest';
import { computeMap } from '../../../../src/core/map/layout.ts';
import { neighbourShare } from '../../../../src/core/map/quality.ts';
import { vectorNeighbours } from '../../../../src/core/map/vector-neighbours.ts';
import { mulberry32 } from '../../../../src/core/random.ts';

/** Unit vectors around a few random centres, with each vector's cluster. */
function clustered(n: number, dim: number, clusters: number): { vectors: Float32Array[]; cluster: number[] } {
  const random = mulberry32(3);
  const unit = (v: Float32Array) => {
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  };
  const centres = Array.from({ length: clusters }, () =>
    unit(Float32Array.from({ length: dim }, () => random() - 0.5)),
  );
  const cluster = Array.from({ length: n }, (_, i) => i % clusters);
  const vectors = cluster.map((c) => unit(centres[c]!.map((x) => x + 0.15 * (random() - 0.5))));
  return { vectors, cluster };
}

describe('a map placed by vectors', () => {
  it('takes the exact cosine neighbours, each row itself first', () => {
    const v = [
      [1, 0],
      [0.8, 0.6],
      [0, 1],
      [-1, 0],
    ].map((r) => Float32Array.from(r));
    const { indices, distances } = vectorNeighbours(v, 3);
    expect(indices[0]).toEqual([0, 1, 2]);
    expect(indices[3]).toEqual([3, 2, 1]);
    expect(distances[0]![1]).toBeCloseTo(0.2, 6);
    expect(distances[0]![2]).toBeCloseTo(1, 6);
  });

  it("keeps the vectors' neighbourhoods: 10 nearest on the map among the 10 nearest vectors, ≥ 8× chance", () => {
    const { vectors } = clustered(200, 32, 8);
    const inputs = vectors.map((_, i) => ({ id: `t${i}`, text: `question ${i % 8} about topic${i % 8}` }));
    const map = computeMap(inputs, { vectors });
    const near = vectorNeighbours(vectors, 11).indices.map((r) => r.slice(1));
    const kept = neighbourShare(map.points, near, 10, 10);
    expect(kept.share / kept.chance).toBeGreaterThanOrEqual(8);
  });

  it('gives the same map for the same vectors, and refuses a count that does not match', () => {
    const { vectors } = clustered(40, 16, 4);
    const inputs = vectors.map((_, i) => ({ id: `t${i}`, text: `q${i}` }));
    expect(computeMap(inputs, { vectors })).toEqual(computeMap(inputs, { vectors }));
    expect(() => computeMap(inputs, { vectors: vectors.slice(1) })).toThrow('39 vectors for 40 points');
  });
});
