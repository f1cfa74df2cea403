import { describe, expect, it } from 'vitest';
import type { ChunkTable } from '../../../../src/core/retrieval/chunk-table.ts';
import { aggregateChunksToDocs, chunkDepthForDocs, DenseRetriever } from '../../../../src/core/retrieval/dense.ts';
import { buildDenseIndex } from '../../../../src/core/retrieval/dense-build.ts';
import { loadDense, serializeDense } from '../../../../src/core/retrieval/dense-file.ts';
import { popcount32 } from '../../../../src/core/retrieval/hamming.ts';
import { hammingModuleBytes, WasmHammingScan, wasmScanFits } from '../../../../src/core/retrieval/hamming-wasm.ts';
import { clusteredVectors } from './synthetic.ts';

const DIM = 384;
const COUNT = 4000;
const { rows, queries } = clusteredVectors(7, COUNT, DIM, 60, 100);
/** Three chunks per document. */
const table: ChunkTable = {
  chunkIds: Array.from({ length: COUNT }, (_, i) => `c${i}`),
  docIds: Array.from({ length: Math.ceil(COUNT / 3) }, (_, d) => `d${d}`),
  chunkDoc: Uint32Array.from({ length: COUNT }, (_, i) => Math.floor(i / 3)),
};
const index = buildDenseIndex(rows, table, { model: 'synthetic-384', dim: DIM });

function naiveTop(query: Float32Array, k: number): { chunk: number; score: number }[] {
  const all: { chunk: number; score: number }[] = [];
  for (let r = 0; r < COUNT; r++) {
    let s = 0;
    for (let d = 0; d < DIM; d++) s += query[d]! * rows[r * DIM + d]!;
    all.push({ chunk: r, score: s });
  }
  return all.sort((a, b) => b.score - a.score || a.chunk - b.chunk).slice(0, k);
}

function recallAt20(approx: number[], exact: number[]): number {
  const set = new Set(exact);
  return approx.filter((c) => set.has(c)).length / exact.length;
}

describe('dense index', () => {
  it('popcount32 counts bits', () => {
    expect([0, 1, 0xff, 0x80000000, 0xffffffff, 0x12345678].map(popcount32)).toEqual([0, 1, 8, 1, 32, 13]);
  });

  it('exact search equals a naive dot product', () => {
    for (const q of queries.slice(0, 20)) {
      const got = index.exactChunks(q, 20);
      const want = naiveTop(q, 20);
      expect(got.chunks).toEqual(want.map((w) => w.chunk));
      got.scores.forEach((s, i) => expect(s).toBeCloseTo(want[i]!.score, 6));
    }
  });

  it('binary scan + rescore keeps recall@20 >= 0.95 against exact float (int8 and float32 rows)', () => {
    let recallInt8 = 0;
    let recallFloat = 0;
    for (const q of queries) {
      const exact = index.exactChunks(q, 20).chunks;
      recallInt8 += recallAt20(index.searchChunks(q, 20, { rows: 'int8' }).chunks, exact);
      recallFloat += recallAt20(index.searchChunks(q, 20, { rows: 'float32' }).chunks, exact);
    }
    expect(recallInt8 / queries.length).toBeGreaterThanOrEqual(0.95);
    expect(recallFloat / queries.length).toBeGreaterThanOrEqual(0.95);
  });

  it('Hamming alone is worse than with rescoring (the rescore does something)', () => {
    let tiny = 0;
    let full = 0;
    for (const q of queries.slice(0, 30)) {
      const exact = index.exactChunks(q, 20).chunks;
      tiny += recallAt20(index.searchChunks(q, 20, { rescore: 20 }).chunks, exact);
      full += recallAt20(index.searchChunks(q, 20, { rescore: COUNT }).chunks, exact);
    }
    expect(full / 30).toBe(1);
    expect(tiny).toBeLessThan(full);
  });

  it('aggregates the top max(8k, 64) chunks to documents, best chunk first', () => {
    expect(chunkDepthForDocs(5)).toBe(64);
    expect(chunkDepthForDocs(20)).toBe(160);
    const q = queries[0]!;
    const docs = index.searchDocs(q, 10, { exact: true });
    const top = naiveTop(q, 80);
    const seen = new Map<string, number>();
    for (const t of top) {
      const d = `d${Math.floor(t.chunk / 3)}`;
      if (!seen.has(d)) seen.set(d, t.score);
    }
    expect(docs.map((d) => d.doc_id)).toEqual([...seen.keys()].slice(0, 10));
  });

  it('floors document scores at 0.0 and keeps first-appearance order for ties', () => {
    const docs = aggregateChunksToDocs({ chunks: [0, 3, 1, 6], scores: [0.5, -0.1, -0.2, -0.3] }, table, 10);
    expect(docs).toEqual([
      { doc_id: 'd0', score: 0.5, chunk_id: 'c0' },
      { doc_id: 'd1', score: 0, chunk_id: 'c3' },
      { doc_id: 'd2', score: 0, chunk_id: 'c6' },
    ]);
  });

  it('round-trips through its file and refuses another chunk table', () => {
    const bytes = serializeDense(index);
    const loaded = loadDense(bytes.slice().buffer, table);
    expect(loaded.data.model).toBe('synthetic-384');
    expect(loaded.data.float32).toBeNull();
    for (const q of queries.slice(0, 10)) {
      expect(loaded.searchChunks(q, 20)).toEqual(index.searchChunks(q, 20, { rows: 'int8' }));
    }
    const withFloat = loadDense(serializeDense(index, { includeFloat32: true }), table);
    expect(withFloat.exactChunks(queries[0]!, 5)).toEqual(index.exactChunks(queries[0]!, 5));
    const other = { ...table, chunkIds: table.chunkIds.map((c) => `${c}x`) };
    expect(() => loadDense(bytes, other)).toThrow(/built for chunk table/);
  });

  it('serves text queries through an embedder', async () => {
    const retriever = new DenseRetriever(index, () => queries[3]!.map((x) => x * 3));
    // The embedder's vector is re-normalised, so only float rounding may differ.
    const got = await retriever.search('anything', 5);
    const want = index.searchDocs(queries[3]!, 5);
    expect(got.map((d) => d.doc_id)).toEqual(want.map((d) => d.doc_id));
    got.forEach((d, i) => expect(d.score).toBeCloseTo(want[i]!.score, 6));
  });
});

describe('Hamming scan in WebAssembly SIMD', () => {
  it('assembles a valid module (Node and Chromium both have SIMD)', () => {
    expect(WebAssembly.validate(hammingModuleBytes())).toBe(true);
    expect(wasmScanFits(12)).toBe(true);
    expect(wasmScanFits(8)).toBe(true);
    expect(wasmScanFits(6)).toBe(false);
    expect(wasmScanFits(128)).toBe(false);
  });

  for (const words of [4, 8, 12, 124]) {
    it(`gives every row's popcount distance like the JS path (${words * 32} bits)`, () => {
      const rowsN = 1001;
      let x = 12345 + words;
      const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
      const codes = Uint32Array.from({ length: rowsN * words }, next);
      const scan = WasmHammingScan.create(codes, words, rowsN)!;
      expect(scan).toBeDefined();
      for (let trial = 0; trial < 3; trial++) {
        const query = Uint32Array.from({ length: words }, next);
        const got = scan.distances(query);
        for (let r = 0; r < rowsN; r++) {
          let d = 0;
          for (let w = 0; w < words; w++) d += popcount32(codes[r * words + w]! ^ query[w]!);
          expect(got[r], `row ${r}`).toBe(d);
        }
      }
    });
  }

  it('picks the same candidates and ranks the same as the JS scan', () => {
    for (const q of queries.slice(0, 40)) {
      expect(index.searchChunks(q, 20)).toEqual(index.searchChunks(q, 20, { scan: 'js' }));
      expect(index.searchChunks(q, 100, { rescore: 150 })).toEqual(
        index.searchChunks(q, 100, { rescore: 150, scan: 'js' }),
      );
    }
  });
});
