import { describe, expect, it } from 'vitest';
import {
  orthonormalColumns,
  symmetricEigen,
  times,
  transposeTimes,
} from '../../../../src/core/embedding-model/dense-linalg.ts';
import { createPrng } from '../../../../src/core/embedding-model/prng.ts';
import { csrFromDense } from '../../../../src/core/embedding-model/sparse.ts';
import { truncatedSvd } from '../../../../src/core/embedding-model/truncated-svd.ts';

function randomMatrix(rows: number, cols: number, seed: number): Float64Array {
  const prng = createPrng(seed);
  return Float64Array.from({ length: rows * cols }, () => prng.gaussian());
}

describe('orthonormalColumns', () => {
  it('returns orthonormal columns spanning the input', () => {
    const m = randomMatrix(7, 3, 1);
    const q = orthonormalColumns(m, 7, 3);
    const gram = transposeTimes(q, q, 7, 3, 3);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(gram[i * 3 + j]).toBeCloseTo(i === j ? 1 : 0, 12);
    const projected = times(q, transposeTimes(q, m, 7, 3, 3), 7, 3, 3); // Q Q^T M = M
    for (let i = 0; i < m.length; i++) expect(projected[i]).toBeCloseTo(m[i]!, 10);
  });

  it('turns a dependent column into zeros', () => {
    const m = Float64Array.from([1, 2, 2, 4, 3, 6]); // 3 x 2, column 2 = 2 * column 1
    const q = orthonormalColumns(m, 3, 2);
    expect([q[1], q[3], q[5]]).toEqual([0, 0, 0]);
    expect(Math.hypot(q[0]!, q[2]!, q[4]!)).toBeCloseTo(1, 12);
  });
});

describe('symmetricEigen', () => {
  it('finds the eigenvalues 3 and 1 of [[2,1],[1,2]]', () => {
    const { values, vectors } = symmetricEigen(Float64Array.from([2, 1, 1, 2]), 2);
    expect(values[0]).toBeCloseTo(3, 12);
    expect(values[1]).toBeCloseTo(1, 12);
    expect(Math.abs(vectors[0]!)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(vectors[0]! * vectors[2]!).toBeGreaterThan(0); // (1, 1) direction for 3
  });

  it('satisfies A V = V diag(values) on a random symmetric matrix', () => {
    const n = 6;
    const r = randomMatrix(n, n, 2);
    const a = transposeTimes(r, r, n, n, n);
    const { values, vectors } = symmetricEigen(a, n);
    const av = times(a, vectors, n, n, n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) expect(av[i * n + j]).toBeCloseTo(vectors[i * n + j]! * values[j]!, 9);
    for (let j = 1; j < n; j++) expect(values[j - 1]!).toBeGreaterThanOrEqual(values[j]!);
  });
});

describe('truncatedSvd', () => {
  it('recovers the singular values 3, 2, 1 of a diagonal matrix with a sign flip', () => {
    const a = csrFromDense([
      [0, 0, 1],
      [3, 0, 0],
      [0, -2, 0],
      [0, 0, 0],
    ]);
    const svd = truncatedSvd(a, { rank: 3, oversample: 2, seed: 5 });
    expect(Array.from(svd.singularValues).map((s) => Number(s.toFixed(10)))).toEqual([3, 2, 1]);
    expect(svd.u[1 * 3 + 0]).toBeCloseTo(1, 10); // first left vector is e_1 (row of the 3)
  });

  it('recovers the top singular values of U diag(5, 3, 1) V^T', () => {
    // Rotations make U and V non-trivial orthogonal matrices with known singular values.
    const c = Math.cos(0.4);
    const s = Math.sin(0.4);
    const u = Float64Array.from([c, -s, 0, s, c, 0, 0, 0, 1]);
    const v = Float64Array.from([1, 0, 0, 0, c, -s, 0, s, c]);
    const us = Float64Array.from(u.map((x, i) => x * [5, 3, 1][i % 3]!));
    const m = times(us, Float64Array.from([v[0]!, v[3]!, v[6]!, v[1]!, v[4]!, v[7]!, v[2]!, v[5]!, v[8]!]), 3, 3, 3);
    const rows = [0, 1, 2].map((i) => [m[i * 3]!, m[i * 3 + 1]!, m[i * 3 + 2]!]);
    const svd = truncatedSvd(csrFromDense(rows), { rank: 2, oversample: 1, powerIterations: 2, seed: 9 });
    expect(svd.singularValues[0]).toBeCloseTo(5, 10);
    expect(svd.singularValues[1]).toBeCloseTo(3, 10);
    expect(Math.abs(svd.u[0]!)).toBeCloseTo(c, 10); // first left singular vector = first column of U (up to sign)
    expect(Math.abs(svd.u[2]!)).toBeCloseTo(s, 10);
  });

  it('is deterministic for a seed', () => {
    const dense = [0, 1, 2, 3, 4].map((i) => [0, 1, 2, 3, 4, 5].map((j) => Math.sin(i * 6 + j)));
    const a = truncatedSvd(csrFromDense(dense), { rank: 2, seed: 3 });
    const b = truncatedSvd(csrFromDense(dense), { rank: 2, seed: 3 });
    expect(Array.from(a.u)).toEqual(Array.from(b.u));
  });
});
