/**
 * Headers `npm start` sends besides the file's own (type, length, validators, encoding):
 * one function per concern, each given the path below the site root.
 */
import { securityHeaders } from './security-headers.ts';

export type HeaderRule = (rel: string) => Record<string, string>;

/** Vite names what it bundles with a content hash: those never change, so browsers keep them a year. */
export const cacheLifetime = (rel: string): string =>
  rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';

export const SITE_HEADER_RULES: HeaderRule[] = [
  () => ({ 'X-Content-Type-Options': 'nosniff' }),
  // The Content-Security-Policy and framing rules (by URL path, the site's base being '/').
  (rel) => securityHeaders(`/${rel}`),
];

export function siteHeaders(rel: string): Record<string, string> {
  return Object.assign({}, ...SITE_HEADER_RULES.map((rule) => rule(rel))) as Record<string, string>;
}
