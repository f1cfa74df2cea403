import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointUrl, normaliseBaseUrl } from '../../../../src/core/judge/endpoint.ts';
import { createJudgeProvider } from '../../../../src/core/judge/providers.ts';
import { startMockJudgeServer, type MockJudgeServer } from '../../../support/mock-judge-server.ts';
import { anthropicEndpoint, failureOf, MODEL, openAIEndpoint, SYSTEM, TEST_KEY } from './judge-fixtures.ts';

let server: MockJudgeServer;
beforeEach(async () => {
  server = await startMockJudgeServer();
});
afterEach(async () => {
  await server.close();
});

const PROMPT = '[SCOREJUDGE] Judge this.\n\nQuestion: "quoted" ünïcode ✓\n<system_answer>\nx\n</system_answer>';
const signal = (): AbortSignal => new AbortController().signal;

describe('OpenAI-compatible provider', () => {
  it('posts the exact model, system, prompt and response_format, with no temperature or seed', async () => {
    server.script.push({ reply: '{"correct": false, "is_refusal": true}' });
    const provider = createJudgeProvider(openAIEndpoint(server.url), { responseFormat: { type: 'json_object' } });
    const text = await provider.complete({ model: MODEL, system: SYSTEM, prompt: PROMPT }, signal());
    expect(text).toBe('{"correct": false, "is_refusal": true}');
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-api-key']).toBeUndefined();
    expect(request.body).toEqual({
      model: MODEL,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: PROMPT },
      ],
      response_format: { type: 'json_object' },
    });
    expect(Object.keys(request.body as object)).not.toContain('temperature');
    expect(Object.keys(request.body as object)).not.toContain('seed');
  });

  it('leaves response_format out when the profile has none', async () => {
    const provider = createJudgeProvider(openAIEndpoint(server.url));
    await provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal());
    expect(Object.keys(server.requests[0]!.body as object).sort()).toEqual(['messages', 'model']);
  });

  it('fails with invalid_response when a 200 body is not JSON', async () => {
    server.script.push({ status: 200, body: '<html>gateway</html>' });
    const provider = createJudgeProvider(openAIEndpoint(server.url));
    const error = await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()));
    expect(error.kind).toBe('invalid_response');
    expect(error.status).toBe(200);
    expect(error.message).toContain('not JSON');
  });

  it('fails with invalid_response when the JSON has no message content', async () => {
    server.script.push({ body: { choices: [] } });
    const provider = createJudgeProvider(openAIEndpoint(server.url));
    const error = await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()));
    expect(error.kind).toBe('invalid_response');
    expect(error.message).toContain('choices[0].message.content');
  });

  it('rejects answers larger than the response cap', async () => {
    server.script.push({ reply: 'x'.repeat(5000) });
    const provider = createJudgeProvider(openAIEndpoint(server.url), { maxResponseBytes: 1000 });
    const error = await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()));
    expect(error.kind).toBe('invalid_response');
    expect(error.retryable).toBe(false);
  });

  it('classifies HTTP failures', async () => {
    const provider = createJudgeProvider(openAIEndpoint(server.url));
    const cases: Array<[number, unknown, string, boolean]> = [
      [401, { error: { message: 'Incorrect API key', code: 'invalid_api_key' } }, 'auth', false],
      [403, { error: { message: 'forbidden' } }, 'auth', false],
      [402, { error: { message: 'no credits' } }, 'quota', false],
      [429, { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }, 'quota', false],
      [429, { error: { message: 'Rate limit reached', code: 'rate_limit_exceeded' } }, 'http', true],
      [400, { error: { message: 'Unsupported parameter: temperature' } }, 'http', false],
      [404, 'not found', 'http', false],
      [500, { error: { message: 'boom' } }, 'http', true],
      [529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'http', true],
    ];
    for (const [status, body, kind, retryable] of cases) {
      server.script.push({ status, body });
      const error = await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()));
      expect({ status: error.status, kind: error.kind, retryable: error.retryable }).toEqual({
        status,
        kind,
        retryable,
      });
      expect(error.message).toContain(`HTTP ${status}`);
    }
  });

  it('lets x-should-retry override retryability except for auth and quota', async () => {
    const provider = createJudgeProvider(openAIEndpoint(server.url));
    server.script.push({ status: 500, headers: { 'x-should-retry': 'false' }, body: 'x' });
    expect(
      (await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()))).retryable,
    ).toBe(false);
    server.script.push({ status: 401, headers: { 'x-should-retry': 'true' }, body: 'x' });
    expect(
      (await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()))).retryable,
    ).toBe(false);
  });

  it('never puts the key in an error message, even when the server echoes it', async () => {
    const provider = createJudgeProvider(openAIEndpoint(server.url));
    const masked = `${TEST_KEY.slice(0, 14)}****${TEST_KEY.slice(-14)}`;
    server.script.push({ status: 401, body: { error: { message: `Incorrect API key provided: ${TEST_KEY}` } } });
    server.script.push({ status: 401, body: { error: { message: `Incorrect API key provided: ${masked}` } } });
    server.script.push({ status: 200, body: `echo ${TEST_KEY}` });
    for (let i = 0; i < 3; i++) {
      const error = await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()));
      expect(error.message).not.toContain(TEST_KEY);
      expect(error.message).not.toContain(TEST_KEY.slice(0, 12));
      expect(error.message).not.toContain(TEST_KEY.slice(-12));
      expect(String(error.stack)).not.toContain(TEST_KEY);
    }
  });

  it('does not follow a redirect, so the key cannot reach another host', async () => {
    const other = await startMockJudgeServer();
    try {
      server.script.push({ status: 307, headers: { location: `${other.url}/v1/chat/completions` }, body: '' });
      const provider = createJudgeProvider(openAIEndpoint(server.url));
      const error = await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()));
      expect(error.kind).toBe('network');
      expect(error.message).not.toContain(TEST_KEY);
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('reports a refused connection as a network error without the key', async () => {
    const closed = await startMockJudgeServer();
    await closed.close();
    const provider = createJudgeProvider(openAIEndpoint(closed.url));
    const error = await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()));
    expect(error.kind).toBe('network');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('CORS');
    expect(error.message).not.toContain(TEST_KEY);
  });

  it('times out a request that gets no answer', async () => {
    server.hold();
    const provider = createJudgeProvider(openAIEndpoint(server.url), { timeoutMs: 50 });
    const error = await failureOf(provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, signal()));
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
  });

  it('reports an aborted run signal as cancelled', async () => {
    server.hold();
    const controller = new AbortController();
    const provider = createJudgeProvider(openAIEndpoint(server.url));
    const pending = provider.complete({ model: MODEL, system: SYSTEM, prompt: 'p' }, controller.signal);
    await server.waitFor(() => server.held === 1);
    controller.abort();
    const error = await failureOf(pending);
    expect(error.kind).toBe('cancelled');
  });
});

describe('Anthropic provider', () => {
  it('posts to /v1/messages with the browser-access headers and a top-level system', async () => {
    server.script.push({ reply: '```json\n{"identified": true}\n```' });
    const provider = createJudgeProvider(anthropicEndpoint(server.url, 'claude-sonnet-4-5'), {
      responseFormat: { type: 'json_object' },
      maxTokens: 777,
    });
    const text = await provider.complete({ model: 'claude-sonnet-4-5', system: SYSTEM, prompt: PROMPT }, signal());
    expect(text).toBe('```json\n{"identified": true}\n```');
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe(TEST_KEY);
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 777,
      system: SYSTEM,
      messages: [{ role: 'user', content: PROMPT }],
    });
  });

  it('joins the text blocks and fails on a reply without text', async () => {
    server.script.push({
      body: { content: [{ type: 'text', text: '{"a":' }, { type: 'tool_use' }, { type: 'text', text: ' 1}' }] },
    });
    server.script.push({ body: { content: [] } });
    const provider = createJudgeProvider(anthropicEndpoint(server.url));
    expect(await provider.complete({ model: 'm', system: SYSTEM, prompt: 'p' }, signal())).toBe('{"a": 1}');
    const error = await failureOf(provider.complete({ model: 'm', system: SYSTEM, prompt: 'p' }, signal()));
    expect(error.kind).toBe('invalid_response');
  });

  it('reads Anthropic error bodies', async () => {
    server.script.push({
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'bad' } },
    });
    const provider = createJudgeProvider(anthropicEndpoint(server.url));
    const error = await failureOf(provider.complete({ model: 'm', system: SYSTEM, prompt: 'p' }, signal()));
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('authentication_error');
  });
});

describe('base URLs', () => {
  it('builds the request URL of each wire format', () => {
    expect(endpointUrl('openai', 'https://api.openai.com/v1/')).toBe('https://api.openai.com/v1/chat/completions');
    expect(endpointUrl('openai', 'https://openrouter.ai/api/v1')).toBe('https://openrouter.ai/api/v1/chat/completions');
    expect(endpointUrl('anthropic', 'https://api.anthropic.com')).toBe('https://api.anthropic.com/v1/messages');
    expect(endpointUrl('openai', 'http://localhost:11434/v1')).toBe('http://localhost:11434/v1/chat/completions');
  });

  it('refuses URLs that could leak the key', () => {
    expect(() => normaliseBaseUrl('http://example.com/v1')).toThrow(/https/);
    expect(() => normaliseBaseUrl('https://user:pw@example.com/v1')).toThrow(/user name or password/);
    expect(() => normaliseBaseUrl('https://example.com/v1?key=1')).toThrow(/query/);
    expect(() => normaliseBaseUrl('ftp://example.com')).toThrow(/https/);
    expect(() => normaliseBaseUrl('not a url')).toThrow(/not a valid URL/);
  });
});
