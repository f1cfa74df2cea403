/**
 * What a server says about when to come back: `Retry-After` (and OpenAI's `retry-after-ms`), and
 * the IETF draft's `RateLimit` / `RateLimit-Policy` headers as the Hugging Face Hub sends them
 * (`"resolvers";r=0;t=42`, `"fixed window";"resolvers";q=3000;w=300`), or the older drafts'
 * `RateLimit-Limit` / `RateLimit-Remaining` / `RateLimit-Reset` (apart, or in one `RateLimit`).
 */

/**
 * The server's wait hint in ms: `retry-after-ms` first (OpenAI), then `Retry-After` as seconds or
 * as an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null) {
    const value = Number(ms.trim());
    if (ms.trim() !== '' && Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  const text = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its month ("Fri, 01 May 2026 12:00:10 GMT"); Date.parse would take "-5" too.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** A window's budget as a response states it; each field only when the server gave it. */
export interface RateLimitState {
  /** Requests left in the current window. */
  remaining?: number;
  /** Milliseconds until the window resets. */
  resetMs?: number;
  /** Requests a window allows (the policy's q). */
  quota?: number;
  /** The window's length in ms (the policy's w). */
  windowMs?: number;
}

/** `name=<number>` anywhere in a structured header item (`"resolvers";r=0;t=42`). */
function param(item: string, name: string): number | undefined {
  const m = new RegExp(`(?:^|[;,\\s])${name}\\s*=\\s*"?(\\d+(?:\\.\\d+)?)`, 'i').exec(item);
  return m ? Number(m[1]) : undefined;
}

function plainNumber(text: string | null): number | undefined {
  if (text === null || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  return Number(text);
}

/** An older draft's policy: the quota first, then its parameters (`100;w=60`). */
function leadingNumber(text: string): number | undefined {
  const m = /^\s*(\d+)\s*(?:;|$)/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The quoted names of a structured header item: `"fixed window";"resolvers";q=3000` has two. */
function names(item: string): string[] {
  return [...item.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
}

/**
 * The most constraining item of a list header (several policies may be named at once): the one
 * with the fewest requests left.
 */
function tightest(header: string): { remaining?: number; resetS?: number; names: string[] } | undefined {
  let best: { remaining?: number; resetS?: number; names: string[] } | undefined;
  for (const item of header.split(',')) {
    const remaining = param(item, 'r');
    const resetS = param(item, 't');
    if (remaining === undefined && resetS === undefined) continue;
    if (!best || (remaining ?? Infinity) < (best.remaining ?? Infinity))
      best = { remaining, resetS, names: names(item) };
  }
  return best;
}

/** The policy of the item named `wanted` (the first one when none is named so, or none is wanted). */
function policyItem(header: string, wanted: readonly string[]): string {
  const items = header.split(',').filter((item) => param(item, 'q') !== undefined || leadingNumber(item) !== undefined);
  return items.find((item) => names(item).some((n) => wanted.includes(n))) ?? items[0] ?? header;
}

/** What the response's rate-limit headers say; undefined when it sent none readable. */
export function parseRateLimit(headers: Headers): RateLimitState | undefined {
  const out: RateLimitState = {};
  const current = headers.get('ratelimit');
  const item = current === null ? undefined : tightest(current);
  // An older draft put the three in one header: `limit=100, remaining=50, reset=5`.
  const combined = item === undefined && current !== null ? current : undefined;
  const remaining =
    item?.remaining ??
    (combined === undefined ? undefined : param(combined, 'remaining')) ??
    plainNumber(headers.get('ratelimit-remaining'));
  const resetS =
    item?.resetS ??
    (combined === undefined ? undefined : param(combined, 'reset')) ??
    plainNumber(headers.get('ratelimit-reset'));
  if (remaining !== undefined) out.remaining = remaining;
  if (resetS !== undefined) out.resetMs = resetS * 1000;
  const header = headers.get('ratelimit-policy');
  const policy = header === null ? undefined : policyItem(header, item?.names ?? []);
  const quota =
    (policy === undefined ? undefined : (param(policy, 'q') ?? leadingNumber(policy))) ??
    (combined === undefined ? undefined : param(combined, 'limit')) ??
    plainNumber(headers.get('ratelimit-limit'));
  const windowS = policy === undefined ? undefined : param(policy, 'w');
  if (quota !== undefined) out.quota = quota;
  if (windowS !== undefined) out.windowMs = windowS * 1000;
  return Object.keys(out).length > 0 ? out : undefined;
}
