/**
 * A local imitation of the Hugging Face Hub for tests and the bench, on two origins as the real
 * one works: the Hub (tree API with Link pagination; resolve URLs answering 302) and a file host
 * (the redirect target, serving byte ranges with CORS). Every request is logged with the bytes
 * sent and whether it carried an Authorization header, so tests can count requests and bytes per
 * lookup, prove no media byte was sent and that the token never reached the file host. The Hub's
 * limits (hub-limits.ts: request windows, 503 bursts, a gated dataset, expiring signed URLs) are
 * switched per test.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hubLimits, LIMIT_HEADERS, type HubLimits, type HubLimitsConfig, type HubRoute } from './hub-limits.ts';
import { listenLocal } from './local-server.ts';
import { mediaOverlap } from './source-shards.ts';
import { sha256HexSync } from '../../src/adapters/node/sha256.ts';

export interface HubRequest {
  origin: 'hub' | 'files';
  method: string;
  path: string;
  status: number;
  /** [start, end) of a range request. */
  range?: [number, number];
  /** Body bytes sent. */
  bytes: number;
  /** Bytes sent that belong to media column chunks. */
  mediaBytes: number;
  /** The request carried an Authorization header. */
  authorization: boolean;
}

export interface MockHubOptions {
  dataset?: string;
  revision?: string;
  /** Repository path -> bytes. */
  files: ReadonlyMap<string, Uint8Array>;
  /** Media column chunk ranges per path (for mediaBytes in the log). */
  mediaRanges?: ReadonlyMap<string, ReadonlyArray<{ start: number; end: number }>>;
  /** Tree entries per page (the Hub pages at 1,000; small here so pagination is exercised). */
  pageSize?: number;
  /** The Hub's limits from the start (they can be changed later through `limits.config`). */
  limits?: HubLimitsConfig;
  /** The clock of windows and signed-URL expiry (a test's fake clock). */
  now?: () => number;
}

export interface MockHub {
  /** The Hub's origin: the value of HF_ENDPOINT. */
  endpoint: string;
  /** The file host's origin (where resolve redirects to). */
  fileOrigin: string;
  log: HubRequest[];
  /** Behaviour switches for error tests. */
  mode: { ignoreRange: boolean; filesDown: boolean };
  /**
   * After `count` more file-host requests are answered, the rest wait until `release()` (a read
   * caught in the middle, for Stop tests, whatever the machine's speed).
   */
  holdAfter(count: number): { release(): void };
  /** Makes every file-host URL handed out so far invalid (as signed URLs expire). */
  expireSignedUrls(): void;
  /** Rate windows, 503 bursts, gating, signed-URL lifetime. */
  limits: HubLimits;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': `Link, X-Repo-Commit, Content-Range, Content-Length, ETag, Accept-Ranges, ${LIMIT_HEADERS}`,
};

const sha256 = (b: Uint8Array) => sha256HexSync(b);
const gitOid = (b: Uint8Array) =>
  createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${b.byteLength}\0`), b]))
    .digest('hex');

export async function startMockHub(options: MockHubOptions): Promise<MockHub> {
  const dataset = options.dataset ?? 'aurora2424/Epstein-Files';
  const revision = options.revision ?? 'main';
  const pageSize = options.pageSize ?? 3;
  const log: HubRequest[] = [];
  const mode = { ignoreRange: false, filesDown: false };
  const limits = hubLimits(options.limits ?? {}, options.now);
  let generation = 1;
  const lfs = new Map([...options.files].map(([p, b]) => [p, { sha: sha256(b), size: b.byteLength }]));
  const readme = new TextEncoder().encode('---\nlicense: other\n---\n# Mock dataset\n');
  const dirs = [...new Set([...options.files.keys()].flatMap((p) => p.split('/').slice(0, -1)))];
  const entries: unknown[] = [
    { type: 'file', oid: gitOid(new Uint8Array(10)), size: 10, path: '.gitattributes' },
    { type: 'file', oid: gitOid(readme), size: readme.byteLength, path: 'README.md' },
    ...dirs.map((d) => ({ type: 'directory', oid: '0'.repeat(40), size: 0, path: d })),
    ...[...lfs].map(([p, l]) => ({
      type: 'file',
      oid: gitOid(new TextEncoder().encode(`version https://git-lfs.github.com/spec/v1\noid sha256:${l.sha}\n`)),
      size: l.size,
      lfs: { oid: l.sha, size: l.size, pointerSize: 134 },
      path: p,
    })),
  ];

  let hold: { left: number; until: Promise<void> } | undefined;
  const files = await listenLocal((req, res) => {
    if (hold && req.method !== 'OPTIONS' && hold.left-- <= 0) void hold.until.then(() => serveFile(req, res));
    else serveFile(req, res);
  });
  const fileOrigin = files.origin;
  const hub = await listenLocal((req, res) => serveHub(req, res));
  const endpoint = hub.origin;

  /** The limits' own answer (503, 401/403, 429), logged; undefined when the request goes on. */
  function limited(route: HubRoute, req: IncomingMessage, res: ServerResponse, path: string): boolean {
    const status = limits.intercept(route, req.headers, res);
    if (status === undefined) return false;
    record({ origin: route === 'files' ? 'files' : 'hub', method: req.method ?? 'GET', path, status, bytes: 0, req });
    return true;
  }

  function record(
    entry: Omit<HubRequest, 'mediaBytes' | 'authorization'> & { file?: string; req: IncomingMessage },
  ): void {
    const ranges = entry.file ? options.mediaRanges?.get(entry.file) : undefined;
    const media =
      ranges && entry.bytes > 0
        ? mediaOverlap(ranges, entry.range?.[0] ?? 0, entry.range?.[1] ?? options.files.get(entry.file!)!.byteLength)
        : 0;
    const { file: _, req, ...rest } = entry;
    log.push({ ...rest, mediaBytes: media, authorization: req.headers.authorization !== undefined });
  }

  function serveHub(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', endpoint);
    for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-headers': 'Range, Accept, Authorization',
        'access-control-allow-methods': 'GET, HEAD',
      });
      res.end();
      return;
    }
    const route: HubRoute = url.pathname.startsWith('/api/') ? 'api' : 'resolve';
    if (limited(route, req, res, url.pathname)) return;
    const notFound = () => {
      const body = JSON.stringify({ error: 'Repository not found' });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(body);
      record({ origin: 'hub', method: req.method ?? 'GET', path: url.pathname, status: 404, bytes: body.length, req });
    };
    if (url.pathname.startsWith(`/api/datasets/${dataset}/tree/`)) {
      const rev = decodeURIComponent(url.pathname.slice(`/api/datasets/${dataset}/tree/`.length).split('/')[0]!);
      if (rev !== revision || url.searchParams.get('recursive') !== 'true') return notFound();
      const from = Number(url.searchParams.get('cursor') ?? 0);
      const page = entries.slice(from, from + pageSize);
      const body = JSON.stringify(page);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (from + pageSize < entries.length) {
        const next = new URL(url.href);
        next.searchParams.set('cursor', String(from + pageSize));
        headers.link = `<${next.href}>; rel="next"`;
      }
      res.writeHead(200, headers);
      res.end(body);
      record({ origin: 'hub', method: 'GET', path: url.pathname + url.search, status: 200, bytes: body.length, req });
      return;
    }
    if (url.pathname.startsWith(`/datasets/${dataset}/resolve/`)) {
      const rest = url.pathname.slice(`/datasets/${dataset}/resolve/`.length);
      const [rev, ...parts] = rest.split('/');
      const filePath = parts.map(decodeURIComponent).join('/');
      if (decodeURIComponent(rev ?? '') !== revision) return notFound();
      const l = lfs.get(filePath);
      if (!l) return notFound();
      const location = `${fileOrigin}/xet/${l.sha}/${parts.join('/')}?${limits.sign(generation)}`;
      res.writeHead(302, { location, 'x-repo-commit': 'f'.repeat(40), 'x-linked-size': String(l.size) });
      res.end();
      record({ origin: 'hub', method: req.method ?? 'GET', path: url.pathname, status: 302, bytes: 0, req });
      return;
    }
    notFound();
  }

  function serveFile(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', fileOrigin);
    for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-headers': 'Range, Accept',
        'access-control-allow-methods': 'GET, HEAD',
      });
      res.end();
      return;
    }
    const m = /^\/xet\/[0-9a-f]{64}\/(.+)$/.exec(url.pathname);
    const filePath = m ? m[1]!.split('/').map(decodeURIComponent).join('/') : '';
    const bytes = options.files.get(filePath);
    const fail = (status: number) => {
      res.writeHead(status);
      res.end();
      record({ origin: 'files', method: req.method ?? 'GET', path: url.pathname, status, bytes: 0, req });
    };
    if (mode.filesDown) return fail(503);
    if (limited('files', req, res, url.pathname)) return;
    if (!bytes) return fail(404);
    if (!limits.signed(url.searchParams, generation)) return fail(403);
    res.setHeader('accept-ranges', 'bytes');
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!range || mode.ignoreRange) {
      res.writeHead(200, { 'content-length': String(bytes.byteLength) });
      if (req.method === 'HEAD') {
        res.end();
        record({ origin: 'files', method: 'HEAD', path: filePath, status: 200, bytes: 0, req });
        return;
      }
      // The whole file is offered; a careful client cancels, so count what actually went out.
      let sent = 0;
      const chunk = 64 * 1024;
      const pump = () => {
        while (sent < bytes.byteLength) {
          const part = bytes.subarray(sent, Math.min(bytes.byteLength, sent + chunk));
          sent += part.byteLength;
          if (!res.write(part)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () =>
        record({
          origin: 'files',
          method: 'GET',
          path: filePath,
          status: 200,
          range: [0, sent],
          bytes: sent,
          file: filePath,
          req,
        }),
      );
      pump();
      return;
    }
    const start = Number(range[1]);
    const end = Math.min(bytes.byteLength - 1, Number(range[2]));
    if (start > end) return fail(416);
    const body = bytes.subarray(start, end + 1);
    res.writeHead(206, {
      'content-length': String(body.byteLength),
      'content-range': `bytes ${start}-${end}/${bytes.byteLength}`,
    });
    res.end(body);
    record({
      origin: 'files',
      method: 'GET',
      path: filePath,
      status: 206,
      range: [start, end + 1],
      bytes: body.byteLength,
      file: filePath,
      req,
    });
  }

  return {
    endpoint,
    fileOrigin,
    log,
    mode,
    holdAfter(count) {
      let release = () => {};
      const until = new Promise<void>((resolve) => (release = resolve));
      hold = { left: count, until };
      return {
        release: () => {
          hold = undefined;
          release();
        },
      };
    },
    expireSignedUrls: () => void generation++,
    limits,
    close: async () => {
      await Promise.all([hub.close(), files.close()]);
    },
  };
}

/** Requests and bytes of a slice of the log. */
export function tally(entries: readonly HubRequest[]): {
  requests: number;
  hubRequests: number;
  fileRequests: number;
  bytes: number;
  mediaBytes: number;
} {
  return {
    requests: entries.length,
    hubRequests: entries.filter((e) => e.origin === 'hub').length,
    fileRequests: entries.filter((e) => e.origin === 'files').length,
    bytes: entries.reduce((n, e) => n + e.bytes, 0),
    mediaBytes: entries.reduce((n, e) => n + e.mediaBytes, 0),
  };
}
