/**
 * Embeds texts in Node exactly as the browser's search worker does with transformers.js
 * (feature-extraction, mean pooling, L2 normalisation), from the model folder's files alone:
 * the release models are static tables, which PipelineEmbedder reproduces bit for bit, so the
 * CLI needs no onnxruntime.
 */
import { MAX_RELEASE_FILE_BYTES, readRegularFile } from '../../adapters/node/regular-file.ts';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import { PipelineEmbedder, type StaticTable } from '../../core/embedding-model/pipeline-embedder.ts';
import { denseInputText } from './build-model.ts';
import { readChunks } from './read-chunks.ts';

export type ModelDtype = 'fp32' | 'q8';

export interface EmbedOptions {
  /** 'fp32' reads onnx/model.onnx, 'q8' onnx/model_quantized.onnx. Default 'fp32'. */
  dtype?: ModelDtype;
}

const embedders = new Map<string, Promise<PipelineEmbedder>>();

type Initializer = { name?: string | null; rawData?: Uint8Array | null; dims?: unknown[] | null };

function initializer(inits: readonly Initializer[], name: string, file: string): Uint8Array {
  const found = inits.find((t) => t.name === name)?.rawData;
  if (!found) throw new Error(`${file}: no ${name} initializer (not a static-embedding model)`);
  return found;
}

function copyAs<T extends Float32Array | Int8Array>(raw: Uint8Array, make: (b: ArrayBuffer) => T): T {
  return make(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) as ArrayBuffer);
}

/** The model folder's vocab, width, truncation and row table. */
async function loadModel(modelDir: string, dtype: ModelDtype): Promise<PipelineEmbedder> {
  const read = async (rel: string) =>
    Buffer.from(await readRegularFile(path.join(modelDir, rel), MAX_RELEASE_FILE_BYTES));
  const tokenizer = JSON.parse((await read('tokenizer.json')).toString('utf8')) as {
    model?: { type?: string; vocab?: Record<string, number> };
  };
  if (tokenizer.model?.type !== 'WordPiece' || !tokenizer.model.vocab)
    throw new Error(`${modelDir}/tokenizer.json: expected a WordPiece vocabulary`);
  const vocab: string[] = [];
  for (const [token, id] of Object.entries(tokenizer.model.vocab)) vocab[id] = token;
  const config = JSON.parse((await read('config.json')).toString('utf8')) as { hidden_size?: number };
  const tokenizerConfig = JSON.parse((await read('tokenizer_config.json')).toString('utf8')) as {
    model_max_length?: number;
  };
  const dim = config.hidden_size;
  if (typeof dim !== 'number') throw new Error(`${modelDir}/config.json: no hidden_size`);
  const file = dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
  const graph = onnxProto.onnx.ModelProto.decode(await read(file)).graph;
  const inits = (graph?.initializer ?? []) as Initializer[];
  const where = path.join(modelDir, file);
  const table: StaticTable =
    dtype === 'q8'
      ? {
          kind: 'q8',
          rows: copyAs(initializer(inits, 'embeddings_int8', where), (b) => new Int8Array(b)),
          scales: copyAs(initializer(inits, 'row_scales', where), (b) => new Float32Array(b)),
        }
      : { kind: 'fp32', rows: copyAs(initializer(inits, 'embeddings', where), (b) => new Float32Array(b)) };
  return new PipelineEmbedder({
    vocab,
    dim,
    table,
    ...(tokenizerConfig.model_max_length !== undefined ? { maxLength: tokenizerConfig.model_max_length } : {}),
  });
}

function embedderFor(modelDir: string, dtype: ModelDtype): Promise<PipelineEmbedder> {
  const key = `${path.resolve(modelDir)}\0${dtype}`;
  let loading = embedders.get(key);
  if (!loading) {
    loading = loadModel(path.resolve(modelDir), dtype);
    embedders.set(key, loading);
  }
  return loading;
}

/**
 * One unit vector per text. A text without any known token (e.g. ' ') has no direction: it comes
 * back as a zero vector instead of transformers.js's 0/0 NaNs.
 */
export async function embedTexts(
  modelDir: string,
  texts: readonly string[],
  options: EmbedOptions = {},
): Promise<Float32Array[]> {
  const embedder = await embedderFor(modelDir, options.dtype ?? 'fp32');
  return texts.map((t) => embedder.embed(t));
}

export interface ChunkVectors {
  /** Chunk ids in chunks.parquet order. */
  ids: string[];
  docIds: string[];
  dim: number;
  /** Row-major (ids.length x dim), each row unit length (or zero for a text without known tokens). */
  vectors: Float32Array;
}

export async function embedChunks(
  releaseDir: string,
  modelDir: string,
  options: EmbedOptions = {},
): Promise<ChunkVectors> {
  const chunks = await readChunks(releaseDir);
  const rows = await embedTexts(
    modelDir,
    chunks.map((c) => denseInputText(c.text)),
    options,
  );
  const dim = rows[0]?.length ?? 0;
  const vectors = new Float32Array(rows.length * dim);
  rows.forEach((row, i) => vectors.set(row, i * dim));
  return { ids: chunks.map((c) => c.chunk_id), docIds: chunks.map((c) => c.doc_id), dim, vectors };
}
