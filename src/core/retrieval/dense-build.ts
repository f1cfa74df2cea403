/** Builds a DenseIndex from float rows: L2-normalise, mean, int8 scales and rows, sign codes. */
import type { ChunkTable } from './chunk-table.ts';
import { DenseIndex } from './dense.ts';
import { codeWords, encodeSignCode } from './hamming.ts';

export interface DenseBuildOptions {
  model: string;
  dim: number;
  /** Keep the float32 rows in the index (exact search, float rescoring). Default true. */
  keepFloat32?: boolean;
  /** Store int8 rows. Default true. */
  keepInt8?: boolean;
  /** Rows are already unit length (skip normalising). Default false. */
  normalized?: boolean;
}

/** `rows` holds chunk i's vector at [i * dim, (i + 1) * dim), chunks in chunk-table order. */
export function buildDenseIndex(rows: Float32Array, chunks: ChunkTable, options: DenseBuildOptions): DenseIndex {
  const { dim, model } = options;
  if (!Number.isInteger(dim) || dim <= 0 || dim > 65535)
    throw new Error(`dim must be an integer in 1..65535, got ${dim}`);
  if (rows.length % dim !== 0) throw new Error(`rows length ${rows.length} is not a multiple of dim ${dim}`);
  const count = rows.length / dim;
  const float32 = options.normalized ? rows : new Float32Array(rows.length);
  if (!options.normalized) {
    for (let r = 0; r < count; r++) {
      const o = r * dim;
      let sum = 0;
      for (let d = 0; d < dim; d++) sum += rows[o + d]! * rows[o + d]!;
      const norm = Math.sqrt(sum);
      if (!Number.isFinite(norm)) throw new Error(`row ${r} has a non-finite value`);
      if (norm > 0) for (let d = 0; d < dim; d++) float32[o + d] = rows[o + d]! / norm;
    }
  }
  const meanSum = new Float64Array(dim);
  const maxAbs = new Float64Array(dim);
  for (let r = 0; r < count; r++) {
    const o = r * dim;
    for (let d = 0; d < dim; d++) {
      const v = float32[o + d]!;
      meanSum[d] = meanSum[d]! + v;
      const a = Math.abs(v);
      if (a > maxAbs[d]!) maxAbs[d] = a;
    }
  }
  const mean = new Float32Array(dim);
  const scales = new Float32Array(dim);
  for (let d = 0; d < dim; d++) {
    mean[d] = count > 0 ? meanSum[d]! / count : 0;
    scales[d] = maxAbs[d]! / 127;
  }
  let int8: Int8Array | null = null;
  if (options.keepInt8 ?? true) {
    int8 = new Int8Array(count * dim);
    for (let r = 0; r < count; r++) {
      const o = r * dim;
      for (let d = 0; d < dim; d++) {
        const s = scales[d]!;
        const q = s > 0 ? Math.round(float32[o + d]! / s) : 0;
        int8[o + d] = q > 127 ? 127 : q < -127 ? -127 : q;
      }
    }
  }
  const words = codeWords(dim);
  const codes = new Uint32Array(count * words);
  for (let r = 0; r < count; r++) encodeSignCode(float32, r * dim, mean, codes, r * words);
  return new DenseIndex(
    { model, dim, count, mean, scales, codes, int8, float32: (options.keepFloat32 ?? true) ? float32 : null },
    chunks,
  );
}
