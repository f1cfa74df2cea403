/**
 * Query encoders for dense retrieval. An encoder turns texts into vectors of the dense index's
 * model; the search session L2-normalises them. Two kinds here: an OpenAI-compatible
 * /embeddings endpoint with the user's key (kept in memory only), and any function (the
 * transformers.js pipeline of the worker, a Node encoder, a test double).
 */
import { errorMessage } from '../error-message.ts';
export interface QueryEmbedder {
  /** What the UI shows: the model and where it runs. */
  readonly label: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export interface OpenAiEmbeddingsOptions {
  /** e.g. https://api.openai.com/v1 (the request goes to `${base}/embeddings`). */
  base: string;
  key: string;
  model: string;
  /** Ask for this many dimensions (text-embedding-3-* accept it); absent = the model's own. */
  dimensions?: number;
  fetchFn?: typeof fetch;
}

const MAX_RESPONSE_CHARS = 64 * 1024 * 1024;

export class EmbeddingEndpointError extends Error {
  override name = 'EmbeddingEndpointError';
}

export function openAiEmbedder(options: OpenAiEmbeddingsOptions): QueryEmbedder {
  const base = options.base.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(base))
    throw new EmbeddingEndpointError(`base URL must start with http(s)://, got "${base}"`);
  const endpoint = `${base}/embeddings`;
  const fetchFn = options.fetchFn ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  return {
    label: `${options.model} via ${new URL(endpoint).host}`,
    async embed(texts) {
      let response: Response;
      try {
        response = await fetchFn(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${options.key}` },
          body: JSON.stringify({
            model: options.model,
            input: texts,
            ...(options.dimensions ? { dimensions: options.dimensions } : {}),
          }),
        });
      } catch (e) {
        // Errors without CORS headers reach the page only as an opaque network failure.
        throw new EmbeddingEndpointError(
          `${endpoint}: request failed (${errorMessage(e)}). Likely causes: a wrong base URL, ` +
            'a provider that does not allow browser (CORS) requests, or an extension blocking the request.',
        );
      }
      const body = await response.text();
      if (body.length > MAX_RESPONSE_CHARS) throw new EmbeddingEndpointError(`${endpoint}: response too large`);
      if (!response.ok) {
        throw new EmbeddingEndpointError(`${endpoint}: HTTP ${response.status}: ${body.slice(0, 300)}`);
      }
      return parseEmbeddingsResponse(body, texts.length, endpoint);
    },
  };
}

/** `{data: [{index, embedding: number[]}, ...]}` -> vectors in input order. */
export function parseEmbeddingsResponse(body: string, count: number, where: string): Float32Array[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new EmbeddingEndpointError(`${where}: response is not JSON: ${body.slice(0, 200)}`);
  }
  const data = (parsed as { data?: unknown }).data;
  if (!Array.isArray(data) || data.length !== count) {
    throw new EmbeddingEndpointError(
      `${where}: expected "data" with ${count} embeddings, found ${Array.isArray(data) ? data.length : typeof data}`,
    );
  }
  const out: Float32Array[] = new Array<Float32Array>(count);
  data.forEach((item: unknown, i) => {
    const row = item as { index?: unknown; embedding?: unknown };
    const index = typeof row.index === 'number' ? row.index : i;
    if (!Number.isInteger(index) || index < 0 || index >= count || out[index]) {
      throw new EmbeddingEndpointError(
        `${where}: data[${i}].index ${JSON.stringify(row.index)} is out of range or repeated`,
      );
    }
    if (!Array.isArray(row.embedding) || !row.embedding.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw new EmbeddingEndpointError(`${where}: data[${i}].embedding must be an array of finite numbers`);
    }
    out[index] = Float32Array.from(row.embedding as number[]);
  });
  return out;
}
