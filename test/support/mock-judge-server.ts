/**
 * A local judge endpoint for tests and e2e: speaks the OpenAI chat-completions and the Anthropic
 * Messages wire formats on 127.0.0.1 (random port), answers from a script, and records every request.
 * Browser-friendly: answers CORS preflights (not recorded, not scripted).
 *
 * No timing: a test that needs requests in flight calls hold(), waits for the state it wants with
 * waitFor(), and lets the answers go with release(). A held request the client gives up on (timeout,
 * cancel) leaves the queue by itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocal } from './local-server.ts';

export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. Absent: a success body carrying `reply`. */
  body?: unknown;
  /** The judge's reply text for a success body in the request's wire format. */
  reply?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The JSON body, or undefined when it did not parse. */
  body: unknown;
  rawBody: string;
  wire: 'openai' | 'anthropic';
}

export interface MockJudgeServer {
  /** http://127.0.0.1:<port>; use `${url}/v1` as an OpenAI base URL and `url` as an Anthropic one. */
  url: string;
  requests: RecordedRequest[];
  /** Answers consumed in order, one per request; push more at any time. */
  script: ScriptedResponse[];
  /** Most requests open at once (arrived, not yet answered or abandoned). */
  readonly maxInFlight: number;
  readonly inFlight: number;
  /** Requests waiting for release(). */
  readonly held: number;
  /** From now on, every request waits, unanswered, until release() lets it go. */
  hold(): void;
  /** Answers the `count` oldest held requests; without a count, all of them, and stops holding. */
  release(count?: number): void;
  /** Resolves as soon as `ready` is true, checked now and after every change of the server's state. */
  waitFor(ready: () => boolean): Promise<void>;
  close(): Promise<void>;
}

export interface MockJudgeServerOptions {
  /** Answer when the script is empty (default: 200 with DEFAULT_MOCK_REPLY). */
  fallback?: (request: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>;
}

export const DEFAULT_MOCK_REPLY = '{"correct": true, "is_refusal": false}';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers':
    'authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-expose-headers': 'retry-after, retry-after-ms, x-should-retry',
};

export function openAIBody(reply: string, model = 'mock-model'): unknown {
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
  };
}

export function anthropicBody(reply: string, model = 'mock-model'): unknown {
  return {
    id: 'msg_mock',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: reply }],
    stop_reason: 'end_turn',
  };
}

/** The prompt of a recorded request: its last message (both wire formats). */
export function promptOf(request: RecordedRequest): string {
  const body = request.body as { messages: Array<{ content: string }> };
  return body.messages[body.messages.length - 1]!.content;
}

/**
 * A judge for the sample release's prompts that grades from the prompt alone: refusals are refusals,
 * every other answer is correct; list and premise prompts get the replies given.
 */
export function sampleJudge(replies: { list: string; premise: string }): (prompt: string) => string {
  return (prompt) => {
    if (prompt.startsWith('[SAMPLELIST]')) return replies.list;
    if (prompt.startsWith('[SAMPLEPREMISE]')) return replies.premise;
    const refusal = prompt.includes('does not contain enough information');
    return `{"correct": ${!refusal}, "is_refusal": ${refusal}}`;
  };
}

/** A judge that answers every request with `replyFor` of its prompt. */
export function startEchoJudge(replyFor: (prompt: string) => string): Promise<MockJudgeServer> {
  return startMockJudgeServer({ fallback: (request) => ({ reply: replyFor(promptOf(request)) }) });
}

export async function startMockJudgeServer(options: MockJudgeServerOptions = {}): Promise<MockJudgeServer> {
  const requests: RecordedRequest[] = [];
  const script: ScriptedResponse[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let holding = false;
  const heldQueue: Array<() => void> = [];
  let watchers: Array<{ ready: () => boolean; resolve: () => void }> = [];
  const changed = (): void => {
    const waiting = watchers;
    watchers = [];
    for (const watcher of waiting) {
      if (watcher.ready()) watcher.resolve();
      else watchers.push(watcher);
    }
  };
  /** Resolves true when released, false as soon as the client closes the connection. */
  const heldUntilReleased = (res: ServerResponse): Promise<boolean> =>
    new Promise((resolve) => {
      const release = (): void => {
        res.off('close', onClose);
        resolve(!res.destroyed);
      };
      const onClose = (): void => {
        const at = heldQueue.indexOf(release);
        if (at >= 0) heldQueue.splice(at, 1);
        resolve(false);
        changed();
      };
      heldQueue.push(release);
      res.once('close', onClose);
      changed();
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS).end();
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => {
      inFlight--;
      changed();
    });
    const rawBody = await readBody(req);
    const path = req.url ?? '/';
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path,
      headers: flattenHeaders(req),
      body: parseJson(rawBody),
      rawBody,
      wire: path.endsWith('/messages') ? 'anthropic' : 'openai',
    };
    requests.push(recorded);
    changed();
    if (holding && !(await heldUntilReleased(res))) return;
    const answer = script.shift() ?? (await options.fallback?.(recorded)) ?? {};
    const model = isRecord(recorded.body) && typeof recorded.body.model === 'string' ? recorded.body.model : undefined;
    const body =
      answer.body !== undefined
        ? answer.body
        : recorded.wire === 'anthropic'
          ? anthropicBody(answer.reply ?? DEFAULT_MOCK_REPLY, model)
          : openAIBody(answer.reply ?? DEFAULT_MOCK_REPLY, model);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(answer.status ?? 200, {
      'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
      ...CORS_HEADERS,
      ...answer.headers,
    });
    res.end(text);
  };

  const server = await listenLocal((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`mock judge server error: ${String(error)}`);
    });
  });

  return {
    url: server.origin,
    requests,
    script,
    get maxInFlight() {
      return maxInFlight;
    },
    get inFlight() {
      return inFlight;
    },
    get held() {
      return heldQueue.length;
    },
    hold() {
      holding = true;
    },
    release(count?: number) {
      if (count === undefined) holding = false;
      const released = heldQueue.splice(0, count ?? heldQueue.length);
      for (const answer of released) answer();
      changed();
    },
    waitFor(ready: () => boolean) {
      if (ready()) return Promise.resolve();
      return new Promise<void>((resolve) => watchers.push({ ready, resolve }));
    },
    close: server.close,
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
