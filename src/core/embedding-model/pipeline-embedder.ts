/**
 * transformers.js 4.3.1 feature-extraction (`pooling: 'mean', normalize: true`) of a static
 * embedding model, reproduced bit for bit without a model runtime: the ONNX graph only looks rows
 * up (Gather, or int8 rows times a float32 row scale), so the vectors follow from the table and
 * the arithmetic of transformers.js's `mean_pooling` (a float64 sum over the tokens in order,
 * stored as float32) and `Tensor.normalize` (a float32 running sum of squares, its `** (1/2)`,
 * then a division stored as float32). The CLI embeds chunks and queries with it, so Node needs
 * no onnxruntime.
 */
import { CLS_TOKEN, SEP_TOKEN, WordPieceEncoder } from './wordpiece.ts';

/** A token's row: `rows` (float32) or int8 `rows` times the token's `scales` entry (q8). */
export type StaticTable = { kind: 'fp32'; rows: Float32Array } | { kind: 'q8'; rows: Int8Array; scales: Float32Array };

export interface PipelineModel {
  /** Token strings by id (tokenizer.json's WordPiece vocab). */
  vocab: readonly string[];
  dim: number;
  table: StaticTable;
  /** tokenizer_config.json's model_max_length (no truncation when absent, as transformers.js). */
  maxLength?: number;
}

export class PipelineEmbedder {
  readonly dim: number;
  private readonly encoder: WordPieceEncoder;
  private readonly cls: number;
  private readonly sep: number;

  constructor(private readonly model: PipelineModel) {
    const rows = model.table.rows.length;
    if (rows !== model.vocab.length * model.dim)
      throw new Error(`the table has ${rows} values, expected ${model.vocab.length} x ${model.dim}`);
    this.dim = model.dim;
    this.encoder = new WordPieceEncoder(model.vocab);
    const id = (token: string) => {
      const found = this.encoder.idOf(token);
      if (found === undefined) throw new Error(`vocabulary has no ${token}`);
      return found;
    };
    this.cls = id(CLS_TOKEN);
    this.sep = id(SEP_TOKEN);
  }

  /** The ids the tokenizer feeds the model: [CLS], the text's tokens (truncated), [SEP]. */
  tokenIds(text: string): number[] {
    let body = this.encoder.encode(text);
    const max = this.model.maxLength;
    if (max !== undefined && Number.isFinite(max) && body.length > max - 2) body = body.slice(0, Math.max(0, max - 2));
    return [this.cls, ...body, this.sep];
  }

  /** One unit vector; a text whose tokens all have zero rows gives zeros (transformers.js: 0/0 NaNs). */
  embed(text: string): Float32Array {
    const { dim } = this;
    const ids = this.tokenIds(text);
    const table = this.model.table;
    const mean = new Float32Array(dim);
    for (let k = 0; k < dim; k++) {
      let sum = 0;
      for (const id of ids) {
        const o = id * dim + k;
        sum += table.kind === 'fp32' ? table.rows[o]! : Math.fround(table.rows[o]! * table.scales[id]!);
      }
      mean[k] = sum / ids.length;
    }
    // Tensor.norm reduces into a Float32Array, so every partial sum is rounded to float32.
    const acc = new Float32Array(1);
    for (let k = 0; k < dim; k++) acc[0] = acc[0]! + mean[k]! ** 2;
    const norm = Math.fround(acc[0]! ** (1 / 2));
    const out = new Float32Array(dim);
    for (let k = 0; k < dim; k++) out[k] = mean[k]! / norm;
    if (!out.every(Number.isFinite)) out.fill(0);
    return out;
  }
}
