/**
 * Trains the sample's static-embedding model from chunks.parquet and writes it as a
 * transformers.js feature-extraction model folder (config.json, tokenizer files, onnx/model.onnx,
 * onnx/model_quantized.onnx, training.json). Same corpus and options -> same bytes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_TRAIN_OPTIONS,
  type StaticEmbeddings,
  type TrainOptions,
  trainStaticEmbeddings,
} from '../../core/embedding-model/train.ts';
import { fp32ModelBytes, q8ModelBytes } from './onnx-model.ts';
import { readChunks } from './read-chunks.ts';
import { modelConfigJson, tokenizerConfigJson, tokenizerJson } from './tokenizer-files.ts';

export const SAMPLE_MODEL_NAME = 'sample-static';
export const SAMPLE_MODEL_DIM = 256;

export interface BuildModelOptions {
  train?: Partial<TrainOptions>;
}

export interface BuiltModel {
  outDir: string;
  vocabSize: number;
  dim: number;
  /** File path relative to outDir -> size in bytes. */
  files: Record<string, number>;
  stats: { chunks: number; tokens: number; cooccurrenceNonZeros: number; ppmiNonZeros: number };
}

/** Chunk text as the dense retriever sees it: at most 8,000 characters (code points), never empty. */
export function denseInputText(text: string): string {
  const truncated = text.length > 8000 ? Array.from(text).slice(0, 8000).join('') : text;
  return truncated === '' ? ' ' : truncated;
}

/** A trained model with what its training.json records. */
export interface TrainedSampleModel {
  embeddings: StaticEmbeddings;
  options: TrainOptions;
  chunks: number;
}

/** Trains on chunk texts in chunks.parquet row order (as the dense retriever sees them). */
export function trainSampleModel(chunkTexts: readonly string[], train: Partial<TrainOptions> = {}): TrainedSampleModel {
  const options: TrainOptions = { ...DEFAULT_TRAIN_OPTIONS, ...train };
  const embeddings = trainStaticEmbeddings(
    chunkTexts.map((t) => denseInputText(t)),
    options,
  );
  return { embeddings, options, chunks: chunkTexts.length };
}

export async function buildSampleModel(
  releaseDir: string,
  outDir: string,
  opts: BuildModelOptions = {},
): Promise<BuiltModel> {
  const chunks = await readChunks(releaseDir);
  return writeSampleModel(
    trainSampleModel(
      chunks.map((c) => c.text),
      opts.train,
    ),
    outDir,
  );
}

export async function writeSampleModel(trained: TrainedSampleModel, outDir: string): Promise<BuiltModel> {
  const { embeddings: model, options } = trained;
  const vocabSize = model.vocab.length;
  const outputs: [string, Uint8Array][] = [
    ['config.json', json(modelConfigJson(vocabSize, model.dim))],
    ['tokenizer.json', json(tokenizerJson(model.vocab))],
    ['tokenizer_config.json', json(tokenizerConfigJson())],
    ['onnx/model.onnx', fp32ModelBytes(model.table, vocabSize, model.dim)],
    ['onnx/model_quantized.onnx', q8ModelBytes(model.table, vocabSize, model.dim)],
    [
      'training.json',
      json({
        method:
          'WordPiece tokens, 1/distance window co-occurrences, PPMI, randomized truncated SVD, SIF-weighted unit rows',
        source: 'chunks.parquet',
        options,
        stats: { chunks: trained.chunks, ...model.stats },
      }),
    ],
  ];
  await mkdir(path.join(outDir, 'onnx'), { recursive: true });
  const files: Record<string, number> = {};
  for (const [name, bytes] of outputs) {
    await writeFile(path.join(outDir, name), bytes);
    files[name] = bytes.byteLength;
  }
  const { tokens, cooccurrenceNonZeros, ppmiNonZeros } = model.stats;
  return {
    outDir,
    vocabSize,
    dim: model.dim,
    files,
    stats: { chunks: trained.chunks, tokens, cooccurrenceNonZeros, ppmiNonZeros },
  };
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value, null, 1) + '\n');
}
