/**
 * The built site as `npm start` serves it: dist/ with the build's .br/.gz copies, a year of
 * caching for hashed assets and revalidation for the rest, ranges for parquet, and
 * directory index pages (/embed/). Benches and end-to-end tests start the same server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { cacheLifetime, siteHeaders } from './site-headers.ts';
import { requestUrl, serveStatic, type ServedEntry } from './static-files.ts';

export interface SiteServerOptions {
  root: string;
  port?: number;
  host?: string;
  /** False serves every file as it is (the design before issue 12, for the bench's comparison). */
  precompressed?: boolean;
  /** The URL path the site is served under, e.g. '/explorer/' as on a project site (default '/'). */
  base?: string;
  /** Extra folders, e.g. a release at /bench/v1.0/ (mounted before the site). */
  mounts?: Array<{ prefix: string; root: string }>;
  onServed?: (entry: ServedEntry) => void;
}

export interface SiteServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startSiteServer(options: SiteServerOptions): Promise<SiteServer> {
  const root = path.resolve(options.root);
  const precompressed = options.precompressed ?? true;
  const base = siteBase(options.base);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD');
      res.end();
      return;
    }
    const url = requestUrl(req);
    if (!url) {
      res.writeHead(400).end('bad request target');
      return;
    }
    // The base without its slash is the site too, as static hosts answer it.
    if (`${url.pathname}/` === base) {
      res.writeHead(301, { Location: `${base}${url.search}` }).end();
      return;
    }
    if (url.pathname.endsWith('/')) req.url = `${url.pathname}index.html${url.search}`;
    for (const mount of options.mounts ?? []) {
      if (serveStatic(mount.root, mount.prefix, req, res, { precompressed, onServed: options.onServed })) return;
    }
    // Headers are chosen by the path below the base (the embed page, the workers), wherever the site sits.
    const site = serveStatic(root, base, req, res, {
      precompressed,
      cacheControl: precompressed ? cacheLifetime : () => 'no-cache',
      headers: siteHeaders,
      onServed: options.onServed,
    });
    if (!site) {
      res.statusCode = 404;
      res.end(`not found: the site is served under ${base}`);
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? 'localhost', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? 'localhost'}:${port}${base}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL path with one leading and one trailing slash ('explorer' and '/explorer' give '/explorer/'). */
export function siteBase(base = '/'): string {
  const inner = base.replace(/^\/+|\/+$/g, '');
  if (/[?#\\]|(^|\/)\.\.?(\/|$)/.test(inner)) throw new Error(`not a URL path to serve the site under: ${base}`);
  return inner ? `/${inner}/` : '/';
}
