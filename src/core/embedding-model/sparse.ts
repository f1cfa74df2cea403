/** Compressed sparse rows and the two products the truncated SVD needs (dense sides row-major). */
export interface CsrMatrix {
  rows: number;
  cols: number;
  /** rowStart[i]..rowStart[i + 1] index colIndex/values of row i. */
  rowStart: Uint32Array;
  colIndex: Uint32Array;
  values: Float64Array;
}

/** Y = A X with X (A.cols x width) and Y (A.rows x width), both row-major. */
export function multiply(a: CsrMatrix, x: Float64Array, width: number): Float64Array {
  const y = new Float64Array(a.rows * width);
  for (let i = 0; i < a.rows; i++) {
    const yo = i * width;
    for (let k = a.rowStart[i]!; k < a.rowStart[i + 1]!; k++) {
      const v = a.values[k]!;
      const xo = a.colIndex[k]! * width;
      for (let c = 0; c < width; c++) y[yo + c] = y[yo + c]! + v * x[xo + c]!;
    }
  }
  return y;
}

/** Y = A^T X with X (A.rows x width) and Y (A.cols x width), both row-major. */
export function multiplyTransposed(a: CsrMatrix, x: Float64Array, width: number): Float64Array {
  const y = new Float64Array(a.cols * width);
  for (let i = 0; i < a.rows; i++) {
    const xo = i * width;
    for (let k = a.rowStart[i]!; k < a.rowStart[i + 1]!; k++) {
      const v = a.values[k]!;
      const yo = a.colIndex[k]! * width;
      for (let c = 0; c < width; c++) y[yo + c] = y[yo + c]! + v * x[xo + c]!;
    }
  }
  return y;
}

/** A CSR matrix from dense row-major values (zeros dropped); for tests and tiny inputs. */
export function csrFromDense(values: readonly (readonly number[])[]): CsrMatrix {
  const rows = values.length;
  const cols = values[0]?.length ?? 0;
  const rowStart = new Uint32Array(rows + 1);
  const colIndex: number[] = [];
  const nonZero: number[] = [];
  values.forEach((row, i) => {
    if (row.length !== cols) throw new Error(`row ${i} has ${row.length} values, expected ${cols}`);
    row.forEach((v, j) => {
      if (v !== 0) {
        colIndex.push(j);
        nonZero.push(v);
      }
    });
    rowStart[i + 1] = colIndex.length;
  });
  return { rows, cols, rowStart, colIndex: Uint32Array.from(colIndex), values: Float64Array.from(nonZero) };
}
