/**
 * The plain-JS baselines of the browser bench, built from the same index files the search worker
 * loads: the naive BM25 scan, float32 brute force over every dense row, and their RRF fusion at
 * the depth the real hybrid uses. Pure TS (no Node imports): it runs on the bench page's main thread.
 */
import { DenseIndex } from '../../core/retrieval/dense.ts';
import { loadBm25 } from '../../core/retrieval/bm25-file.ts';
import { loadDense } from '../../core/retrieval/dense-file.ts';
import { rrfFuse } from '../../core/retrieval/hybrid.ts';
import type { RankedDoc } from '../../core/retrieval/types.ts';
import { NaiveBm25 } from './naive-bm25.ts';

/**
 * The index with float32 rows for exact search. A file without them (the full-scale bench
 * stores int8 only) gets its int8 rows dequantised with the per-dimension scales, which is
 * what the fast path rescores with too.
 */
export function withFloat32Rows(index: DenseIndex): DenseIndex {
  const { data } = index;
  if (data.float32) return index;
  const q8 = data.int8;
  if (!q8) throw new Error('the dense index holds neither float32 nor int8 rows');
  const { dim, count, scales } = data;
  const rows = new Float32Array(count * dim);
  for (let r = 0; r < count; r++) {
    const o = r * dim;
    for (let d = 0; d < dim; d++) rows[o + d] = q8[o + d]! * scales[d]!;
  }
  return new DenseIndex({ ...data, int8: null, float32: rows }, index.chunks);
}

export class PlainJsBaselines {
  /** Where the float32 rows of the brute force come from. */
  readonly denseRows: 'float32 rows of the file' | 'int8 rows dequantised to float32';

  private constructor(
    private readonly naiveBm25: NaiveBm25,
    private readonly bruteForce: DenseIndex,
    fromInt8: boolean,
  ) {
    this.denseRows = fromInt8 ? 'int8 rows dequantised to float32' : 'float32 rows of the file';
  }

  /** Decodes the bench's bm25.bin and dense.bin (same decoders as the worker) and builds the baselines. */
  static fromFiles(bm25File: Uint8Array | ArrayBuffer, denseFile: Uint8Array | ArrayBuffer): PlainJsBaselines {
    const bm25 = loadBm25(bm25File);
    const dense = loadDense(denseFile, bm25.data.chunks);
    return new PlainJsBaselines(new NaiveBm25(bm25), withFloat32Rows(dense), dense.data.float32 === null);
  }

  bm25(query: string, k: number): RankedDoc[] {
    return this.naiveBm25.search(query, k);
  }

  dense(vector: Float32Array, k: number): RankedDoc[] {
    return this.bruteForce.searchDocs(vector, k, { exact: true });
  }

  /** As the worker's hybrid: each list asked for 2k documents, BM25 first, fused with RRF. */
  hybrid(query: string, vector: Float32Array, k: number): RankedDoc[] {
    return rrfFuse([this.bm25(query, 2 * k), this.dense(vector, 2 * k)], k);
  }
}
