/**
 * A header-less static host, as a maintainer's simplest choices are (GitHub Pages without
 * headers of its own, `python3 -m http.server`): files with a Content-Type and a Content-Length,
 * no CSP, no cache headers, no CORS, no precompressed copies, served under `prefix` (e.g.
 * '/explorer/'). With `ranges: false` it answers a range request with 200 and the whole file,
 * as python's http.server does; with `head: false` it refuses HEAD (405).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { listenLocal } from './local-server.ts';

export interface PlainServerOptions {
  prefix?: string;
  ranges?: boolean;
  head?: boolean;
}

export interface PlainServer {
  /** The site's URL: origin + prefix. */
  url: string;
  origin: string;
  /** Every request served, in order: method, path, Range header, status. */
  log: Array<{ method: string; path: string; range?: string; status: number }>;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
};

export async function startPlainServer(root: string, options: PlainServerOptions = {}): Promise<PlainServer> {
  const prefix = options.prefix ?? '/';
  const log: PlainServer['log'] = [];
  const server = await listenLocal((req, res) => {
    const method = req.method ?? 'GET';
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const range = req.headers.range;
    const done = (status: number) => log.push({ method, path: pathname, ...(range ? { range } : {}), status });
    let file = pathname.startsWith(prefix) ? path.join(root, pathname.slice(prefix.length)) : '';
    if (file && !path.resolve(file).startsWith(path.resolve(root))) file = '';
    if (file && existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!file || !existsSync(file) || /\.(br|gz)$/.test(file)) {
      res.writeHead(404).end();
      return done(404);
    }
    if (method === 'HEAD' && options.head === false) {
      res.writeHead(405).end();
      return done(405);
    }
    const body = readFileSync(file);
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const m = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
    if (m && options.ranges !== false) {
      const start = Number(m[1]);
      const end = Math.min(m[2] ? Number(m[2]) : body.length - 1, body.length - 1);
      res.writeHead(206, {
        'Content-Type': type,
        'Content-Length': end - start + 1,
        'Content-Range': `bytes ${start}-${end}/${body.length}`,
        'Accept-Ranges': 'bytes',
      });
      res.end(method === 'HEAD' ? undefined : body.subarray(start, end + 1));
      return done(206);
    }
    res.writeHead(200, {
      'Content-Type': type,
      'Content-Length': body.length,
      ...(options.ranges !== false ? { 'Accept-Ranges': 'bytes' } : {}),
    });
    res.end(method === 'HEAD' ? undefined : body);
    done(200);
  });
  return { url: `${server.origin}${prefix}`, origin: server.origin, log, close: server.close };
}
