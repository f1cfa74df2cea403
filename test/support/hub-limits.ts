/**
 * The Hub's limits for the mock Hubs (mock-hub.ts, real-scale-hub.ts), switched per test: fixed
 * request windows per budget (resolve and API apart, as the Hub counts them; the file host only
 * when asked) answering 429 with Retry-After and RateLimit headers past the budget and stating
 * RateLimit + RateLimit-Policy on normal answers; bursts of 503; a gated dataset (401 without
 * the right bearer token, 403 with a wrong one); signed file-host URLs that expire.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

export type HubRoute = 'api' | 'resolve' | 'files';

export interface RateWindowOptions {
  /** Requests each budget allows per window. */
  requests: number;
  /** The API's budget when it differs (the Hub allows fewer: 500 against 3,000 anonymous). */
  apiRequests?: number;
  windowMs: number;
  /** The file host counts too, in its own window (the real Hub's does not). */
  files?: boolean;
  /** Send Retry-After with a 429 (else only the RateLimit header says when). */
  retryAfter?: boolean;
  /** State RateLimit + RateLimit-Policy on normal answers (else only a 429 tells). */
  announce?: boolean;
}

export interface HubLimitsConfig {
  rateLimit?: RateWindowOptions;
  /** The bearer token a gated dataset wants (requests to the Hub without it: 401, with another: 403). */
  gatedToken?: string;
  /** Signed file-host URLs stop working this long after the resolve that gave them. */
  signedUrlTtlMs?: number;
}

export interface HubLimits {
  /** Changed by tests between reads. */
  config: HubLimitsConfig;
  /** The next `count` requests to `origin` answer 503 (with Retry-After when `retryAfterS` is given). */
  unavailable(count: number, options?: { retryAfterS?: number; origin?: 'hub' | 'files' }): void;
  /** 429s answered so far. */
  refused: { count: number };
  /**
   * Answers the request when a limit applies (503, 401/403, 429) and says so; otherwise sets the
   * RateLimit headers on `res` and says false.
   */
  intercept(route: HubRoute, headers: IncomingHttpHeaders, res: ServerResponse): number | undefined;
  /** A query that signs a file-host URL (with its expiry when signed URLs expire). */
  sign(generation: number): string;
  /** Whether a file-host URL's signature is current. */
  signed(search: URLSearchParams, generation: number): boolean;
}

const POLICY: Record<HubRoute, string> = { api: 'api', resolve: 'resolvers', files: 'files' };

export const LIMIT_HEADERS = 'RateLimit, RateLimit-Policy, Retry-After';

export function hubLimits(config: HubLimitsConfig = {}, now: () => number = () => Date.now()): HubLimits {
  const windows = new Map<HubRoute, { start: number; used: number }>();
  let burst: { left: number; retryAfterS?: number; origin: 'hub' | 'files' } | undefined;
  const refused = { count: 0 };
  const limits: HubLimits = { config, refused, unavailable, intercept, sign, signed };

  function unavailable(count: number, options: { retryAfterS?: number; origin?: 'hub' | 'files' } = {}): void {
    burst = {
      left: count,
      origin: options.origin ?? 'files',
      ...(options.retryAfterS === undefined ? {} : { retryAfterS: options.retryAfterS }),
    };
  }

  function quota(route: HubRoute): number | undefined {
    const r = limits.config.rateLimit;
    if (!r || (route === 'files' && !r.files)) return undefined;
    return route === 'api' ? (r.apiRequests ?? r.requests) : r.requests;
  }

  /** This request's place in its window: how many are left after it, and the seconds to the reset. */
  function count(route: HubRoute, q: number, windowMs: number): { left: number; resetS: number } {
    const t = now();
    let w = windows.get(route);
    if (!w || t >= w.start + windowMs) windows.set(route, (w = { start: t, used: 0 }));
    w.used++;
    return { left: q - w.used, resetS: Math.max(1, Math.ceil((w.start + windowMs - t) / 1000)) };
  }

  function intercept(route: HubRoute, headers: IncomingHttpHeaders, res: ServerResponse): number | undefined {
    const origin = route === 'files' ? 'files' : 'hub';
    if (burst && burst.origin === origin && burst.left > 0) {
      burst.left--;
      res.writeHead(503, burst.retryAfterS === undefined ? {} : { 'retry-after': String(burst.retryAfterS) });
      res.end();
      return 503;
    }
    const gated = limits.config.gatedToken;
    if (gated !== undefined && origin === 'hub') {
      const given = headers.authorization;
      if (given !== `Bearer ${gated}`) {
        const status = given ? 403 : 401;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: given ? 'no access to this gated dataset' : 'authentication required' }));
        return status;
      }
    }
    const q = quota(route);
    const r = limits.config.rateLimit;
    if (q === undefined || !r) return undefined;
    const { left, resetS } = count(route, q, r.windowMs);
    const name = POLICY[route];
    const policy = `"fixed window";"${name}";q=${q};w=${Math.max(1, Math.ceil(r.windowMs / 1000))}`;
    if (left < 0) {
      refused.count++;
      res.writeHead(429, {
        ratelimit: `"${name}";r=0;t=${resetS}`,
        'ratelimit-policy': policy,
        ...(r.retryAfter === false ? {} : { 'retry-after': String(resetS) }),
        'content-type': 'application/json',
      });
      res.end('{"error":"rate limited"}');
      return 429;
    }
    if (r.announce !== false) {
      res.setHeader('ratelimit', `"${name}";r=${left};t=${resetS}`);
      res.setHeader('ratelimit-policy', policy);
    }
    return undefined;
  }

  function sign(generation: number): string {
    const ttl = limits.config.signedUrlTtlMs;
    return `sig=g${generation}${ttl === undefined ? '' : `&expires=${now() + ttl}`}`;
  }

  function signed(search: URLSearchParams, generation: number): boolean {
    if (search.get('sig') !== `g${generation}`) return false;
    const expires = search.get('expires');
    return expires === null || now() < Number(expires);
  }

  return limits;
}
