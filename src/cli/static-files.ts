import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/jsonl; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.parquet': 'application/vnd.apache.parquet',
  '.bin': 'application/octet-stream',
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves files below `root` for URLs below `prefix`, with HEAD and single Range requests
 * (hyparquet reads parquet footers and column chunks by range). Returns false when the URL
 * is not ours so the caller can pass it on.
 */
export function serveStatic(
  root: string,
  prefix: string,
  req: IncomingMessage,
  res: ServerResponse,
  extraHeaders: Record<string, string> = {},
): boolean {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (!url.pathname.startsWith(prefix)) return false;
  for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
  const rel = decodeURIComponent(url.pathname.slice(prefix.length));
  const file = path.resolve(root, rel);
  if (!file.startsWith(path.resolve(root) + path.sep)) {
    res.statusCode = 403;
    res.end('forbidden');
    return true;
  }
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    res.statusCode = 404;
    res.end('not found');
    return true;
  }
  res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'no-cache');
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
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
      return true;
    }
    res.statusCode = 206;
    res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
  } else {
    res.statusCode = 200;
  }
  res.setHeader('Content-Length', String(end - start + 1));
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return true;
  }
  createReadStream(file, { start, end }).pipe(res);
  return true;
}
