/**
 * The source worker's API: document lookups for the page, one HfSourceDocs per settings, the
 * release's locator when it ships one, and outcomes as plain data (errors never cross as throws).
 */
import { errorMessage } from '../error-message.ts';
import { MemorySourceCache, type SourceCache } from './cache.ts';
import { SourceError, type FetchFn, type SourceErrorKind } from './http.ts';
import type { SourceLocator } from './locator.ts';
import {
  HfSourceDocs,
  type BatchEstimate,
  type BatchProgress,
  type BatchResult,
  type LookupProgress,
  type SourceDoc,
} from './lookup.ts';
import { SettingsError, settingsFrom, settingsKey, type HfSourceSettings } from './settings.ts';

export type SourceLookupOutcome =
  | { ok: true; doc: SourceDoc; usedLocator: boolean }
  | { ok: false; kind: SourceErrorKind | 'missing' | 'internal'; error: string };

type SourceFailure = { ok: false; kind: SourceErrorKind | 'internal'; error: string };

/** A batch read as plain data (Maps cross a worker boundary as they are). */
export type SourceBatchOutcome = ({ ok: true } & BatchResult) | SourceFailure;

export type SourceEstimateOutcome = { ok: true; estimate: BatchEstimate } | SourceFailure;

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

export function createSourceDocsService(openCache: () => Promise<SourceCache>, fetchFn: FetchFn) {
  let cache: Promise<SourceCache> | undefined;
  let locator: SourceLocator | undefined;
  let current: { key: string; docs: HfSourceDocs } | undefined;
  /** Lookups under way, so that Cancel can stop them. */
  const running = new Set<AbortController>();

  // Storage can be refused (private windows, quota): then lookups still work, in memory.
  const cacheReady = () => (cache ??= openCache().catch(() => new MemorySourceCache()));

  async function docsFor(settings: HfSourceSettings): Promise<HfSourceDocs> {
    const key = settingsKey(settings);
    if (current?.key !== key)
      current = { key, docs: new HfSourceDocs({ settings, fetch: fetchFn, cache: await cacheReady(), locator }) };
    return current.docs;
  }

  return {
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
