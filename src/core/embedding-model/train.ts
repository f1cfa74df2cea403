/**
 * Static token embeddings from a corpus: WordPiece vocabulary -> token ids -> windowed
 * co-occurrences -> PPMI -> truncated SVD. Row t of the table is token t's unit vector
 * U S^p (p = 0 by default), minus the corpus's common direction, times a SIF weight a / (a + p(t)), so that the model's plain mean pooling is a
 * frequency-weighted average. Special tokens get zero rows: they do not move a mean's direction.
 */
import { countCooccurrences } from './cooccurrence.ts';
import { ppmi } from './ppmi.ts';
import { truncatedSvd } from './truncated-svd.ts';
import { DEFAULT_VOCAB_OPTIONS, type VocabOptions, buildVocab, countWords } from './vocab.ts';
import { SPECIAL_TOKENS, WordPieceEncoder } from './wordpiece.ts';

export interface TrainOptions {
  dim: number;
  vocab: VocabOptions;
  window: number;
  /** Context smoothing exponent of PPMI. */
  alpha: number;
  /** Exponent of the singular values in U S^p. */
  eigenWeight: number;
  /** a of the SIF weight a / (a + p(token)); 0 disables weighting. */
  sifA: number;
  /** Subtract the frequency-weighted mean unit vector (the direction every text shares). */
  removeCommon: boolean;
  oversample: number;
  powerIterations: number;
  seed: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  dim: 256,
  vocab: DEFAULT_VOCAB_OPTIONS,
  window: 8,
  alpha: 0.75,
  eigenWeight: 0,
  sifA: 3e-4,
  removeCommon: true,
  oversample: 16,
  powerIterations: 3,
  seed: 20240501,
};

export interface StaticEmbeddings {
  vocab: string[];
  dim: number;
  /** Row-major (vocab.length x dim). */
  table: Float32Array;
  stats: { tokens: number; cooccurrenceNonZeros: number; ppmiNonZeros: number; singularValues: number[] };
}

export function trainStaticEmbeddings(
  texts: readonly string[],
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
): StaticEmbeddings {
  const vocab = buildVocab(countWords(texts), options.vocab);
  const encoder = new WordPieceEncoder(vocab);
  const sequences = texts.map((t) => Uint32Array.from(encoder.encode(t)));
  const specialIds = new Set(SPECIAL_TOKENS.map((_, i) => i));
  const counts = countCooccurrences(sequences, vocab.length, { window: options.window, ignore: specialIds });
  const pmi = ppmi(counts, options.alpha);
  const svd = truncatedSvd(pmi, {
    rank: options.dim,
    oversample: options.oversample,
    powerIterations: options.powerIterations,
    seed: options.seed,
  });

  const frequency = new Float64Array(vocab.length);
  let tokens = 0;
  for (const seq of sequences) {
    for (const id of seq) {
      if (specialIds.has(id)) continue;
      frequency[id] = frequency[id]! + 1;
      tokens++;
    }
  }
  const { dim } = options;
  const unit = new Float64Array(vocab.length * dim);
  for (let t = 0; t < vocab.length; t++) {
    if (specialIds.has(t)) continue;
    let sum = 0;
    for (let d = 0; d < dim; d++) {
      const v = svd.u[t * dim + d]! * Math.pow(svd.singularValues[d]!, options.eigenWeight);
      unit[t * dim + d] = v;
      sum += v * v;
    }
    const norm = Math.sqrt(sum);
    for (let d = 0; d < dim; d++) unit[t * dim + d] = norm > 0 ? unit[t * dim + d]! / norm : 0;
  }
  const common = new Float64Array(dim);
  if (options.removeCommon && tokens > 0) {
    for (let t = 0; t < vocab.length; t++) {
      const share = frequency[t]! / tokens;
      if (share > 0) for (let d = 0; d < dim; d++) common[d] = common[d]! + share * unit[t * dim + d]!;
    }
  }
  const table = new Float32Array(vocab.length * dim);
  for (let t = 0; t < vocab.length; t++) {
    if (specialIds.has(t) || frequency[t] === 0) continue;
    const p = frequency[t]! / tokens;
    const weight = options.sifA > 0 ? options.sifA / (options.sifA + p) : 1;
    for (let d = 0; d < dim; d++) table[t * dim + d] = (unit[t * dim + d]! - common[d]!) * weight;
  }
  return {
    vocab,
    dim,
    table,
    stats: {
      tokens,
      cooccurrenceNonZeros: counts.values.length,
      ppmiNonZeros: pmi.values.length,
      singularValues: Array.from(svd.singularValues),
    },
  };
}
