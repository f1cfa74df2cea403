/**
 * The Hugging Face Hub at real scale for tests and the bench: the tree API (pages of 1,000, as
 * the Hub pages) and resolve redirects on one origin, the file host serving byte ranges of the
 * virtual shards of real-scale-shards.ts on another. Every answer waits `latencyMs` (a network
 * round trip), and each origin serves at most `connections` requests at once, the rest queue (a
 * browser's six connections per host). The log counts requests, bytes, footer bytes and media bytes.
 * The Hub's limits (hub-limits.ts) apply as configured: request windows, 503 bursts, gating,
 * expiring signed URLs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hubLimits, LIMIT_HEADERS, type HubLimits, type HubLimitsConfig, type HubRoute } from './hub-limits.ts';
import { listenLocal } from './local-server.ts';
import type { RealScaleShards } from './real-scale-shards.ts';
import { mediaOverlap } from './source-shards.ts';

export interface RealHubRequest {
  origin: 'hub' | 'files';
  path: string;
  status: number;
  range?: [number, number];
  bytes: number;
  footerBytes: number;
  mediaBytes: number;
  /** The request carried an Authorization header. */
  authorization?: boolean;
}

export interface RealScaleHub {
  endpoint: string;
  fileOrigin: string;
  log: RealHubRequest[];
  /** Latency of each answer; may be changed between runs. */
  latency: { ms: number };
  /** Requests that were answered with nothing (the silent server). */
  mode: { silent: boolean };
  /**
   * Milliseconds this process spent making the answers (writing footers and row groups), latency
   * excluded. The mock runs in the client's process, so a client's wall time minus this is what
   * the client would have waited for a Hub whose files already exist.
   */
  busy: { ms: number };
  /** Rate windows, 503 bursts, gating, signed-URL lifetime. */
  limits: HubLimits;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': `Link, X-Repo-Commit, Content-Range, Content-Length, ETag, Accept-Ranges, ${LIMIT_HEADERS}`,
};

/** At most `n` handlers at once; the rest wait their turn (as requests queue on a browser's connections). */
function limiter(n: number) {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startRealScaleHub(
  shards: RealScaleShards,
  options: {
    dataset?: string;
    revision?: string;
    latencyMs?: number;
    connections?: number;
    pageSize?: number;
    limits?: HubLimitsConfig;
    /** The clock of rate windows and signed-URL expiry (a test's virtual clock). */
    now?: () => number;
  } = {},
): Promise<RealScaleHub> {
  const dataset = options.dataset ?? 'aurora2424/Epstein-Files';
  const revision = options.revision ?? 'main';
  const pageSize = options.pageSize ?? 1000;
  const latency = { ms: options.latencyMs ?? 80 };
  const mode = { silent: false };
  const busy = { ms: 0 };
  const log: RealHubRequest[] = [];
  const limits = hubLimits(options.limits ?? {}, options.now);
  /** An answer that carries no shard bytes (a listing, a redirect, a refusal). */
  const logWithoutData = (
    origin: RealHubRequest['origin'],
    path: string,
    status: number,
    req: IncomingMessage,
    bytes = 0,
  ) =>
    log.push({
      origin,
      path,
      status,
      bytes,
      footerBytes: 0,
      mediaBytes: 0,
      authorization: req.headers.authorization !== undefined,
    });

  /** The limits' own answer (503, 401/403, 429), logged: then the request is over. */
  const limited = (route: HubRoute, req: IncomingMessage, res: ServerResponse, path: string) => {
    const status = limits.intercept(route, req.headers, res);
    if (status === undefined) return false;
    logWithoutData(route === 'files' ? 'files' : 'hub', path, status, req);
    return true;
  };
  const hubSlots = limiter(options.connections ?? 6);
  const fileSlots = limiter(options.connections ?? 6);
  const oidOf = (path: string) => {
    const n = shards.paths.indexOf(path);
    return n.toString(16).padStart(64, 'a');
  };
  const entries = () => [
    { type: 'file', oid: '1'.repeat(40), size: 10, path: '.gitattributes' },
    { type: 'directory', oid: '0'.repeat(40), size: 0, path: 'data' },
    ...shards.paths.map((path) => {
      const size = shards.sizeOf(path);
      return { type: 'file', oid: '2'.repeat(40), size, lfs: { oid: oidOf(path), size, pointerSize: 134 }, path };
    }),
  ];
  let listing: unknown[] | undefined;

  const wrap =
    (slots: ReturnType<typeof limiter>, handle: (req: IncomingMessage, res: ServerResponse) => void) =>
    (req: IncomingMessage, res: ServerResponse) => {
      for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-headers': 'Range, Accept, Authorization',
          'access-control-allow-methods': 'GET, HEAD',
        });
        res.end();
        return;
      }
      if (mode.silent) return; // never answers
      void slots(async () => {
        await sleep(latency.ms);
        const t = performance.now();
        handle(req, res);
        busy.ms += performance.now() - t;
      });
    };

  const files = await listenLocal(
    wrap(fileSlots, (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const m = /^\/xet\/[0-9a-f]{64}\/(.+)$/.exec(url.pathname);
      const path = m ? decodeURIComponent(m[1]!) : '';
      if (limited('files', req, res, path)) return;
      const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (!limits.signed(url.searchParams, 1)) {
        res.writeHead(403);
        res.end();
        logWithoutData('files', path, 403, req);
        return;
      }
      if (!shards.paths.includes(path) || !range) {
        res.writeHead(range ? 404 : 416);
        res.end();
        logWithoutData('files', path, range ? 404 : 416, req);
        return;
      }
      const v = shards.shard(path);
      const start = Number(range[1]);
      const end = Math.min(v.size - 1, Number(range[2])) + 1;
      const body = v.read(start, end);
      res.writeHead(206, {
        'content-length': String(body.byteLength),
        'content-range': `bytes ${start}-${end - 1}/${v.size}`,
      });
      res.end(body);
      log.push({
        origin: 'files',
        path,
        status: 206,
        range: [start, end],
        bytes: body.byteLength,
        footerBytes: Math.max(0, end - Math.max(start, v.footerStart)),
        mediaBytes: mediaOverlap(v.media, start, end),
        authorization: req.headers.authorization !== undefined,
      });
    }),
  );
  const hub = await listenLocal(
    wrap(hubSlots, (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const treePrefix = `/api/datasets/${dataset}/tree/${revision}`;
      const resolvePrefix = `/datasets/${dataset}/resolve/${revision}/`;
      if (limited(url.pathname.startsWith('/api/') ? 'api' : 'resolve', req, res, url.pathname)) return;
      if (url.pathname === treePrefix) {
        listing ??= entries();
        const from = Number(url.searchParams.get('cursor') ?? 0);
        const body = JSON.stringify(listing.slice(from, from + pageSize));
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (from + pageSize < listing.length) {
          const next = new URL(`${hub.origin}${url.pathname}${url.search}`);
          next.searchParams.set('cursor', String(from + pageSize));
          headers.link = `<${next.href}>; rel="next"`;
        }
        res.writeHead(200, headers);
        res.end(body);
        logWithoutData('hub', url.pathname, 200, req, body.length);
        return;
      }
      if (url.pathname.startsWith(resolvePrefix)) {
        const path = decodeURIComponent(url.pathname.slice(resolvePrefix.length));
        if (shards.paths.includes(path)) {
          res.writeHead(302, {
            location: `${files.origin}/xet/${oidOf(path)}/${encodeURIComponent(path)}?${limits.sign(1)}`,
          });
          res.end();
          logWithoutData('hub', path, 302, req);
          return;
        }
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not found"}');
      logWithoutData('hub', url.pathname, 404, req, 21);
    }),
  );
  return {
    endpoint: hub.origin,
    fileOrigin: files.origin,
    log,
    latency,
    mode,
    busy,
    limits,
    close: async () => {
      await Promise.all([hub.close(), files.close()]);
    },
  };
}

/** Requests, bytes, footer bytes and media bytes of a slice of the log. */
export function realTally(entries: readonly RealHubRequest[]) {
  return {
    requests: entries.length,
    hub: entries.filter((e) => e.origin === 'hub').length,
    files: entries.filter((e) => e.origin === 'files').length,
    bytes: entries.reduce((n, e) => n + e.bytes, 0),
    footerBytes: entries.reduce((n, e) => n + e.footerBytes, 0),
    mediaBytes: entries.reduce((n, e) => n + e.mediaBytes, 0),
  };
}
