/**
 * The Content-Security-Policy of the site and the headers that carry it. The pages' policy is
 * also written into every built HTML page as a meta tag (for static hosts that cannot set
 * headers); frame-ancestors can only travel as a header. Each worker script gets its own policy
 * (a worker runs under the policy delivered with its script, not its page's) with only what it
 * needs (WORKER_SCRIPT).
 */
import type { Plugin } from 'vite';
import { requestUrl } from './static-files.ts';

/** Remote sources the user may choose: a release URL, the judge, an embeddings endpoint, the Hugging Face hub. */
const CONNECT = "connect-src 'self' https: http://localhost:* http://127.0.0.1:*";

const COMMON = [
  "default-src 'self'",
  CONNECT,
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

/** The pages (index.html, embed/index.html): no inline script or style, no eval, no wasm. */
export const PAGE_POLICY = [...COMMON, "script-src 'self'", "style-src 'self'", "worker-src 'self'"].join('; ');

/**
 * What each worker script may run besides the site's own scripts, by the file name Vite gives it.
 * The data worker evaluates strings: apache-arrow compiles the null test of its vector builders
 * with `new Function` (DuckDB's own worker bundle carries the same code but, as the explorer uses
 * it, never reaches it). DuckDB's worker and the search worker (onnxruntime, the Hamming scan)
 * instantiate WebAssembly. The score worker needs neither.
 */
const WORKER_SCRIPT: ReadonlyArray<[RegExp, string]> = [
  [/\/assets\/data\.worker-[^/]*\.js$/, "'unsafe-eval'"],
  [/\/assets\/duckdb-browser-[a-z]+\.worker-[^/]*\.js$/, "'wasm-unsafe-eval'"],
  [/\/assets\/search\.worker-[^/]*\.js$/, "'wasm-unsafe-eval'"],
];

/** The policy for a script at `pathname`, which is what governs it when it is a worker's script. */
export function workerPolicy(pathname: string): string {
  const extra = WORKER_SCRIPT.filter(([re]) => re.test(pathname)).map(([, source]) => ` ${source}`);
  return [...COMMON, `script-src 'self'${extra.join('')}`, "worker-src 'self'"].join('; ');
}

function isEmbed(pathname: string): boolean {
  return pathname === '/embed' || pathname.startsWith('/embed/');
}

/**
 * The security headers of a response, by URL path (the site's base being '/'): every page but
 * the embed page may not be framed by another site (clickjacking of "clear cache" or "remember
 * key"); the embed page may be framed by any site, which is its purpose.
 */
export function securityHeaders(pathname: string): Record<string, string> {
  if (pathname.endsWith('.js')) return { 'Content-Security-Policy': workerPolicy(pathname) };
  if (isEmbed(pathname)) return { 'Content-Security-Policy': PAGE_POLICY };
  return {
    'Content-Security-Policy': `${PAGE_POLICY}; frame-ancestors 'none'`,
    'X-Frame-Options': 'DENY',
  };
}

/**
 * Vite plugin: writes the pages' policy as a meta tag into the built HTML, and sends the
 * headers from `vite preview` (what `npm start` runs). The dev server sends none: it injects
 * styles and its client inline.
 */
export function securityHeadersPlugin(): Plugin {
  return {
    name: 'epstein-bench-security-headers',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (ctx.server) return [];
        return [
          {
            tag: 'meta',
            attrs: { 'http-equiv': 'Content-Security-Policy', content: PAGE_POLICY },
            injectTo: 'head-prepend',
          },
        ];
      },
    },
    configurePreviewServer(server) {
      server.middlewares.use((req, res, next) => {
        const pathname = requestUrl(req)?.pathname ?? '/';
        for (const [name, value] of Object.entries(securityHeaders(pathname))) res.setHeader(name, value);
        next();
      });
    },
  };
}
