/**
 * The two Hub routes we use: the tree API (which parquet shards a dataset revision has, paginated
 * with a Link header as the Hub does) and resolve URLs (a file's bytes, after the Hub's redirect
 * to its file host).
 */
import { isShardPath, type ShardEntry } from '../release/schemas/source-locator.ts';
import { SourceError, Transfer, type TransferSession } from './http.ts';
import type { SourceLimits } from './limits.ts';
import { RateGate, type RateClock, type RateWait } from './rate-gate.ts';
import { hostOf, type HfSourceSettings } from './settings.ts';

/** One parquet file of the dataset. */
export { isShardPath, type ShardEntry };

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export function treeUrl(s: HfSourceSettings): string {
  return `${s.endpoint}/api/datasets/${encodePath(s.dataset)}/tree/${encodeURIComponent(s.revision)}?recursive=true&expand=false`;
}

export function resolveUrl(s: HfSourceSettings, path: string): string {
  return `${s.endpoint}/datasets/${encodePath(s.dataset)}/resolve/${encodeURIComponent(s.revision)}/${encodePath(path)}`;
}

/** The `rel="next"` target of a Link header, when it stays on the endpoint's origin. */
export function nextLink(header: string | null, endpoint: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const m = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (!m || !/\brel="?next"?/.test(m[2]!)) continue;
    const next = new URL(m[1]!, endpoint);
    if (next.origin !== new URL(endpoint).origin)
      throw new SourceError(`the tree API pointed its next page at another host (${next.host}); refused`, 'bad-data');
    return next.href;
  }
  return undefined;
}

function shardOf(entry: unknown): ShardEntry | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  if (e.type !== 'file' || typeof e.path !== 'string' || !isShardPath(e.path)) return undefined;
  const lfs = typeof e.lfs === 'object' && e.lfs !== null ? (e.lfs as Record<string, unknown>) : undefined;
  const size = typeof lfs?.size === 'number' ? lfs.size : e.size;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 12) return undefined;
  const oid = typeof lfs?.oid === 'string' ? lfs.oid : typeof e.oid === 'string' ? e.oid : '';
  return { path: e.path, size, oid: oid.slice(0, 128) };
}

/** Every parquet file of the revision, sorted by path. */
export async function listShards(
  s: HfSourceSettings,
  transfer: Transfer,
  limits: SourceLimits,
  onPage?: (pages: number, shards: number) => void,
): Promise<ShardEntry[]> {
  const shards: ShardEntry[] = [];
  let url: string | undefined = treeUrl(s);
  let pages = 0;
  while (url) {
    if (pages >= limits.maxListingPages)
      throw new SourceError(`the file list of ${s.dataset} has more than ${limits.maxListingPages} pages`, 'too-large');
    let page: { body: unknown; headers: Headers };
    try {
      page = await transfer.json(url, limits.maxListingPageBytes);
    } catch (e) {
      if (e instanceof SourceError && e.kind === 'not-found')
        throw new SourceError(
          `${s.dataset} at revision ${s.revision} was not found on ${new URL(s.endpoint).host}`,
          'not-found',
        );
      throw e;
    }
    pages++;
    if (!Array.isArray(page.body))
      throw new SourceError(
        `the tree API of ${new URL(s.endpoint).host} did not answer with a list of files`,
        'bad-data',
      );
    for (const entry of page.body) {
      const shard = shardOf(entry);
      if (shard) shards.push(shard);
    }
    if (shards.length > limits.maxShards)
      throw new SourceError(`${s.dataset} lists more than ${limits.maxShards} parquet files`, 'too-large');
    onPage?.(pages, shards.length);
    url = nextLink(page.headers.get('link'), s.endpoint);
  }
  if (shards.length === 0)
    throw new SourceError(`${s.dataset} at revision ${s.revision} has no parquet files`, 'not-found');
  return shards.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The budget a request counts against: the Hub's API and its resolve URLs apart (it counts them
 * apart), and any other origin (the file host it redirects to) on its own, never the Hub's.
 */
export function hubBucket(s: HfSourceSettings): (url: string) => string {
  const hub = new URL(s.endpoint);
  const api = `${hub.pathname.replace(/\/+$/, '')}/api/`;
  return (url) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return '';
    }
    if (u.origin !== hub.origin) return `files ${u.origin}`;
    return u.pathname.startsWith(api) ? 'hub api' : 'hub resolve';
  };
}

/** Where a token is given, as the messages say it: the page's panel, or the CLI's flag. */
export const TOKEN_HINT_PAGE = 'in Source settings';
export const TOKEN_HINT_CLI = 'with --hf-token-env VAR (or in $HF_TOKEN)';

/**
 * A 401/403 of the Hub: a token is needed, or the one given is refused or has no access. The Hub
 * answers 401 for a dataset that does not exist too (X-Error-Code: RepoNotFound), so as not to say
 * which private ones do: that is said as well.
 */
export function accessDeniedMessage(
  s: HfSourceSettings,
  status: 401 | 403,
  withToken: boolean,
  errorCode?: string,
  tokenHint = TOKEN_HINT_PAGE,
): string {
  const host = hostOf(s.endpoint);
  if (errorCode === 'RepoNotFound')
    return withToken
      ? `${s.dataset} was not found on ${host} (HTTP ${status}), or the Hugging Face token has no access to it: check the dataset's name and the token`
      : `${s.dataset} was not found on ${host} (HTTP ${status}): check the dataset's name; if it is private, give a Hugging Face token ${tokenHint}`;
  if (!withToken)
    return `${s.dataset} is gated or private on ${host} (HTTP ${status}): give a Hugging Face token ${tokenHint}`;
  return status === 401
    ? `${host} refused the Hugging Face token (HTTP 401): check it, or give another ${tokenHint}`
    : `the Hugging Face token has no access to ${s.dataset} on ${host} (HTTP 403): accept the dataset's conditions on its page, or use a token of an account that has access`;
}

export interface HubSessionOptions {
  settings: HfSourceSettings;
  limits: Pick<SourceLimits, 'maxRateWaitMs' | 'maxRetries' | 'retryBaseMs'>;
  clock: RateClock;
  token?: string;
  redirects?: TransferSession['redirects'];
  /** The session's waits on the Hub or its file host: one line of progress for a whole batch. */
  onWait?: (wait: RateWait | undefined) => void;
  /** Where the user gives a token, for the 401/403 messages (TOKEN_HINT_PAGE unless said). */
  tokenHint?: string;
}

/** What every transfer of one Hub session shares: its rate gate, its token, its limits. */
export function hubSession(o: HubSessionOptions): TransferSession {
  return {
    gate: new RateGate(o.clock, hubBucket(o.settings), o.onWait),
    maxRateWaitMs: o.limits.maxRateWaitMs,
    maxRetries: o.limits.maxRetries,
    retryBaseMs: o.limits.retryBaseMs,
    redirects: o.redirects ?? 'fetch',
    hubOrigin: new URL(o.settings.endpoint).origin,
    ...(o.token ? { token: o.token } : {}),
    accessDenied: (status, withToken, errorCode) =>
      accessDeniedMessage(o.settings, status, withToken, errorCode, o.tokenHint),
  };
}
