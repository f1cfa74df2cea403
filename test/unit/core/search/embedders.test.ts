/**
 * The opt-in embeddings endpoint (audit finding 4.9): the key travels only over https (or to this
 * machine) and only to the chosen endpoint, never along a redirect.
 */
import { describe, expect, it } from 'vitest';
import { openAiEmbedder } from '../../../../src/core/search/embedders.ts';

const KEY = 'sk-embed-test-0123456789';

function recordingFetch(): { fetchFn: typeof fetch; calls: Array<{ url: string; init: RequestInit | undefined }> } {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init });
    return new Response(JSON.stringify({ data: [{ index: 0, embedding: [1, 0] }] }));
  }) as typeof fetch;
  return { fetchFn, calls };
}

describe('openAiEmbedder', () => {
  for (const base of ['http://example.com/v1', 'http://192.168.1.20:8080/v1', 'ftp://example.com/v1']) {
    it(`refuses ${base} before sending anything`, () => {
      const { fetchFn, calls } = recordingFetch();
      expect(() => openAiEmbedder({ base, key: KEY, model: 'm', fetchFn })).toThrow(/https/);
      expect(calls).toHaveLength(0);
    });
  }

  for (const base of ['https://api.example.com/v1', 'http://localhost:8080/v1', 'http://127.0.0.1:11434/v1']) {
    it(`sends the key to ${base}/embeddings only, without following redirects or sending cookies`, async () => {
      const { fetchFn, calls } = recordingFetch();
      const embedder = openAiEmbedder({ base, key: KEY, model: 'm', fetchFn });
      await embedder.embed(['query']);
      expect(calls).toHaveLength(1);
      expect(calls[0]!.url).toBe(`${base}/embeddings`);
      expect(calls[0]!.init?.redirect).toBe('error');
      expect(calls[0]!.init?.credentials).toBe('omit');
      expect((calls[0]!.init?.headers as Record<string, string>).Authorization).toBe(`Bearer ${KEY}`);
    });
  }

  it('refuses a base URL carrying credentials or a query (where a key could leak)', () => {
    const { fetchFn } = recordingFetch();
    expect(() => openAiEmbedder({ base: 'https://u:p@example.com/v1', key: KEY, model: 'm', fetchFn })).toThrow(
      /user name or password/,
    );
    expect(() => openAiEmbedder({ base: 'https://example.com/v1?x=1', key: KEY, model: 'm', fetchFn })).toThrow(
      /query/,
    );
  });
});
