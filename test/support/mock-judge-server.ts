/**
 * A local judge endpoint for tests and e2e: speaks the OpenAI chat-completions and the Anthropic
 * Messages wire formats on 127.0.0.1 (random port), answers from a script, and records every request.
 * Browser-friendly: answers CORS preflights (not recorded, not scripted).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. Absent: a success body carrying `reply`. */
  body?: unknown;
  /** The judge's reply text for a success body in the request's wire format. */
  reply?: string;
  /** Wait before answering; cut short when the client goes away. */
  delayMs?: number;
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
  /** Most requests the server held at once. */
  readonly maxInFlight: number;
  readonly inFlight: number;
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

export async function startMockJudgeServer(options: MockJudgeServerOptions = {}): Promise<MockJudgeServer> {
  const requests: RecordedRequest[] = [];
  const script: ScriptedResponse[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS).end();
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
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
    const answer = script.shift() ?? (await options.fallback?.(recorded)) ?? {};
    if (answer.delayMs !== undefined && answer.delayMs > 0) {
      const stillThere = await waitUnlessGone(res, answer.delayMs);
      if (!stillThere) return;
    }
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

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`mock judge server error: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script,
    get maxInFlight() {
      return maxInFlight;
    },
    get inFlight() {
      return inFlight;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
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

/** Resolves true after ms, or false as soon as the client closes the connection. */
function waitUnlessGone(res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    }, ms);
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    res.once('close', onClose);
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
