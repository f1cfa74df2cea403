/**
 * Reads documents of the Hugging Face source by doc_id. In order of cost:
 *   1. a cached location (a second lookup): one range read of the row group's text_content;
 *   2. a locator entry (shipped with the release): the footer, then the text columns of one row;
 *   3. a search: the shard list, the footers, the doc_id column of only the row groups whose
 *      statistics include the id (sorted shards) or of every row group (unsorted shards).
 * What is learned goes to the cache. Only the text columns are ever requested.
 */
import type { FileMetaData } from 'hyparquet';
import {
  cacheKeys,
  isCachedListing,
  isCachedLocation,
  isIdList,
  MemorySourceCache,
  type CachedLocation,
  type SourceCache,
} from './cache.ts';
import { SourceError, Transfer, type FetchFn, type TransferStats } from './http.ts';
import { listShards, resolveUrl, type ShardEntry } from './hub.ts';
import { DEFAULT_LIMITS, type SourceLimits } from './limits.ts';
import { locatorEntry, SOURCE_DOC_ID_RE, type LocatorEntry, type SourceLocator } from './locator.ts';
import { isCommitSha, settingsKey, type HfSourceSettings } from './settings.ts';
import {
  candidateRowGroups,
  parseFooter,
  readFooterBytes,
  readRowGroupRows,
  summarise,
  type ReadBytes,
  type ShardSummary,
} from './shard-parquet.ts';

export interface SourceDocRow {
  doc_id: string;
  file_name: string | null;
  file_type: string | null;
  online_url: string | null;
  text_content: string;
}

export interface SourceDocLocation {
  shard: string;
  rowGroup: number;
  /** Row within the row group. */
  row: number;
  /** Row within the shard. */
  shardRow: number;
}

export type LookupVia = 'cache' | 'locator' | 'search';

export interface SourceDoc {
  row: SourceDocRow;
  location: SourceDocLocation;
  /** text_content was longer than the limit and was cut. */
  truncated: boolean;
  via: LookupVia;
  /** Requests and bytes this lookup made. */
  cost: TransferStats;
  /** Host that served the shard bytes (the Hub redirects to its file host). */
  fileHost?: string;
}

export interface LookupProgress {
  phase: 'listing' | 'footers' | 'scanning' | 'reading';
  done: number;
  total: number;
  requests: number;
  bytes: number;
}

export interface HfSourceDocsOptions {
  settings: HfSourceSettings;
  fetch: FetchFn;
  cache?: SourceCache;
  locator?: SourceLocator;
  limits?: Partial<SourceLimits>;
  now?: () => number;
  /** Keep each scanned row group's doc_id list in the cache (off for bulk locating). */
  keepRowGroupIds?: boolean;
}

/** A shard list of a moving revision is re-read after a day; locations after a week. */
const LISTING_MAX_AGE_MS = 24 * 3600 * 1000;
const LOCATION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const METADATA_KEPT = 24;

type Found = LocatorEntry;

export class HfSourceDocs {
  readonly settings: HfSourceSettings;
  readonly limits: SourceLimits;
  /** Everything this instance fetched. */
  readonly totals: TransferStats = { requests: 0, bytes: 0 };
  private readonly fetchFn: FetchFn;
  private readonly cache: SourceCache;
  private readonly locator?: SourceLocator;
  private readonly now: () => number;
  private readonly keepRowGroupIds: boolean;
  private readonly datasetKey: string;
  private listing?: Promise<ShardEntry[]>;
  private readonly metadata = new Map<string, Promise<FileMetaData>>();
  private readonly summaries = new Map<string, Promise<ShardSummary>>();
  private readonly ids = new Map<string, Promise<string[]>>();
  /** Shard path -> the file host URL the Hub redirected to (saves the redirect on later reads). */
  private readonly resolved = new Map<string, string>();

  constructor(options: HfSourceDocsOptions) {
    this.settings = options.settings;
    this.fetchFn = options.fetch;
    this.cache = options.cache ?? new MemorySourceCache();
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? (() => Date.now());
    this.keepRowGroupIds = options.keepRowGroupIds ?? true;
    this.datasetKey = `${options.settings.endpoint}|${options.settings.dataset}`;
    const loc = options.locator;
    if (loc && loc.dataset === options.settings.dataset && loc.revision === options.settings.revision)
      this.locator = loc;
  }

  /** Whether a locator applies to these settings (same dataset and revision). */
  get usesLocator(): boolean {
    return this.locator !== undefined;
  }

  /** The document, or undefined when the source has no row with this doc_id. */
  async get(docId: string, onProgress?: (p: LookupProgress) => void): Promise<SourceDoc | undefined> {
    if (!SOURCE_DOC_ID_RE.test(docId))
      throw new SourceError(`${JSON.stringify(docId.slice(0, 80))} is not a doc id`, 'settings');
    const transfer = new Transfer(this.fetchFn, this.totals);
    const report = (phase: LookupProgress['phase'], done: number, total: number) =>
      onProgress?.({ phase, done, total, requests: transfer.stats.requests, bytes: transfer.stats.bytes });
    const fresh = isCommitSha(this.settings.revision);
    const locationKey = cacheKeys.location(settingsKey(this.settings), docId);

    const cached = await this.cache.getLocation(locationKey).catch(() => undefined);
    if (isCachedLocation(cached) && (fresh || this.now() - cached.fetchedAt < LOCATION_MAX_AGE_MS)) {
      report('reading', 0, 1);
      try {
        const summary = await this.summaryOf(cached.shard, transfer);
        const [row] = await this.readRows(cached.shard, cached.rowGroup, ['text_content'], cached.row, transfer);
        return this.result(docId, cached, row?.text_content, summary, 'cache', transfer);
      } catch (e) {
        // The shard changed under a moving revision: find the document again.
        if (!(e instanceof SourceError) || (e.kind !== 'bad-data' && e.kind !== 'range')) throw e;
      }
    }

    const entry = this.locator && locatorEntry(this.locator, docId);
    if (entry) {
      report('reading', 0, 1);
      const summary = await this.summaryOf(entry.shard, transfer);
      const columns = summary.columns.filter((c) => c !== 'doc_id');
      const [row] = await this.readRows(entry.shard, entry.rowGroup, ['doc_id', ...columns], entry.row, transfer).catch(
        (e: unknown) => {
          // A shard that is gone or changed: search. Anything else (offline) would fail the search too.
          if (e instanceof SourceError && (e.kind === 'bad-data' || e.kind === 'range' || e.kind === 'not-found'))
            return [];
          throw e;
        },
      );
      // A locator made for another state of a moving revision points at another row: search instead.
      if (row?.doc_id === docId) return this.remember(docId, entry, row, summary, 'locator', transfer, locationKey);
    }

    report('listing', 0, 1);
    const shards = await this.shards(transfer);
    const found = await this.search(docId, shards, transfer, report);
    if (!found) return undefined;
    report('reading', 0, 1);
    const summary = await this.summaryOf(found.shard, transfer);
    const columns = summary.columns.filter((c) => c !== 'doc_id');
    const [row] = await this.readRows(found.shard, found.rowGroup, columns, found.row, transfer);
    return this.remember(docId, found, { ...row, doc_id: docId }, summary, 'search', transfer, locationKey);
  }

  /**
   * Where each id is (bulk, for the locator file): every shard's footer, then the doc_id column of
   * each row group whose statistics include a wanted id. The first row in shard order wins.
   */
  async locate(
    ids: readonly string[],
    onProgress?: (p: LookupProgress & { found: number }) => void,
  ): Promise<{ found: Map<string, LocatorEntry>; missing: string[]; shards: ShardEntry[]; cost: TransferStats }> {
    const transfer = new Transfer(this.fetchFn, this.totals);
    const wanted = [...new Set(ids)].filter((id) => SOURCE_DOC_ID_RE.test(id)).sort();
    const found = new Map<string, LocatorEntry>();
    const shards = await this.shards(transfer);
    const report = (done: number) =>
      onProgress?.({
        phase: 'scanning',
        done,
        total: shards.length,
        requests: transfer.stats.requests,
        bytes: transfer.stats.bytes,
        found: found.size,
      });
    let done = 0;
    for (let i = 0; i < shards.length && found.size < wanted.length; i += this.limits.concurrency) {
      const batch = shards.slice(i, i + this.limits.concurrency);
      const remaining = wanted.filter((id) => !found.has(id));
      const perShard = await Promise.all(
        batch.map(async (shard) => {
          const hits = await this.scanShard(shard, remaining, transfer);
          report(++done);
          return hits;
        }),
      );
      for (const hits of perShard) for (const [id, entry] of hits) if (!found.has(id)) found.set(id, entry);
    }
    report(done);
    return { found, missing: wanted.filter((id) => !found.has(id)), shards, cost: { ...transfer.stats } };
  }

  private async scanShard(shard: ShardEntry, wanted: readonly string[], transfer: Transfer) {
    const hits = new Map<string, LocatorEntry>();
    const summary = await this.summaryOf(shard, transfer);
    const want = new Set(wanted);
    for (let rg = 0; rg < summary.rowGroups.length; rg++) {
      const { min, max, rows } = summary.rowGroups[rg]!;
      if (rows === 0) continue;
      if (min !== undefined && max !== undefined && !anyBetween(wanted, min, max)) continue;
      const ids = await this.rowGroupIds(shard, rg, transfer);
      ids.forEach((id, row) => {
        if (want.has(id) && !hits.has(id)) hits.set(id, { shard, rowGroup: rg, row });
      });
    }
    return hits;
  }

  /** Shards in batches: sorted shards' single candidate row groups at once, wide ones after all footers. */
  private async search(
    docId: string,
    shards: readonly ShardEntry[],
    transfer: Transfer,
    report: (phase: LookupProgress['phase'], done: number, total: number) => void,
  ): Promise<Found | undefined> {
    const deferred: Array<{ shard: ShardEntry; rowGroup: number }> = [];
    const findIn = async (shard: ShardEntry, rowGroup: number): Promise<Found | undefined> => {
      const row = (await this.rowGroupIds(shard, rowGroup, transfer)).indexOf(docId);
      return row >= 0 ? { shard, rowGroup, row } : undefined;
    };
    let footers = 0;
    for (let i = 0; i < shards.length; i += this.limits.concurrency) {
      const batch = shards.slice(i, i + this.limits.concurrency);
      const summaries = await Promise.all(
        batch.map(async (shard) => {
          const s = await this.summaryOf(shard, transfer);
          report('footers', ++footers, shards.length);
          return s;
        }),
      );
      for (let j = 0; j < batch.length; j++) {
        const shard = batch[j]!;
        const candidates = candidateRowGroups(summaries[j]!, docId);
        if (candidates.length > 2) {
          deferred.push(...candidates.map((rowGroup) => ({ shard, rowGroup })));
          continue;
        }
        for (const rowGroup of candidates) {
          const hit = await findIn(shard, rowGroup);
          if (hit) return hit;
        }
      }
    }
    for (let i = 0; i < deferred.length; i += this.limits.concurrency) {
      report('scanning', i, deferred.length);
      const hits = await Promise.all(
        deferred.slice(i, i + this.limits.concurrency).map((d) => findIn(d.shard, d.rowGroup)),
      );
      const hit = hits.find((h) => h !== undefined);
      if (hit) return hit;
    }
    return undefined;
  }

  private async remember(
    docId: string,
    at: Found,
    row: Record<string, unknown>,
    summary: ShardSummary,
    via: LookupVia,
    transfer: Transfer,
    locationKey: string,
  ): Promise<SourceDoc> {
    const location: CachedLocation = {
      shard: at.shard,
      rowGroup: at.rowGroup,
      row: at.row,
      file_name: this.field(row.file_name),
      file_type: this.field(row.file_type),
      online_url: this.field(row.online_url),
      fetchedAt: this.now(),
    };
    await this.cache.putLocation(locationKey, location).catch(() => undefined);
    return this.result(docId, location, row.text_content, summary, via, transfer);
  }

  private result(
    docId: string,
    at: CachedLocation,
    text: unknown,
    summary: ShardSummary,
    via: LookupVia,
    transfer: Transfer,
  ): SourceDoc {
    const full = typeof text === 'string' ? text : '';
    const truncated = full.length > this.limits.maxTextChars;
    const shardRow = summary.rowGroups.slice(0, at.rowGroup).reduce((n, rg) => n + rg.rows, 0) + at.row;
    const host = this.resolved.get(at.shard.path);
    return {
      row: {
        doc_id: docId,
        file_name: at.file_name,
        file_type: at.file_type,
        online_url: at.online_url,
        text_content: truncated ? full.slice(0, this.limits.maxTextChars) : full,
      },
      location: { shard: at.shard.path, rowGroup: at.rowGroup, row: at.row, shardRow },
      truncated,
      via,
      cost: { ...transfer.stats },
      ...(host ? { fileHost: new URL(host).host } : {}),
    };
  }

  private field(value: unknown): string | null {
    if (value === null || value === undefined) return null;
    return String(value).slice(0, this.limits.maxFieldChars);
  }

  private shards(transfer: Transfer): Promise<ShardEntry[]> {
    this.listing ??= (async () => {
      const key = cacheKeys.listing(settingsKey(this.settings));
      const cached = await this.cache.getListing(key).catch(() => undefined);
      if (
        isCachedListing(cached) &&
        (isCommitSha(this.settings.revision) || this.now() - cached.fetchedAt < LISTING_MAX_AGE_MS)
      )
        return cached.shards;
      const shards = await listShards(this.settings, transfer, this.limits);
      await this.cache.putListing(key, { shards, fetchedAt: this.now() }).catch(() => undefined);
      return shards;
    })();
    this.listing.catch(() => (this.listing = undefined));
    return this.listing;
  }

  private reader(shard: ShardEntry, transfer: Transfer): ReadBytes {
    return async (start, end) => {
      const known = this.resolved.get(shard.path);
      if (known) {
        try {
          return (await transfer.range(known, start, end)).bytes;
        } catch (e) {
          // Signed file-host URLs expire: go through the Hub again.
          if (!(e instanceof SourceError) || (e.kind !== 'http' && e.kind !== 'not-found')) throw e;
          this.resolved.delete(shard.path);
        }
      }
      const { bytes, finalUrl } = await transfer.range(resolveUrl(this.settings, shard.path), start, end);
      this.resolved.set(shard.path, finalUrl);
      return bytes;
    };
  }

  private metadataOf(shard: ShardEntry, transfer: Transfer): Promise<FileMetaData> {
    const key = cacheKeys.footer(this.datasetKey, shard);
    let p = this.metadata.get(key);
    if (p) {
      this.metadata.delete(key);
      this.metadata.set(key, p);
      return p;
    }
    p = (async () => {
      const cached = await this.cache.getFooter(key).catch(() => undefined);
      if (cached instanceof Uint8Array) {
        try {
          return parseFooter(cached, shard.path);
        } catch {
          // A damaged cache entry is read again from the source.
        }
      }
      const bytes = await readFooterBytes(
        this.reader(shard, transfer),
        shard.size,
        this.limits.footerInitialFetch,
        this.limits.maxFooterBytes,
        shard.path,
      );
      const metadata = parseFooter(bytes, shard.path);
      await this.cache.putFooter(key, bytes).catch(() => undefined);
      return metadata;
    })();
    this.metadata.set(key, p);
    p.catch(() => this.metadata.delete(key));
    while (this.metadata.size > METADATA_KEPT) this.metadata.delete(this.metadata.keys().next().value!);
    return p;
  }

  private summaryOf(shard: ShardEntry, transfer: Transfer): Promise<ShardSummary> {
    const key = cacheKeys.footer(this.datasetKey, shard);
    let p = this.summaries.get(key);
    if (!p) {
      p = this.metadataOf(shard, transfer).then((m) => summarise(m, shard.path));
      this.summaries.set(key, p);
      p.catch(() => this.summaries.delete(key));
    }
    return p;
  }

  private rowGroupIds(shard: ShardEntry, rowGroup: number, transfer: Transfer): Promise<string[]> {
    const key = cacheKeys.rowGroupIds(this.datasetKey, shard, rowGroup);
    let p = this.ids.get(key);
    if (!p) {
      p = (async () => {
        const cached = this.keepRowGroupIds ? await this.cache.getRowGroupIds(key).catch(() => undefined) : undefined;
        if (isIdList(cached)) return cached;
        const summary = await this.summaryOf(shard, transfer);
        const rows = summary.rowGroups[rowGroup]?.rows ?? 0;
        const metadata = await this.metadataOf(shard, transfer);
        const read = await readRowGroupRows(
          this.reader(shard, transfer),
          shard.size,
          metadata,
          rowGroup,
          ['doc_id'],
          0,
          rows,
          this.limits.maxIdChunkBytes,
          shard.path,
        );
        const ids = read.map((r) => (typeof r.doc_id === 'string' ? r.doc_id : String(r.doc_id ?? '')));
        if (this.keepRowGroupIds) await this.cache.putRowGroupIds(key, ids).catch(() => undefined);
        return ids;
      })();
      // Only lookups under way share the promise; what is kept between lookups is the cache's.
      this.ids.set(key, p);
      const forget = () => this.ids.delete(key);
      p.then(forget, forget);
    }
    return p;
  }

  private async readRows(
    shard: ShardEntry,
    rowGroup: number,
    columns: readonly string[],
    row: number,
    transfer: Transfer,
  ): Promise<Array<Record<string, unknown>>> {
    const metadata = await this.metadataOf(shard, transfer);
    return readRowGroupRows(
      this.reader(shard, transfer),
      shard.size,
      metadata,
      rowGroup,
      columns,
      row,
      row + 1,
      this.limits.maxTextChunkBytes,
      shard.path,
    );
  }
}

/** Whether some id of the sorted list lies in [min, max]. */
function anyBetween(sorted: readonly string[], min: string, max: string): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < min) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]! <= max;
}
