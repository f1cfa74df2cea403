import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/jsonl; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.parquet': 'application/vnd.apache.parquet',
  '.bin': 'application/octet-stream',
  '.onnx': 'application/octet-stream',
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Precompressed copies the build writes beside a file, in the order we prefer them. */
export const ENCODINGS: ReadonlyArray<{ name: 'br' | 'gzip'; suffix: string }> = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
];

export interface StaticOptions {
  /** Headers sent with every answer (CORS for a test release host, a Content-Security-Policy, ...). */
  headers?: Record<string, string> | ((rel: string) => Record<string, string>);
  /** Serve `<file>.br` / `<file>.gz` when the client accepts them and the request is not a range. */
  precompressed?: boolean;
  /** Cache-Control per path below the prefix; `no-cache` (revalidate every time) by default. */
  cacheControl?: (rel: string) => string;
  /** Told about every answer: for benches and tests that count what went over the wire. */
  onServed?: (entry: ServedEntry) => void;
}

/**
 * The URL a request names, or undefined when it names none. The target is joined to an origin
 * rather than resolved against it: `//x` is a path here, where `new URL('//x', base)` takes it
 * for a host (and `//` throws, which would end the server).
 */
export function requestUrl(req: IncomingMessage): URL | undefined {
  try {
    const target = req.url ?? '/';
    return new URL(target.startsWith('/') ? `http://localhost${target}` : target);
  } catch {
    return undefined;
  }
}

export interface ServedEntry {
  url: string;
  method: string;
  status: number;
  range?: string;
  encoding?: string;
  /** Body bytes sent (compressed size when encoded). */
  bytes: number;
}

function accepted(req: IncomingMessage): Set<string> {
  const header = String(req.headers['accept-encoding'] ?? '');
  return new Set(
    header
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
      .map(([name]) => name!.trim().toLowerCase()),
  );
}

function fileSize(file: string): { size: number; mtimeMs: number } | undefined {
  try {
    const st = statSync(file);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves files below `root` for URLs below `prefix`: HEAD, single Range requests (hyparquet
 * reads parquet footers and column chunks by range), validators (ETag, Last-Modified, 304),
 * and optionally the build's precompressed copies with Content-Encoding. A range is always
 * served from the plain file, as are HEAD answers of files that are range-read. Returns false
 * when the URL is not ours so the caller can pass it on. The legacy fifth argument is a set of
 * extra headers.
 */
export function serveStatic(
  root: string,
  prefix: string,
  req: IncomingMessage,
  res: ServerResponse,
  optionsOrHeaders: StaticOptions | Record<string, string> = {},
): boolean {
  const options: StaticOptions =
    'headers' in optionsOrHeaders ||
    'precompressed' in optionsOrHeaders ||
    'cacheControl' in optionsOrHeaders ||
    'onServed' in optionsOrHeaders
      ? (optionsOrHeaders as StaticOptions)
      : { headers: optionsOrHeaders as Record<string, string> };
  const url = requestUrl(req);
  if (!url) {
    res.statusCode = 400;
    res.end('bad request target');
    return true;
  }
  if (!url.pathname.startsWith(prefix)) return false;
  let rel: string;
  try {
    rel = decodeURIComponent(url.pathname.slice(prefix.length));
  } catch {
    res.statusCode = 400;
    res.end('bad path');
    return true;
  }
  const extra = typeof options.headers === 'function' ? options.headers(rel) : (options.headers ?? {});
  for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
  const served = (status: number, bytes: number, encoding?: string) =>
    options.onServed?.({
      url: url.pathname + url.search,
      method: req.method ?? 'GET',
      status,
      range: req.headers.range,
      encoding,
      bytes,
    });
  const file = path.resolve(root, rel);
  if (!file.startsWith(path.resolve(root) + path.sep)) {
    res.statusCode = 403;
    res.end('forbidden');
    served(403, 9);
    return true;
  }
  const plain = fileSize(file);
  if (!plain) {
    res.statusCode = 404;
    res.end('not found');
    served(404, 9);
    return true;
  }
  const etag = `"${plain.size.toString(16)}-${Math.floor(plain.mtimeMs).toString(16)}"`;
  res.setHeader('Content-Type', TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', options.cacheControl?.(rel) ?? 'no-cache');
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', new Date(plain.mtimeMs).toUTCString());

  const rangeHeader = req.headers.range;
  let encoding: (typeof ENCODINGS)[number] | undefined;
  let bodyFile = file;
  let size = plain.size;
  if (options.precompressed) {
    const variants = ENCODINGS.filter((e) => fileSize(file + e.suffix));
    if (variants.length > 0) res.setHeader('Vary', 'Accept-Encoding');
    if (!rangeHeader) {
      const ok = accepted(req);
      encoding = variants.find((e) => ok.has(e.name));
      if (encoding) {
        bodyFile = file + encoding.suffix;
        size = fileSize(bodyFile)!.size;
        res.setHeader('Content-Encoding', encoding.name);
      }
    }
  }
  const inm = req.headers['if-none-match'];
  // Also for ranges: the browser revalidates the parts of a parquet file it keeps.
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    res.statusCode = 304;
    res.removeHeader('Content-Length');
    res.end();
    served(304, 0, encoding?.name);
    return true;
  }

  const range = /^bytes=(\d*)-(\d*)$/.exec(rangeHeader ?? '');
  let start = 0;
  let end = size - 1;
  if (range) {
    if (range[1] === '' && range[2] !== '') {
      start = Math.max(0, size - Number(range[2]));
    } else {
      start = Number(range[1]);
      if (range[2] !== '') end = Math.min(end, Number(range[2]));
    }
    if (start > end || start >= size) {
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${size}`);
      res.end();
      served(416, 0);
      return true;
    }
    res.statusCode = 206;
    res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
  } else {
    res.statusCode = 200;
  }
  const length = size === 0 ? 0 : end - start + 1;
  res.setHeader('Content-Length', String(length));
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    served(res.statusCode, 0, encoding?.name);
    return true;
  }
  served(res.statusCode, length, encoding?.name);
  createReadStream(bodyFile, { start, end }).pipe(res);
  return true;
}
