import type { JudgeEndpoint, JudgeProviderKind } from './types.ts';

export const DEFAULT_BASE_URLS: Readonly<Record<string, string>> = {
  openai: 'https://api.openai.com/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  anthropic: 'https://api.anthropic.com',
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks the base URL of an endpoint that receives a key (the judge, an embeddings endpoint) and
 * returns it without a trailing slash. Plain http is accepted only for loopback hosts (local
 * servers), so a key never travels unencrypted over a network.
 */
export function normaliseBaseUrl(baseUrl: string, what = 'Judge base URL'): string {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new Error(`${what} is not a valid URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`${what} must use https (found ${url.protocol})`);
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new Error(`${what} must use https unless the host is local (found http://${url.host})`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new Error(`${what} must not contain a user name or password; give the key separately`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new Error(`${what} must not contain a query or fragment`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Where a request of this provider kind is sent. */
export function endpointUrl(provider: JudgeProviderKind, baseUrl: string): string {
  const base = normaliseBaseUrl(baseUrl);
  return provider === 'openai' ? `${base}/chat/completions` : `${base}/v1/messages`;
}

/** A copy safe to persist or show: everything but the key. */
export function endpointWithoutKey(endpoint: JudgeEndpoint): Omit<JudgeEndpoint, 'apiKey'> {
  return { provider: endpoint.provider, baseUrl: endpoint.baseUrl, model: endpoint.model };
}
