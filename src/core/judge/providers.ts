import { endpointUrl } from './endpoint.ts';
import { JudgeError } from './errors.ts';
import { postJson } from './http.ts';
import type { JudgeEndpoint, JudgeProvider, JudgeRequest } from './types.ts';

export interface ProviderOptions {
  /** The judge profile's response_format (OpenAI wire format only; Anthropic has no JSON mode). */
  responseFormat?: { type: string };
  /** Anthropic requires max_tokens. */
  maxTokens?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  fetchImpl?: typeof fetch;
  now?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 180_000;
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 2048;
const DEFAULT_MAX_RESPONSE_BYTES = 1_000_000;

/** Builds the provider for an endpoint; throws a plain Error for a bad base URL. */
export function createJudgeProvider(endpoint: JudgeEndpoint, options: ProviderOptions = {}): JudgeProvider {
  return endpoint.provider === 'openai'
    ? createOpenAIProvider(endpoint, options)
    : createAnthropicProvider(endpoint, options);
}

/** OpenAI chat completions and compatible servers (OpenRouter, vLLM, Ollama, ...). */
export function createOpenAIProvider(endpoint: JudgeEndpoint, options: ProviderOptions = {}): JudgeProvider {
  const url = endpointUrl('openai', endpoint.baseUrl);
  return {
    kind: 'openai',
    model: endpoint.model,
    targetUrl: url,
    async complete(request: JudgeRequest, signal: AbortSignal): Promise<string> {
      // No temperature and no seed: the GPT-5 family rejects both (benchmark spec 2.4).
      const body: Record<string, unknown> = {
        model: request.model,
        messages: [
          { role: 'system', content: request.system },
          { role: 'user', content: request.prompt },
        ],
      };
      if (options.responseFormat !== undefined) body.response_format = options.responseFormat;
      const reply = await postJson({
        ...httpOptions(endpoint, options, signal),
        url,
        headers: { authorization: `Bearer ${endpoint.apiKey}` },
        body,
      });
      return readOpenAIText(reply);
    },
  };
}

/** Anthropic Messages API, callable from a browser. */
export function createAnthropicProvider(endpoint: JudgeEndpoint, options: ProviderOptions = {}): JudgeProvider {
  const url = endpointUrl('anthropic', endpoint.baseUrl);
  return {
    kind: 'anthropic',
    model: endpoint.model,
    targetUrl: url,
    async complete(request: JudgeRequest, signal: AbortSignal): Promise<string> {
      const reply = await postJson({
        ...httpOptions(endpoint, options, signal),
        url,
        headers: {
          'x-api-key': endpoint.apiKey,
          'anthropic-version': '2023-06-01',
          'anthropic-dangerous-direct-browser-access': 'true',
        },
        body: {
          model: request.model,
          max_tokens: options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
          system: request.system,
          messages: [{ role: 'user', content: request.prompt }],
        },
      });
      return readAnthropicText(reply);
    },
  };
}

function httpOptions(endpoint: JudgeEndpoint, options: ProviderOptions, signal: AbortSignal) {
  return {
    signal,
    secret: endpoint.apiKey,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    ...(options.fetchImpl === undefined ? {} : { fetchImpl: options.fetchImpl }),
    ...(options.now === undefined ? {} : { now: options.now }),
  };
}

function invalidShape(provider: string, expected: string): JudgeError {
  return new JudgeError(`${provider} reply has no ${expected}`, {
    kind: 'invalid_response',
    status: 200,
    retryable: true,
  });
}

/** choices[0].message.content, the text the canonical scorer caches. */
export function readOpenAIText(reply: unknown): string {
  const choices = isRecord(reply) ? reply.choices : undefined;
  const first = Array.isArray(choices) ? (choices[0] as unknown) : undefined;
  const message = isRecord(first) ? first.message : undefined;
  const content = isRecord(message) ? message.content : undefined;
  if (typeof content !== 'string') throw invalidShape('OpenAI-compatible', 'choices[0].message.content string');
  return content;
}

/** The text blocks of content[], joined; returned as is (no JSON mode on this API). */
export function readAnthropicText(reply: unknown): string {
  const content = isRecord(reply) ? reply.content : undefined;
  if (!Array.isArray(content)) throw invalidShape('Anthropic', 'content array');
  const texts = content.flatMap((block: unknown) =>
    isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
  if (texts.length === 0) throw invalidShape('Anthropic', 'text block in content');
  return texts.join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
