export type {
  JudgeCache,
  JudgeCall,
  JudgeEndpoint,
  JudgeProgress,
  JudgeProvider,
  JudgeProviderKind,
  JudgeRequest,
} from './types.ts';
export { JudgeError, isJudgeError, redactSecret, type JudgeErrorKind } from './errors.ts';
export { DEFAULT_BASE_URLS, endpointUrl, endpointWithoutKey, normaliseBaseUrl } from './endpoint.ts';
export {
  createAnthropicProvider,
  createJudgeProvider,
  createOpenAIProvider,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  DEFAULT_TIMEOUT_MS,
  type ProviderOptions,
} from './providers.ts';
export { abortableSleep, CANONICAL_RETRY, retryDelayMs, withRetries, type RetryOptions, type Sleep } from './retry.ts';
export { JudgeRunControl } from './run-control.ts';
export { DEFAULT_JUDGE_CONCURRENCY, runJudgeCalls, type JudgeRunOptions, type JudgeRunResult } from './runner.ts';
export {
  DEFAULT_OUTPUT_TOKENS_PER_CALL,
  estimateJudgeCost,
  estimateTokens,
  uncachedCalls,
  type EstimateOptions,
  type JudgeCostEstimate,
} from './estimate.ts';
export { findModelPrice, KNOWN_MODEL_PRICES, type ModelPrice } from './prices.ts';
export {
  cacheFilesToMap,
  isCacheKey,
  mapToCacheFiles,
  MemoryJudgeCache,
  parseVerdictsJson,
  serializeVerdictsJson,
  type CacheFileEntry,
  type CacheFilesImport,
} from './cache.ts';
export { readCacheZip, writeCacheZip } from './cache-zip.ts';
export { crc32, readZip, writeStoredZip, type ZipFile, type ZipFileInput, type ZipReadLimits } from './zip.ts';
