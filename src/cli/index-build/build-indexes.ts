/**
 * Builds a release's retrieval indexes in memory: the BM25 file over every chunk of
 * chunks.parquet (row order = chunk index), and, given a transformers.js model folder, the
 * chunk vectors and the model manifest the search worker needs to embed queries the same way.
 */
import path from 'node:path';
import {
  buildBm25Index,
  buildDenseIndex,
  serializeBm25,
  serializeDense,
  type Bm25Index,
  type ChunkInput,
} from '../../core/retrieval/index.ts';
import {
  encoderInput,
  formatModelManifest,
  MODEL_MANIFEST_VERSION,
  type ModelManifest,
} from '../../core/search/index.ts';
import { embedTexts } from '../model/embed-node.ts';

export const INDEX_DIR = 'index';
export const INDEX_FILES = {
  bm25: `${INDEX_DIR}/bm25.bin`,
  dense: `${INDEX_DIR}/dense.bin`,
  model: `${INDEX_DIR}/model.json`,
};
/** The benchmark cuts chunk texts to 8,000 characters for the encoder. */
export const MAX_ENCODER_CHARS = 8000;
/** Float32 rows are kept (exact dense search) while they stay this small; larger releases keep int8 only. */
export const MAX_FLOAT32_BYTES = 8 * 1024 * 1024;

export interface ModelSpec {
  /** The model folder on disk (config.json, tokenizer files, onnx/). */
  dir: string;
  /** The same folder relative to the release root, as the browser will fetch it. */
  releasePath: string;
  dtype: 'fp32' | 'q8';
}

export interface BuiltIndexes {
  /** Release-relative path -> bytes. */
  files: Map<string, Uint8Array>;
  indexes: { bm25: string; dense?: string; model?: string };
  bm25: Bm25Index;
  timings: { readSeconds: number; bm25Seconds: number; embedSeconds?: number; denseSeconds?: number };
  chunks: number;
  dim?: number;
}

const seconds = (from: number): number => (performance.now() - from) / 1000;

export async function buildIndexes(chunks: readonly ChunkInput[], model?: ModelSpec): Promise<BuiltIndexes> {
  const files = new Map<string, Uint8Array>();
  let started = performance.now();
  const bm25 = buildBm25Index(chunks);
  files.set(INDEX_FILES.bm25, serializeBm25(bm25));
  const timings: BuiltIndexes['timings'] = { readSeconds: 0, bm25Seconds: seconds(started) };
  const built: BuiltIndexes = { files, indexes: { bm25: INDEX_FILES.bm25 }, bm25, timings, chunks: chunks.length };
  if (!model) return built;

  started = performance.now();
  const vectors = await embedTexts(
    model.dir,
    chunks.map((c) => encoderInput(c.text, MAX_ENCODER_CHARS)),
    { dtype: model.dtype },
  );
  timings.embedSeconds = seconds(started);
  started = performance.now();
  const dim = vectors[0]?.length ?? 0;
  if (dim === 0) throw new Error(`${model.dir}: the model gave no vectors`);
  const rows = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => rows.set(v, i * dim));
  const name = path.basename(path.resolve(model.dir));
  // Small releases keep float32 rows (exact search) and no int8 rows; large ones int8 only.
  const exact = rows.byteLength <= MAX_FLOAT32_BYTES;
  const dense = buildDenseIndex(rows, bm25.data.chunks, { model: name, dim, keepInt8: !exact });
  files.set(INDEX_FILES.dense, serializeDense(dense, { includeFloat32: exact }));
  timings.denseSeconds = seconds(started);
  const manifest: ModelManifest = {
    version: MODEL_MANIFEST_VERSION,
    kind: 'transformers.js',
    model: name,
    dim,
    path: model.releasePath,
    dtype: model.dtype,
    pooling: 'mean',
    normalize: true,
    max_chars: MAX_ENCODER_CHARS,
  };
  files.set(INDEX_FILES.model, new TextEncoder().encode(formatModelManifest(manifest)));
  built.indexes = { bm25: INDEX_FILES.bm25, dense: INDEX_FILES.dense, model: INDEX_FILES.model };
  built.dim = dim;
  return built;
}
