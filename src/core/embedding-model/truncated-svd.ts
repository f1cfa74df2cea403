/**
 * Rank-k truncated SVD of a sparse matrix by the randomized range finder with power iterations
 * (Halko, Martinsson & Tropp 2011): Q spans A's dominant column space, then the small Gram
 * matrix (A^T Q)^T (A^T Q) = Q^T A A^T Q is diagonalised by Jacobi.
 */
import { orthonormalColumns, symmetricEigen, times, transposeTimes } from './dense-linalg.ts';
import { createPrng } from './prng.ts';
import { type CsrMatrix, multiply, multiplyTransposed } from './sparse.ts';

export interface SvdOptions {
  rank: number;
  oversample?: number;
  powerIterations?: number;
  seed?: number;
}

export interface TruncatedSvd {
  rank: number;
  /** Descending singular values. */
  singularValues: Float64Array;
  /** Left singular vectors, row-major (A.rows x rank). */
  u: Float64Array;
}

export function truncatedSvd(a: CsrMatrix, options: SvdOptions): TruncatedSvd {
  const rank = options.rank;
  const width = Math.min(rank + (options.oversample ?? 10), a.rows, a.cols);
  if (rank > width) throw new Error(`rank ${rank} exceeds the matrix size ${a.rows} x ${a.cols}`);
  const prng = createPrng(options.seed ?? 1);
  const omega = new Float64Array(a.cols * width);
  for (let i = 0; i < omega.length; i++) omega[i] = prng.gaussian();
  let q = orthonormalColumns(multiply(a, omega, width), a.rows, width);
  for (let it = 0; it < (options.powerIterations ?? 3); it++) {
    const z = orthonormalColumns(multiplyTransposed(a, q, width), a.cols, width);
    q = orthonormalColumns(multiply(a, z, width), a.rows, width);
  }
  const z = multiplyTransposed(a, q, width); // (cols x width) = (Q^T A)^T
  const gram = transposeTimes(z, z, a.cols, width, width);
  const eigen = symmetricEigen(gram, width);
  const uAll = times(q, eigen.vectors, a.rows, width, width);
  const singularValues = new Float64Array(rank);
  const u = new Float64Array(a.rows * rank);
  for (let j = 0; j < rank; j++) {
    singularValues[j] = Math.sqrt(Math.max(0, eigen.values[j]!));
    // Fix the sign (largest-magnitude entry positive) so the result does not depend on rotations.
    let best = 0;
    for (let r = 0; r < a.rows; r++) if (Math.abs(uAll[r * width + j]!) > Math.abs(best)) best = uAll[r * width + j]!;
    const sign = best < 0 ? -1 : 1;
    for (let r = 0; r < a.rows; r++) u[r * rank + j] = sign * uAll[r * width + j]!;
  }
  return { rank, singularValues, u };
}
