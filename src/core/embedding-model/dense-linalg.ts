/** Small dense linear algebra for the truncated SVD: Gram-Schmidt QR and Jacobi eigen-decomposition. */

/**
 * Orthonormal basis of the columns of a row-major (rows x cols) matrix, by modified Gram-Schmidt
 * applied twice (the second pass repairs the orthogonality lost to rounding). Columns that are
 * (numerically) dependent on earlier ones come back as zero columns.
 */
export function orthonormalColumns(matrix: Float64Array, rows: number, cols: number): Float64Array {
  const columns: Float64Array[] = [];
  for (let c = 0; c < cols; c++) {
    const col = new Float64Array(rows);
    for (let r = 0; r < rows; r++) col[r] = matrix[r * cols + c]!;
    const originalNorm = norm(col);
    for (let pass = 0; pass < 2; pass++) {
      for (const prev of columns) {
        const d = dot(prev, col);
        if (d !== 0) for (let r = 0; r < rows; r++) col[r] = col[r]! - d * prev[r]!;
      }
    }
    const n = norm(col);
    if (n > 1e-10 * originalNorm && n > 0) for (let r = 0; r < rows; r++) col[r] = col[r]! / n;
    else col.fill(0);
    columns.push(col);
  }
  const out = new Float64Array(rows * cols);
  columns.forEach((col, c) => {
    for (let r = 0; r < rows; r++) out[r * cols + c] = col[r]!;
  });
  return out;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function norm(a: Float64Array): number {
  return Math.sqrt(dot(a, a));
}

/** C = A^T B for row-major A (rows x m) and B (rows x n); C is (m x n). */
export function transposeTimes(a: Float64Array, b: Float64Array, rows: number, m: number, n: number): Float64Array {
  const c = new Float64Array(m * n);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < m; i++) {
      const v = a[r * m + i]!;
      if (v === 0) continue;
      const co = i * n;
      const bo = r * n;
      for (let j = 0; j < n; j++) c[co + j] = c[co + j]! + v * b[bo + j]!;
    }
  }
  return c;
}

/** C = A B for row-major A (rows x m) and B (m x n). */
export function times(a: Float64Array, b: Float64Array, rows: number, m: number, n: number): Float64Array {
  const c = new Float64Array(rows * n);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < m; i++) {
      const v = a[r * m + i]!;
      if (v === 0) continue;
      const bo = i * n;
      const co = r * n;
      for (let j = 0; j < n; j++) c[co + j] = c[co + j]! + v * b[bo + j]!;
    }
  }
  return c;
}

export interface Eigen {
  /** Descending. */
  values: Float64Array;
  /** Row-major (n x n); column j is the eigenvector of values[j]. */
  vectors: Float64Array;
}

/** Eigen-decomposition of a symmetric row-major (n x n) matrix by cyclic Jacobi rotations. */
export function symmetricEigen(matrix: Float64Array, n: number, maxSweeps = 100): Eigen {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let total = 0;
  for (let i = 0; i < n * n; i++) total += a[i]! * a[i]!;
  // Off-diagonal mass below (1e-12 of the norm)^2 is rounding noise; demanding less never converges.
  const tolerance = 1e-24 * total;
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! * a[p * n + q]!;
    if (off <= tolerance) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        const app = a[p * n + p]!;
        const aqq = a[q * n + q]!;
        if (Math.abs(apq) <= 1e-15 * Math.sqrt(Math.abs(app * aqq))) {
          a[p * n + q] = 0;
          a[q * n + p] = 0;
          continue;
        }
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y * n + y]! - a[x * n + x]! || x - y);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((from, to) => {
    values[to] = a[from * n + from]!;
    for (let k = 0; k < n; k++) vectors[k * n + to] = v[k * n + from]!;
  });
  return { values, vectors };
}
