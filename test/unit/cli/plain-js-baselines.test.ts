import { describe, expect, it } from 'vitest';
import { PlainJsBaselines, withFloat32Rows } from '../../../src/cli/bench/plain-js-baselines.ts';
import {
  buildBm25Index,
  buildDenseIndex,
  rrfFuse,
  serializeBm25,
  serializeDense,
  type ChunkInput,
} from '../../../src/core/retrieval/index.ts';
import { createPrng } from '../../../src/core/embedding-model/prng.ts';

const DIM = 16;
const words = ['ledger', 'flight', 'invoice', 'harbor', 'trust', 'memo', 'island', 'wire'];
const prng = createPrng(11);
const chunks: ChunkInput[] = Array.from({ length: 60 }, (_, i) => ({
  chunk_id: `c${i}`,
  doc_id: `d${Math.floor(i / 2)}`,
  text: Array.from({ length: 12 }, () => words[Math.floor(prng.next() * words.length)]).join(' '),
}));
const rows = Float32Array.from({ length: chunks.length * DIM }, () => prng.next() * 2 - 1);
const bm25 = buildBm25Index(chunks);

describe('plain-JS baselines of the browser bench', () => {
  it('dequantises int8 rows with the per-dimension scales', () => {
    const int8Only = buildDenseIndex(rows, bm25.data.chunks, { model: 'm', dim: DIM, keepFloat32: false });
    expect(int8Only.data.float32).toBeNull();
    const f = withFloat32Rows(int8Only).data.float32!;
    const { int8, scales } = int8Only.data;
    for (let i = 0; i < f.length; i++) expect(f[i]).toBeCloseTo(int8![i]! * scales[i % DIM]!, 6);
  });

  it('ranks like the indexed BM25, and hybrid fuses the two at depth 2k', () => {
    const dense = buildDenseIndex(rows, bm25.data.chunks, { model: 'm', dim: DIM });
    const baselines = PlainJsBaselines.fromFiles(serializeBm25(bm25), serializeDense(dense, { includeFloat32: true }));
    expect(baselines.denseRows).toBe('float32 rows of the file');
    for (const q of ['ledger wire', 'island harbor trust', 'memo']) {
      expect(baselines.bm25(q, 10).map((d) => d.doc_id)).toEqual(bm25.search(q, 10).map((d) => d.doc_id));
    }
    const v = Float32Array.from(rows.subarray(3 * DIM, 4 * DIM));
    expect(baselines.dense(v, 5)[0]!.doc_id).toBe('d1');
    const real = rrfFuse([bm25.search('ledger wire', 10), dense.searchDocs(v, 10, { exact: true })], 5);
    expect(baselines.hybrid('ledger wire', v, 5)).toEqual(real);
  });
});
