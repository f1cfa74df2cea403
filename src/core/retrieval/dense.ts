/**
 * Dense retrieval over chunk vectors of a named embedding model (vectors L2-normalised, so
 * cosine = dot product).
 *
 * Fast path: Hamming scan of sign(x - mean) codes, then the best `rescore` candidates (default
 * 200) rescored with a float dot product against the float32 rows when present, else the
 * int8 rows dequantised with per-dimension scales. Reference path: exact float32 brute force.
 *
 * Documents, as the benchmark does (docs/benchmark-spec.md section 3): the top max(8k, 64)
 * chunks are walked in rank order and doc score = max(previous or 0.0, chunk score), so scores
 * are floored at 0.0; documents are then sorted by score, descending, ties in order of first
 * appearance in the chunk ranking. Chunk ties rank by chunk index.
 */
import type { ChunkTable } from './chunk-table.ts';
import { codeWords, encodeSignCode, hammingCandidates, nearestByDistance } from './hamming.ts';
import { WasmHammingScan } from './hamming-wasm.ts';
import { selectTopK } from './top-k.ts';
import type { RankedDoc, Retriever } from './types.ts';

export const DEFAULT_RESCORE = 200;

export interface DenseData {
  /** Embedding model name (queries must be embedded with the same model). */
  model: string;
  dim: number;
  count: number;
  /** Corpus mean vector, the threshold of the sign codes. */
  mean: Float32Array;
  /** Per-dimension int8 scale: row value = int8 * scale. */
  scales: Float32Array;
  /** count * codeWords(dim) words of sign bits. */
  codes: Uint32Array;
  /** count * dim quantised rows, or null when not stored. */
  int8: Int8Array | null;
  /** count * dim float rows, or null when not stored. */
  float32: Float32Array | null;
}

export interface DenseSearchOptions {
  /** How many Hamming candidates to rescore (default 200; raised to the depth asked for). */
  rescore?: number;
  /** Which rows rescore the candidates (default float32 when present, else int8). */
  rows?: 'float32' | 'int8';
  /** How Hamming distances are computed: WebAssembly SIMD where available (default), or plain JS. */
  scan?: 'auto' | 'js';
}

export interface ChunkHits {
  /** Chunk indexes, best first. */
  chunks: number[];
  scores: number[];
}

export function l2Normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  const out = new Float32Array(vector.length);
  if (norm > 0) for (let i = 0; i < vector.length; i++) out[i] = vector[i]! / norm;
  return out;
}

/** Number of chunks the benchmark aggregates into a top-k document list. */
export function chunkDepthForDocs(k: number): number {
  return Math.max(8 * k, 64);
}

export class DenseIndex {
  readonly data: DenseData;
  readonly chunks: ChunkTable;
  private readonly words: number;
  private readonly scratchDist: Uint16Array;
  private readonly scratchScores: Float64Array;
  /** Built on the first fast search; null where WebAssembly SIMD is unavailable. */
  private wasmScan: WasmHammingScan | null | undefined;

  constructor(data: DenseData, chunks: ChunkTable) {
    if (chunks.chunkIds.length !== data.count) {
      throw new Error(`dense index has ${data.count} vectors but the chunk table has ${chunks.chunkIds.length} chunks`);
    }
    this.data = data;
    this.chunks = chunks;
    this.words = codeWords(data.dim);
    this.scratchDist = new Uint16Array(data.count);
    this.scratchScores = new Float64Array(data.count);
  }

  private checkQuery(query: Float32Array): void {
    if (query.length !== this.data.dim)
      throw new Error(`query vector has ${query.length} dims, index has ${this.data.dim}`);
  }

  /** Binary scan + rescore: the fast path. */
  searchChunks(query: Float32Array, k: number, options: DenseSearchOptions = {}): ChunkHits {
    this.checkQuery(query);
    const { dim, count, mean, codes } = this.data;
    const want = Math.min(count, Math.max(options.rescore ?? DEFAULT_RESCORE, k));
    const queryCode = new Uint32Array(this.words);
    encodeSignCode(query, 0, mean, queryCode, 0);
    if (this.wasmScan === undefined && options.scan !== 'js')
      this.wasmScan = WasmHammingScan.create(codes, this.words, count) ?? null;
    const candidates =
      this.wasmScan && options.scan !== 'js'
        ? nearestByDistance(this.wasmScan.distances(queryCode), this.words, want)
        : hammingCandidates(codes, this.words, queryCode, want, this.scratchDist);
    const scores = this.scratchScores;
    const rows = options.rows ?? (this.data.float32 ? 'float32' : 'int8');
    if (rows === 'float32') {
      const f = this.data.float32;
      if (!f) throw new Error('this dense index holds no float32 rows');
      for (const r of candidates) scores[r] = dotFloat(query, f, r * dim, dim);
    } else {
      const q8 = this.data.int8;
      if (!q8) throw new Error('this dense index holds no int8 rows');
      const scaled = new Float64Array(dim);
      for (let d = 0; d < dim; d++) scaled[d] = query[d]! * this.data.scales[d]!;
      for (const r of candidates) scores[r] = dotInt8(scaled, q8, r * dim, dim);
    }
    const top = selectTopK(candidates, candidates.length, scores, k);
    return { chunks: top, scores: top.map((c) => scores[c]!) };
  }

  /** Exact float32 brute force over every row: the reference path. */
  exactChunks(query: Float32Array, k: number): ChunkHits {
    this.checkQuery(query);
    const { dim, count } = this.data;
    const f = this.data.float32;
    if (!f) throw new Error('exact search needs the float32 rows');
    const scores = this.scratchScores;
    const all = new Uint32Array(count);
    for (let r = 0; r < count; r++) {
      all[r] = r;
      scores[r] = dotFloat(query, f, r * dim, dim);
    }
    const top = selectTopK(all, count, scores, k);
    return { chunks: top, scores: top.map((c) => scores[c]!) };
  }

  /** Top-k documents: fast path unless `exact`. */
  searchDocs(query: Float32Array, k: number, options: DenseSearchOptions & { exact?: boolean } = {}): RankedDoc[] {
    const depth = chunkDepthForDocs(k);
    const hits = options.exact ? this.exactChunks(query, depth) : this.searchChunks(query, depth, options);
    return aggregateChunksToDocs(hits, this.chunks, k);
  }
}

/** The benchmark's chunk -> document aggregation (see the module comment). */
export function aggregateChunksToDocs(hits: ChunkHits, chunks: ChunkTable, k: number): RankedDoc[] {
  const best = new Map<number, { score: number; chunk: number }>();
  hits.chunks.forEach((c, i) => {
    const d = chunks.chunkDoc[c]!;
    const s = hits.scores[i]!;
    const prev = best.get(d);
    const floor = prev ? prev.score : 0.0;
    if (!prev) best.set(d, { score: Math.max(floor, s), chunk: c });
    else if (s > floor) best.set(d, { score: s, chunk: c });
  });
  // Array.prototype.sort is stable: equal scores keep first-appearance order.
  const ranked = [...best.entries()].sort((a, b) => b[1].score - a[1].score);
  return ranked
    .slice(0, k)
    .map(([d, v]) => ({ doc_id: chunks.docIds[d]!, score: v.score, chunk_id: chunks.chunkIds[v.chunk]! }));
}

/** Float dot product, 4 accumulators (no SIMD in plain JS; this halves the dependency chain). */
export function dotFloat(query: Float32Array, rows: Float32Array, offset: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dim; d += 4) {
    s0 += query[d]! * rows[offset + d]!;
    s1 += query[d + 1]! * rows[offset + d + 1]!;
    s2 += query[d + 2]! * rows[offset + d + 2]!;
    s3 += query[d + 3]! * rows[offset + d + 3]!;
  }
  for (; d < dim; d++) s0 += query[d]! * rows[offset + d]!;
  return s0 + s1 + (s2 + s3);
}

function dotInt8(scaledQuery: Float64Array, rows: Int8Array, offset: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let d = 0;
  for (; d + 1 < dim; d += 2) {
    s0 += scaledQuery[d]! * rows[offset + d]!;
    s1 += scaledQuery[d + 1]! * rows[offset + d + 1]!;
  }
  for (; d < dim; d++) s0 += scaledQuery[d]! * rows[offset + d]!;
  return s0 + s1;
}

/** Dense retrieval from query text, given the query encoder of the index's model. */
export class DenseRetriever implements Retriever {
  constructor(
    private readonly index: DenseIndex,
    private readonly embed: (text: string) => Promise<Float32Array> | Float32Array,
    private readonly options: DenseSearchOptions = {},
  ) {}

  async search(query: string, k: number): Promise<RankedDoc[]> {
    const vector = await this.embed(query);
    return this.index.searchDocs(l2Normalize(vector), k, this.options);
  }
}
