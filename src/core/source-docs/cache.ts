/**
 * What a lookup learns and keeps between lookups (and, through an adapter, between sessions):
 * the shard list, shard footers, each row group's doc_id column, and where each looked-up
 * document is with its small fields. With those, a second lookup of a document reads one
 * byte range: its row group's text_content. Batch reads (the audit) also keep each text, so a
 * batch stopped or reloaded goes on without asking again for what it already has.
 */
import type { ShardEntry } from './hub.ts';
import type { SavedRanges } from './shard-ranges.ts';

export interface CachedListing {
  shards: ShardEntry[];
  /** doc_id ranges learned from footers (see shard-ranges.ts); absent until a search learns some. */
  ranges?: SavedRanges;
  /** ms since the epoch. */
  fetchedAt: number;
}

/** Where a document is, with the fields that are small enough to keep. */
export interface CachedLocation {
  shard: ShardEntry;
  rowGroup: number;
  /** Row within the row group. */
  row: number;
  file_name: string | null;
  file_type: string | null;
  online_url: string | null;
  fetchedAt: number;
}

/** A document's text as a batch read it (cut to the text limit). */
export interface CachedText {
  text: string;
  fetchedAt: number;
}

export interface SourceCache {
  getListing(key: string): Promise<CachedListing | undefined>;
  putListing(key: string, value: CachedListing): Promise<void>;
  /** The footer bytes of a shard: thrift metadata, its 4-byte length and "PAR1". */
  getFooter(key: string): Promise<Uint8Array | undefined>;
  putFooter(key: string, bytes: Uint8Array): Promise<void>;
  /** The doc_id column of one row group, in row order. */
  getRowGroupIds(key: string): Promise<string[] | undefined>;
  putRowGroupIds(key: string, ids: string[]): Promise<void>;
  getLocation(key: string): Promise<CachedLocation | undefined>;
  putLocation(key: string, value: CachedLocation): Promise<void>;
  getText(key: string): Promise<CachedText | undefined>;
  putText(key: string, value: CachedText): Promise<void>;
  /** Forget everything (a settings page button, tests). */
  clear(): Promise<void>;
}

/** Keys: shard content is named by its oid (stable across revisions), locations by revision. */
export const cacheKeys = {
  listing: (settingsKey: string) => settingsKey,
  footer: (endpointDataset: string, shard: ShardEntry) => `${endpointDataset}|${shard.path}|${shard.oid}|${shard.size}`,
  rowGroupIds: (endpointDataset: string, shard: ShardEntry, rowGroup: number) =>
    `${endpointDataset}|${shard.path}|${shard.oid}|${shard.size}#${rowGroup}`,
  location: (settingsKey: string, docId: string) => `${settingsKey}|${docId}`,
  text: (settingsKey: string, docId: string) => `${settingsKey}|${docId}`,
};

/** In memory: for tests, the CLI without a cache folder, and as the browser's fallback. */
export class MemorySourceCache implements SourceCache {
  private readonly listings = new Map<string, CachedListing>();
  private readonly footers = new Map<string, Uint8Array>();
  private readonly ids = new Map<string, string[]>();
  private readonly locations = new Map<string, CachedLocation>();
  private readonly texts = new Map<string, CachedText>();

  async getListing(key: string) {
    return this.listings.get(key);
  }
  async putListing(key: string, value: CachedListing) {
    this.listings.set(key, value);
  }
  async getFooter(key: string) {
    return this.footers.get(key);
  }
  async putFooter(key: string, bytes: Uint8Array) {
    this.footers.set(key, bytes);
  }
  async getRowGroupIds(key: string) {
    return this.ids.get(key);
  }
  async putRowGroupIds(key: string, ids: string[]) {
    this.ids.set(key, ids);
  }
  async getLocation(key: string) {
    return this.locations.get(key);
  }
  async putLocation(key: string, value: CachedLocation) {
    this.locations.set(key, value);
  }
  async getText(key: string) {
    return this.texts.get(key);
  }
  async putText(key: string, value: CachedText) {
    this.texts.set(key, value);
  }
  async clear() {
    this.listings.clear();
    this.footers.clear();
    this.ids.clear();
    this.locations.clear();
    this.texts.clear();
  }
  /** Entry counts, for tests. */
  sizes(): Record<'listings' | 'footers' | 'ids' | 'locations' | 'texts', number> {
    return {
      listings: this.listings.size,
      footers: this.footers.size,
      ids: this.ids.size,
      locations: this.locations.size,
      texts: this.texts.size,
    };
  }
}

/** Cached values come back from storage a user or another version may have touched: check the shape. */
export function isCachedLocation(v: unknown): v is CachedLocation {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  const shard = o.shard as Record<string, unknown> | undefined;
  const strOrNull = (x: unknown) => x === null || typeof x === 'string';
  return (
    typeof shard === 'object' &&
    shard !== null &&
    typeof shard.path === 'string' &&
    typeof shard.size === 'number' &&
    typeof shard.oid === 'string' &&
    Number.isInteger(o.rowGroup) &&
    Number.isInteger(o.row) &&
    strOrNull(o.file_name) &&
    strOrNull(o.file_type) &&
    strOrNull(o.online_url) &&
    typeof o.fetchedAt === 'number'
  );
}

export function isCachedListing(v: unknown): v is CachedListing {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.fetchedAt === 'number' &&
    Array.isArray(o.shards) &&
    o.shards.every(
      (s: unknown) =>
        typeof s === 'object' &&
        s !== null &&
        typeof (s as ShardEntry).path === 'string' &&
        typeof (s as ShardEntry).size === 'number' &&
        typeof (s as ShardEntry).oid === 'string',
    )
  );
}

export function isCachedText(v: unknown): v is CachedText {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.text === 'string' && typeof o.fetchedAt === 'number';
}

export function isIdList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
