/**
 * The Score page's judge cache: replies shipped with the release, the browser's store (IndexedDB)
 * and the replies of this session held in memory, so that a reply the store refused (quota, a
 * private window) is still scored from and can be downloaded.
 */
import { namedErrorMessage } from '../../error-message.ts';
import { serializeVerdictsJson } from '../../judge/cache.ts';
import { writeCacheZip } from '../../judge/cache-zip.ts';
import type { JudgeCache } from '../../judge/types.ts';
import { importCacheFile, importCacheFolder } from './cache-io.ts';

/** A judge cache that can also be imported into, listed and cleared (IndexedDB, or memory). */
export interface JudgeCacheStore extends JudgeCache {
  /** False for a store that forgets on reload (the in-memory fallback). */
  readonly persistent: boolean;
  setMany(entries: Iterable<readonly [string, string]>): Promise<number>;
  entries(): Promise<Map<string, string>>;
  count(): Promise<number>;
  clear(): Promise<void>;
}

export interface CacheInfo {
  /** Replies in the browser's store. */
  stored: number;
  /** Replies shipped with the loaded release. */
  shipped: number;
  /** Distinct replies over the store, the release and this session's memory (an import of the shipped cache adds none). */
  distinct: number;
  /** Replies of this session the store refused: kept in memory only, lost on reload unless downloaded. */
  unsaved: number;
  /** Why the last write was refused, when one was. */
  unsavedReason?: string;
  persistent: boolean;
}

export interface CacheImportResult {
  imported: number;
  skipped: number;
  /** Set when the store refused the import: the replies are held in memory for this session. */
  unsavedReason?: string;
}

export class SessionJudgeCache implements JudgeCache {
  private shipped: ReadonlyMap<string, string> = new Map();
  /** Every reply received or imported in this session, whether or not the store kept it. */
  private readonly memory = new Map<string, string>();
  private readonly unsaved = new Set<string>();
  private unsavedReason: string | undefined;

  constructor(private readonly store: Promise<JudgeCacheStore>) {}

  useShipped(shipped: ReadonlyMap<string, string>): void {
    this.shipped = shipped;
  }

  get shippedCount(): number {
    return this.shipped.size;
  }

  async get(key: string): Promise<string | undefined> {
    const held = this.shipped.get(key) ?? this.memory.get(key);
    if (held !== undefined) return held;
    try {
      return await (await this.store).get(key);
    } catch {
      return undefined;
    }
  }

  /** Keeps the reply in memory first, then stores it; a refused write rethrows (the run reports it). */
  async set(key: string, text: string): Promise<void> {
    this.memory.set(key, text);
    try {
      await (await this.store).set(key, text);
      this.unsaved.delete(key);
    } catch (error) {
      this.unsaved.add(key);
      this.unsavedReason = namedErrorMessage(error);
      throw error;
    }
  }

  async info(): Promise<CacheInfo> {
    const store = await this.store;
    const keys = await store.entries().catch(() => new Map<string, string>());
    const distinct = new Set([...this.shipped.keys(), ...keys.keys(), ...this.memory.keys()]);
    return {
      stored: keys.size,
      shipped: this.shipped.size,
      distinct: distinct.size,
      unsaved: this.unsaved.size,
      ...(this.unsaved.size > 0 && this.unsavedReason ? { unsavedReason: this.unsavedReason } : {}),
      persistent: store.persistent,
    };
  }

  private async keep(map: ReadonlyMap<string, string>): Promise<string | undefined> {
    for (const [k, v] of map) this.memory.set(k, v);
    try {
      await (await this.store).setMany(map);
      for (const k of map.keys()) this.unsaved.delete(k);
      return undefined;
    } catch (error) {
      for (const k of map.keys()) this.unsaved.add(k);
      this.unsavedReason = namedErrorMessage(error);
      return this.unsavedReason;
    }
  }

  async importFile(name: string, blob: Blob): Promise<CacheImportResult> {
    const { map, skipped } = await importCacheFile(name, blob);
    const unsavedReason = await this.keep(map);
    return { imported: map.size, skipped, ...(unsavedReason ? { unsavedReason } : {}) };
  }

  async importFolder(files: ReadonlyArray<{ path: string; file: Blob }>): Promise<CacheImportResult> {
    const { map, skipped } = await importCacheFolder(files);
    const unsavedReason = await this.keep(map);
    return { imported: map.size, skipped, ...(unsavedReason ? { unsavedReason } : {}) };
  }

  /** Shipped, stored and in-memory replies (an unreadable store contributes nothing). */
  async entries(): Promise<Map<string, string>> {
    const map = new Map(this.shipped);
    try {
      for (const [k, v] of await (await this.store).entries()) map.set(k, v);
    } catch {
      // the replies of this session are still in memory
    }
    for (const [k, v] of this.memory) map.set(k, v);
    return map;
  }

  async exportJson(): Promise<string> {
    return serializeVerdictsJson(await this.entries());
  }

  async exportZip(): Promise<Uint8Array> {
    return writeCacheZip(await this.entries());
  }

  async clear(): Promise<void> {
    this.memory.clear();
    this.unsaved.clear();
    this.unsavedReason = undefined;
    await (await this.store).clear();
  }
}

/** The fallback store when IndexedDB is not available (private windows of some browsers, Node). */
export class MemoryJudgeCacheStore implements JudgeCacheStore {
  readonly persistent: boolean = false;
  private readonly map = new Map<string, string>();
  async get(key: string): Promise<string | undefined> {
    return this.map.get(key);
  }
  async set(key: string, text: string): Promise<void> {
    this.map.set(key, text);
  }
  async setMany(entries: Iterable<readonly [string, string]>): Promise<number> {
    let n = 0;
    for (const [k, v] of entries) {
      this.map.set(k, v);
      n++;
    }
    return n;
  }
  async entries(): Promise<Map<string, string>> {
    return new Map(this.map);
  }
  async count(): Promise<number> {
    return this.map.size;
  }
  async clear(): Promise<void> {
    this.map.clear();
  }
}
