/**
 * The source worker's API: document lookups for the page, one HfSourceDocs per settings, the
 * release's locator when it ships one, and outcomes as plain data (errors never cross as throws).
 */
import { errorMessage } from '../error-message.ts';
import { MemorySourceCache, type SourceCache } from './cache.ts';
import { SourceError, type FetchFn, type SourceErrorKind } from './http.ts';
import type { SourceLocator } from './locator.ts';
import { SYSTEM_CLOCK, waitingProgress, type RateClock, type RateWait } from './rate-gate.ts';
import type { SourceCheckReport } from './source-check.ts';
import {
  HfSourceDocs,
  type BatchEstimate,
  type BatchProgress,
  type BatchResult,
  type LookupProgress,
  type SourceDoc,
} from './lookup.ts';
import { checkToken, SettingsError, settingsFrom, settingsKey, type HfSourceSettings } from './settings.ts';

export type SourceLookupOutcome =
  | { ok: true; doc: SourceDoc; usedLocator: boolean }
  | { ok: false; kind: SourceErrorKind | 'missing' | 'internal'; error: string };

type SourceFailure = { ok: false; kind: SourceErrorKind | 'internal'; error: string };

/** A batch read as plain data (Maps cross a worker boundary as they are). */
export type SourceBatchOutcome = ({ ok: true } & BatchResult) | SourceFailure;

export type SourceEstimateOutcome = { ok: true; estimate: BatchEstimate } | SourceFailure;

/** The source check's report with its lines as the CLI prints them (the page shows those). */
export type SourceCheckOutcome = { ok: true; report: SourceCheckReport; lines: string[] } | SourceFailure;

/** Where a source check is: its last step in words, and the wait on the Hub while there is one. */
export interface SourceCheckProgress {
  message: string;
  waiting?: RateWait;
}

/** Footers a source check reads by default (as the CLI's --sample). */
export const CHECK_SAMPLE = 5;

function failure(e: unknown): SourceFailure {
  if (e instanceof SourceError) return { ok: false, kind: e.kind, error: e.message };
  if (e instanceof SettingsError) return { ok: false, kind: 'settings', error: e.message };
  return { ok: false, kind: 'internal', error: errorMessage(e) };
}

/** docs.readMany as an outcome: a source that cannot be listed or reached answers { ok: false }. */
export async function readBatch(
  docs: HfSourceDocs,
  ids: readonly string[],
  onProgress?: (p: BatchProgress) => void,
  signal?: AbortSignal,
): Promise<SourceBatchOutcome> {
  try {
    return { ok: true, ...(await docs.readMany(ids, onProgress, signal)) };
  } catch (e) {
    return failure(e);
  }
}

/**
 * A fetch and a clock that `signal` stops: requests under way and waits on the Hub end with its
 * reason (for reads that take no signal of their own, as the source check).
 */
function stoppable(fetchFn: FetchFn, clock: RateClock, signal: AbortSignal): { fetch: FetchFn; clock: RateClock } {
  const both = (other: AbortSignal | null | undefined) => (other ? AbortSignal.any([other, signal]) : signal);
  return {
    fetch: (input, init) =>
      signal.aborted ? Promise.reject(signal.reason) : fetchFn(input, { ...init, signal: both(init?.signal) }),
    clock: { now: () => clock.now(), random: () => clock.random(), sleep: (ms, s) => clock.sleep(ms, both(s)) },
  };
}

export function createSourceDocsService(openCache: () => Promise<SourceCache>, fetchFn: FetchFn) {
  let cache: Promise<SourceCache> | undefined;
  let locator: SourceLocator | undefined;
  let current: { key: string; docs: HfSourceDocs } | undefined;
  /** The Hub token the user gave (in this worker's memory only); a new one starts a new session. */
  let token: string | undefined;
  /** Lookups under way, so that Cancel can stop them. */
  const running = new Set<AbortController>();
  /** Source checks under way (their own Cancel: a document's Cancel does not stop them). */
  const checking = new Set<AbortController>();

  // Storage can be refused (private windows, quota): then lookups still work, in memory.
  const cacheReady = () => (cache ??= openCache().catch(() => new MemorySourceCache()));

  async function docsFor(settings: HfSourceSettings): Promise<HfSourceDocs> {
    const key = settingsKey(settings);
    if (current?.key !== key)
      current = {
        key,
        docs: new HfSourceDocs({
          settings,
          fetch: fetchFn,
          cache: await cacheReady(),
          locator,
          ...(token ? { token } : {}),
        }),
      };
    return current.docs;
  }

  return {
    /**
     * The Hub token for the lookups that follow (undefined: none). It never leaves this worker's
     * memory: not the cache, not the session key, not an outcome. Throws SettingsError for a value
     * that cannot be a token.
     */
    setToken(next: string | undefined): void {
      const checked = checkToken(next);
      if (checked === token) return;
      token = checked;
      current = undefined;
    },

    /** The loaded release's locator (or none); lookups after this use it. */
    setLocator(next: SourceLocator | undefined): void {
      locator = next;
      current = undefined;
    },

    async lookup(
      values: Partial<HfSourceSettings>,
      docId: string,
      onProgress?: (p: LookupProgress) => void,
    ): Promise<SourceLookupOutcome> {
      const stop = new AbortController();
      running.add(stop);
      try {
        const docs = await docsFor(settingsFrom(values));
        const doc = await docs.get(docId, onProgress, stop.signal);
        if (!doc)
          return {
            ok: false,
            kind: 'missing',
            error: `${docId} is not in ${docs.settings.dataset} at revision ${docs.settings.revision}: no row has this doc_id`,
          };
        return { ok: true, doc, usedLocator: docs.usesLocator };
      } catch (e) {
        return failure(e);
      } finally {
        running.delete(stop);
      }
    },

    /**
     * The texts of many documents (the audit): row groups read once, texts kept in the cache so
     * that a reload goes on from them. Cancel stops it; it then answers what it read (stopped).
     */
    async readMany(
      values: Partial<HfSourceSettings>,
      ids: readonly string[],
      onProgress?: (p: BatchProgress) => void,
    ): Promise<SourceBatchOutcome> {
      const stop = new AbortController();
      running.add(stop);
      try {
        return await readBatch(await docsFor(settingsFrom(values)), ids, onProgress, stop.signal);
      } catch (e) {
        return failure(e);
      } finally {
        running.delete(stop);
      }
    },

    /** What readMany would cost, from what is cached (no request). */
    async estimate(values: Partial<HfSourceSettings>, ids: readonly string[]): Promise<SourceEstimateOutcome> {
      try {
        return { ok: true, estimate: await (await docsFor(settingsFrom(values))).estimate(ids) };
      } catch (e) {
        return failure(e);
      }
    },

    /**
     * What the product depends on in this source (source-check.ts: shard list, a few footers,
     * costs and rate-limit windows), read with the token given and the same fetch as lookups;
     * nothing of it is cached. cancelCheck() stops it ({ ok: false, kind: 'cancelled' }).
     */
    async check(
      values: Partial<HfSourceSettings>,
      sample: number = CHECK_SAMPLE,
      onProgress?: (p: SourceCheckProgress) => void,
    ): Promise<SourceCheckOutcome> {
      const stop = new AbortController();
      checking.add(stop);
      const progress = waitingProgress<SourceCheckProgress>(onProgress, {
        message: 'listing the dataset’s parquet files',
      });
      try {
        const settings = settingsFrom(values);
        const { checkSource, sourceCheckLines } = await import('./source-check.ts');
        const result = await checkSource({
          settings,
          sample,
          ...stoppable(fetchFn, SYSTEM_CLOCK, stop.signal),
          ...(token ? { token } : {}),
          onProgress: (message) => progress.report({ message }),
          onWait: progress.onWait,
        });
        // A stop while the first page was decoded ends up among the report's problems: it is a stop.
        if (stop.signal.aborted) return failure(stop.signal.reason);
        return { ok: true, report: result, lines: sourceCheckLines(result) };
      } catch (e) {
        return failure(e);
      } finally {
        checking.delete(stop);
      }
    },

    /** Stops the source checks under way. */
    cancelCheck(): void {
      for (const stop of checking) stop.abort(new SourceError('the check was stopped', 'cancelled'));
      checking.clear();
    },

    /** Stops every lookup under way; each answers { ok: false, kind: 'cancelled' }. */
    cancel(): void {
      for (const stop of running) stop.abort();
      running.clear();
    },

    /** Forgets footers, doc_id lists and locations (the settings' "clear" button). */
    async clearCache(): Promise<void> {
      await (await cacheReady()).clear();
      current = undefined;
    },
  };
}

export type SourceDocsService = ReturnType<typeof createSourceDocsService>;
