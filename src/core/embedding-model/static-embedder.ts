/**
 * Embeds texts with a trained static-embedding table in plain TypeScript, the way the exported
 * ONNX model does under transformers.js mean pooling + normalize: the L2-normalised sum of the
 * token rows ([CLS]/[SEP] have zero rows, so they change only the mean's length, which the
 * normalisation removes). Used where an async model runtime is not available, e.g. pooling
 * inside the synchronous sample generator.
 */
import type { StaticEmbeddings } from './train.ts';
import { WordPieceEncoder } from './wordpiece.ts';

export class StaticEmbedder {
  readonly dim: number;
  private readonly encoder: WordPieceEncoder;
  private readonly table: Float32Array;

  constructor(model: Pick<StaticEmbeddings, 'vocab' | 'dim' | 'table'>) {
    if (model.table.length !== model.vocab.length * model.dim)
      throw new Error(`table has ${model.table.length} values, expected ${model.vocab.length} x ${model.dim}`);
    this.dim = model.dim;
    this.table = model.table;
    this.encoder = new WordPieceEncoder(model.vocab);
  }

  /** Unit vector of a text (all zeros when no token has a row). */
  embed(text: string): Float32Array {
    const { dim, table } = this;
    const sum = new Float64Array(dim);
    for (const id of this.encoder.encode(text)) {
      const o = id * dim;
      for (let d = 0; d < dim; d++) sum[d] = sum[d]! + table[o + d]!;
    }
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += sum[d]! * sum[d]!;
    norm = Math.sqrt(norm);
    const out = new Float32Array(dim);
    if (norm > 0) for (let d = 0; d < dim; d++) out[d] = sum[d]! / norm;
    return out;
  }

  /** Rows of many texts, text i at [i * dim, (i + 1) * dim). */
  embedAll(texts: readonly string[]): Float32Array {
    const rows = new Float32Array(texts.length * this.dim);
    texts.forEach((t, i) => rows.set(this.embed(t), i * this.dim));
    return rows;
  }
}
