/** Public API of the retrieval core (pure TS: page, workers and Node). */
export type { ChunkInput, RankedChunk, RankedDoc, Retriever } from './types.ts';
export { forEachToken, queryTerms, tokenize } from './tokenize.ts';
export type { ChunkTable } from './chunk-table.ts';
export { chunkTableFingerprint } from './chunk-table.ts';
export { IndexFormatError } from './binary-container.ts';
export { BM25_B, BM25_K1, Bm25Index } from './bm25-index.ts';
export { Bm25Builder, buildBm25Index, type Bm25Options } from './bm25-build.ts';
export { BM25_FORMAT_VERSION, loadBm25, serializeBm25 } from './bm25-file.ts';
export {
  aggregateChunksToDocs,
  chunkDepthForDocs,
  DEFAULT_RESCORE,
  DenseIndex,
  DenseRetriever,
  l2Normalize,
  type ChunkHits,
  type DenseSearchOptions,
} from './dense.ts';
export { buildDenseIndex, type DenseBuildOptions } from './dense-build.ts';
export { DENSE_FORMAT_VERSION, loadDense, serializeDense } from './dense-file.ts';
export { HybridRetriever, RRF_K, rrfFuse } from './hybrid.ts';
export {
  benchmarkNdcgAt10,
  benchmarkRecallAt,
  benchmarkRetrievalScores,
  formatTrecEval,
  IR_MEASURES_NAMES,
  TREC_MEASURES,
  trecEval,
  trecEvalQuery,
  type TrecEvalResult,
  type TrecMeasure,
  type TrecValues,
} from './metrics.ts';
export {
  formatQrels,
  formatRun,
  parseQrels,
  parseRun,
  qrelsFromGold,
  TrecFormatError,
  type Qrels,
  type RunEntry,
  type TrecRun,
} from './trec.ts';
