/** Which wire format an endpoint speaks. */
export type JudgeProviderKind = 'openai' | 'anthropic';

/**
 * Where judge calls go. `baseUrl` is the API root: for OpenAI-compatible servers the part before
 * `/chat/completions` (e.g. https://api.openai.com/v1), for Anthropic the host root
 * (https://api.anthropic.com). The key is sent to this URL only.
 */
export interface JudgeEndpoint {
  provider: JudgeProviderKind;
  baseUrl: string;
  model: string;
  apiKey: string;
}

/** One chat request: a system message and one user message. */
export interface JudgeRequest {
  model: string;
  system: string;
  prompt: string;
}

/** One judge call as the scorer plans it; `key` is its cache key (sha256 of model NUL system NUL prompt). */
export interface JudgeCall {
  key: string;
  model: string;
  system: string;
  prompt: string;
  tag: string;
  task_id: string;
}

/** Stores raw judge replies by cache key (IndexedDB in the browser, a folder in Node, a Map in tests). */
export interface JudgeCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, text: string): Promise<void>;
}

/** One attempt against an endpoint: resolves to the raw reply text, or throws a JudgeError. */
export interface JudgeProvider {
  readonly kind: JudgeProviderKind;
  /** The model this endpoint answers with; calls for another model are refused (their cache key would lie). */
  readonly model: string;
  /** Origin + path the key is sent to, for showing the user ("your key goes to ..."). */
  readonly targetUrl: string;
  complete(request: JudgeRequest, signal: AbortSignal): Promise<string>;
}

export interface JudgeProgress {
  /** Distinct cache keys the run must answer. */
  total: number;
  /** Keys answered (from the cache or the network) or failed. */
  done: number;
  /** Keys answered from the cache without a request. */
  cached: number;
  /** Keys whose calls failed after all retries. */
  failed: number;
  /** Keys taken by a worker and not yet finished: request sent, waiting to retry, or held by a pause. */
  inFlight: number;
  /** The first failure's reason and how many failed calls share it (word for word), so a panel can say why. */
  firstFailure?: { reason: string; count: number };
}

/** Counts a failed call into the progress's first failure: the first reason, and each later one that equals it. */
export function withFailure(progress: JudgeProgress, reason: string): JudgeProgress['firstFailure'] {
  const first = progress.firstFailure;
  if (!first) return { reason, count: 1 };
  return first.reason === reason ? { reason, count: first.count + 1 } : first;
}
