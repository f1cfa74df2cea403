/**
 * Embeds texts in Node exactly as the browser's search worker does: transformers.js
 * feature-extraction with mean pooling and L2 normalisation, local files only.
 */
import path from 'node:path';
import { type FeatureExtractionPipeline, env, pipeline } from '@huggingface/transformers';
import { denseInputText } from './build-model.ts';
import { readChunks } from './read-chunks.ts';

export type ModelDtype = 'fp32' | 'q8';

export interface EmbedOptions {
  /** 'fp32' loads onnx/model.onnx, 'q8' onnx/model_quantized.onnx. Default 'fp32'. */
  dtype?: ModelDtype;
  batchSize?: number;
}

const pipelines = new Map<string, Promise<FeatureExtractionPipeline>>();

function extractor(modelDir: string, dtype: ModelDtype): Promise<FeatureExtractionPipeline> {
  const absolute = path.resolve(modelDir);
  const key = `${absolute}\0${dtype}`;
  let loading = pipelines.get(key);
  if (!loading) {
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = path.dirname(absolute) + path.sep;
    loading = pipeline('feature-extraction', path.basename(absolute), { dtype, device: 'cpu' });
    pipelines.set(key, loading);
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
  const fe = await extractor(modelDir, options.dtype ?? 'fp32');
  const batchSize = options.batchSize ?? 64;
  // Similar lengths per batch keep padding small; the output keeps the input order.
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
  const out: Float32Array[] = new Array<Float32Array>(texts.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const batch = order.slice(start, start + batchSize);
    const tensor = await fe(
      batch.map((i) => texts[i]!),
      { pooling: 'mean', normalize: true },
    );
    const dim = tensor.dims[1]!;
    const data = tensor.data as Float32Array;
    batch.forEach((textIndex, row) => {
      const vector = data.slice(row * dim, (row + 1) * dim);
      if (!vector.every(Number.isFinite)) vector.fill(0);
      out[textIndex] = vector;
    });
    tensor.dispose();
  }
  return out;
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
