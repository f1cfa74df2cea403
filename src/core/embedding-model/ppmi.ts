/**
 * Positive pointwise mutual information with context-distribution smoothing (Levy et al. 2015):
 * PPMI(w, c) = max(0, log(n(w,c) / (n(w) * P_alpha(c)))), P_alpha(c) = n(c)^alpha / sum n^alpha.
 */
import type { CsrMatrix } from './sparse.ts';

export function ppmi(counts: CsrMatrix, alpha = 0.75): CsrMatrix {
  const rowSum = new Float64Array(counts.rows);
  const colSum = new Float64Array(counts.cols);
  for (let i = 0; i < counts.rows; i++) {
    for (let k = counts.rowStart[i]!; k < counts.rowStart[i + 1]!; k++) {
      const v = counts.values[k]!;
      rowSum[i] = rowSum[i]! + v;
      const c = counts.colIndex[k]!;
      colSum[c] = colSum[c]! + v;
    }
  }
  let smoothedTotal = 0;
  for (let c = 0; c < counts.cols; c++) smoothedTotal += Math.pow(colSum[c]!, alpha);
  const rowStart = new Uint32Array(counts.rows + 1);
  const colIndex: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < counts.rows; i++) {
    for (let k = counts.rowStart[i]!; k < counts.rowStart[i + 1]!; k++) {
      const c = counts.colIndex[k]!;
      const contextProbability = Math.pow(colSum[c]!, alpha) / smoothedTotal;
      const pmi = Math.log(counts.values[k]! / (rowSum[i]! * contextProbability));
      if (pmi > 0) {
        colIndex.push(c);
        values.push(pmi);
      }
    }
    rowStart[i + 1] = colIndex.length;
  }
  return {
    rows: counts.rows,
    cols: counts.cols,
    rowStart,
    colIndex: Uint32Array.from(colIndex),
    values: Float64Array.from(values),
  };
}
