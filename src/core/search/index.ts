/** Public API of the search core: the search worker's and the `run` CLI's logic. */
export * from './types.ts';
export { SearchSession, type ReleaseIndexInfo, type SessionOptions, type SplitIndexInfo } from './session.ts';
export { answerableTasks, evaluateRankings, type Rankings } from './evaluate.ts';
export { MAX_RETRIEVED, predictionsText, runTag, trecRunText } from './exports.ts';
export {
  encoderInput,
  formatModelManifest,
  MODEL_MANIFEST_VERSION,
  ModelManifestError,
  parseModelManifest,
  type ModelKind,
  type ModelManifest,
} from './model-manifest.ts';
export {
  EmbeddingEndpointError,
  openAiEmbedder,
  parseEmbeddingsResponse,
  type OpenAiEmbeddingsOptions,
  type QueryEmbedder,
} from './embedders.ts';
export { ChunkTexts, snippetOf } from './chunk-texts.ts';
export { readWithProgress, MAX_INDEX_FILE_BYTES } from './read-progress.ts';
