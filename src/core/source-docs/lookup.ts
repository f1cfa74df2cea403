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
  isCachedText,
  isIdList,
  MemorySourceCache,
  type CachedLocation,
  type SourceCache,
} from './cache.ts';
import { errorMessage } from '../error-message.ts';
import {
  SourceError,
  Transfer,
  type FetchFn,
  type TransferGuard,
  type TransferSession,
  type TransferStats,
} from './http.ts';
import { SYSTEM_CLOCK, waitingProgress, type RateClock, type RateStats, type RateWait } from './rate-gate.ts';
import { ShardRanges, type ShardRange } from './shard-ranges.ts';
import { planRowGroupReads } from './batch-plan.ts';
import { hubSession, listShards, resolveUrl, type ShardEntry } from './hub.ts';
import { DEFAULT_LIMITS, type SourceLimits } from './limits.ts';
import { locatorEntry, SOURCE_DOC_ID_RE, type LocatorEntry, type SourceLocator } from './locator.ts';
import { hostOf, isCommitSha, settingsKey, type HfSourceSettings } from './settings.ts';
import {
  candidateRowGroups,
  chunkRange,
  parseFooter,
  readFooterBytes,
  readRowGroupRows,
  summarise,
  type ReadBytes,
  type ShardSummary,
} from './shard-parquet.ts';
import { Memo } from '../memo.ts';

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
  /** 'probing': footers read to find the shard by its doc_id range (sorted shards). */
  phase: 'listing' | 'probing' | 'footers' | 'scanning' | 'reading';
  done: number;
  total: number;
  requests: number;
  bytes: number;
  /** Waiting on the Hub (its rate limit, a 503) until then; absent while reading. */
  waiting?: RateWait;
}

export interface BatchProgress {
  /** Finding where the ids are, then reading row groups' text. */
  phase: 'locating' | 'footers' | 'reading';
  done: number;
  total: number;
  requests: number;
  bytes: number;
  /** Documents whose text is read. */
  read: number;
  /** Waiting on the Hub (its rate limit, a 503) until then; absent while reading. */
  waiting?: RateWait;
}

export interface BatchResult {
  texts: Map<string, string>;
  /** Ids the source has no row for. */
  missing: string[];
  /** Ids that could not be read, with why. */
  failed: Map<string, string>;
  cost: TransferStats;
  /** Stopped (signal) before every id was read: the texts are those read until then. */
  stopped: boolean;
  /**
   * The Hub refused (a rate limit past the wait limit, no access): the first such failure, which
   * the ids failed after it most likely share. Absent when none was.
   */
  refused?: { kind: 'rate-limited' | 'auth'; message: string };
}

/** What a batch would cost before it starts: texts kept, places known, and the rest by measure. */
export interface BatchEstimate {
  ids: number;
  /** Texts already kept (no request). */
  kept: number;
  /** Places already known (one request a row group). */
  placed: number;
  requests: number;
  bytes: number;
}

/**
 * The cost of a document not yet located, as the source bench measured it on the sorted
 * real-scale mock (the v1.0 audit batch: 4,290 documents, 6,715 requests, 560 MB): footers,
 * doc_id chunks and text chunks shared out over the batch.
 */
export const BATCH_COST_PER_DOC = { requests: 1.6, bytes: 131_000 } as const;

export interface HfSourceDocsOptions {
  settings: HfSourceSettings;
  fetch: FetchFn;
  cache?: SourceCache;
  locator?: SourceLocator;
  limits?: Partial<SourceLimits>;
  now?: () => number;
  /** Keep each scanned row group's doc_id list in the cache (off for bulk locating). */
  keepRowGroupIds?: boolean;
  /** A Hugging Face token: sent to the Hub's origin only, kept in this object only (never cached). */
  token?: string;
  /** Time and sleep of rate-limit waits (tests inject one that never waits on the clock). */
  clock?: RateClock;
  /** 'manual' where the runtime shows redirect answers (Node): see TransferSession.redirects. */
  redirects?: TransferSession['redirects'];
  /** Every wait of the session on the Hub or its file host, started and ended (the CLI's notice). */
  onWait?: (wait: RateWait | undefined) => void;
  /** Where the user gives a token, for a 401/403's message (the page's Source settings unless said). */
  tokenHint?: string;
}

/** A shard list of a moving revision is re-read after a day; locations after a week. */
const LISTING_MAX_AGE_MS = 24 * 3600 * 1000;
const LOCATION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const METADATA_KEPT = 24;

/** Where an id is, with the small fields when they were read beside its row group's doc_id. */
type Found = LocatorEntry & { fields?: Record<string, unknown> };

/** The small text columns (everything but text_content); read with doc_id when they follow it. */
const SMALL_COLUMNS = ['file_name', 'file_type', 'online_url'] as const;

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
  private readonly listing = new Memo<ShardEntry[]>();
  /** doc_id ranges learned from footers, and whether they are in shard order. */
  private readonly ranges = new ShardRanges();
  private readonly metadata = new Map<string, Promise<FileMetaData>>();
  private readonly summaries = new Map<string, Promise<ShardSummary>>();
  private readonly ids = new Map<string, Promise<string[]>>();
  /** The small fields of row groups whose doc_id was just read with them (a lookup's last step needs only text). */
  private readonly heads = new Map<string, Array<Record<string, unknown>>>();
  /** Shard path -> the file host URL the Hub redirected to (saves the redirect on later reads). */
  private readonly resolved = new Map<string, string>();
  /** The rate gate and token all this session's transfers share. */
  private readonly session: TransferSession;

  constructor(options: HfSourceDocsOptions) {
    this.settings = options.settings;
    this.fetchFn = options.fetch;
    this.cache = options.cache ?? new MemorySourceCache();
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? (() => Date.now());
    this.keepRowGroupIds = options.keepRowGroupIds ?? true;
    this.datasetKey = `${options.settings.endpoint}|${options.settings.dataset}`;
    this.session = hubSession({
      settings: options.settings,
      limits: this.limits,
      clock: options.clock ?? SYSTEM_CLOCK,
      ...(options.token ? { token: options.token } : {}),
      ...(options.redirects ? { redirects: options.redirects } : {}),
      ...(options.onWait ? { onWait: options.onWait } : {}),
      ...(options.tokenHint ? { tokenHint: options.tokenHint } : {}),
    });
    const loc = options.locator;
    if (loc && loc.dataset === options.settings.dataset && loc.revision === options.settings.revision)
      this.locator = loc;
  }

  /** 429s and 503s seen, and the waits they cost, over this session. */
  get rateStats(): RateStats {
    return { ...this.session.gate.stats };
  }

  /** Whether a locator applies to these settings (same dataset and revision). */
  get usesLocator(): boolean {
    return this.locator !== undefined;
  }

  /**
   * The document, or undefined when the source has no row with this doc_id. Fails (kind
   * 'timeout') when the source stays silent past limits.idleMs or the lookup passes
   * limits.lookupMs, and (kind 'cancelled') when `signal` aborts.
   */
  async get(
    docId: string,
    onProgress?: (p: LookupProgress) => void,
    signal?: AbortSignal,
  ): Promise<SourceDoc | undefined> {
    if (!SOURCE_DOC_ID_RE.test(docId))
      throw new SourceError(`${JSON.stringify(docId.slice(0, 80))} is not a doc id`, 'settings');
    const guard = this.guard(signal, this.limits.lookupMs);
    const progress = waitingProgress(onProgress);
    try {
      return await this.lookup(docId, this.transfer(guard.guard, progress.onWait), progress.report);
    } finally {
      guard.release();
    }
  }

  private transfer(guard: TransferGuard = {}, onWait?: (w: RateWait | undefined) => void): Transfer {
    return new Transfer(this.fetchFn, this.totals, guard, this.session, onWait);
  }

  /** A guard for one lookup's requests: `signal`, the idle limit and (when given) a total time. */
  private guard(signal: AbortSignal | undefined, totalMs?: number): { guard: TransferGuard; release(): void } {
    const stop = new AbortController();
    const onAbort = () => stop.abort(new SourceError('stopped', 'cancelled'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const host = hostOf(this.settings.endpoint);
    const timer =
      totalMs === undefined
        ? undefined
        : setTimeout(
            () =>
              stop.abort(
                new SourceError(
                  `reading from ${host} took longer than ${Math.round(totalMs / 1000)} s; the lookup was stopped`,
                  'timeout',
                ),
              ),
            totalMs,
          );
    const deadline = totalMs === undefined ? undefined : this.session.gate.clock.now() + totalMs;
    return {
      guard: { signal: stop.signal, idleMs: this.limits.idleMs, ...(deadline === undefined ? {} : { deadline }) },
      release: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      },
    };
  }

  private async lookup(
    docId: string,
    transfer: Transfer,
    onProgress?: (p: LookupProgress) => void,
  ): Promise<SourceDoc | undefined> {
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
    const found = await this.find(docId, shards, transfer, report);
    if (!found) return undefined;
    report('reading', 0, 1);
    const summary = await this.summaryOf(found.shard, transfer);
    const columns = found.fields ? ['text_content'] : summary.columns.filter((c) => c !== 'doc_id');
    const [row] = await this.readRows(found.shard, found.rowGroup, columns, found.row, transfer);
    return this.remember(
      docId,
      found,
      { ...found.fields, ...row, doc_id: docId },
      summary,
      'search',
      transfer,
      locationKey,
    );
  }

  /**
   * Where each id is (bulk, for the locator file): every shard's footer, then the doc_id column of
   * each row group whose statistics include a wanted id. The first row in shard order wins.
   */
  async locate(
    ids: readonly string[],
    onProgress?: (p: LookupProgress & { found: number }) => void,
    given?: Transfer,
  ): Promise<{ found: Map<string, LocatorEntry>; missing: string[]; shards: ShardEntry[]; cost: TransferStats }> {
    const progress = waitingProgress(onProgress);
    const transfer = given ?? this.transfer({}, progress.onWait);
    const wanted = [...new Set(ids)].filter((id) => SOURCE_DOC_ID_RE.test(id)).sort();
    const found = new Map<string, LocatorEntry>();
    const shards = await this.shards(transfer);
    const report = (done: number) =>
      progress.report({
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

  /**
   * The text of many documents (the audit, a task's gold set): texts already kept are taken from
   * the cache; each other id is located (its cached place, else a search that reuses every footer
   * and doc_id list already read; on unsorted shards one pass over all footers), then each row
   * group's text is read once for all the ids it holds (planRowGroupReads), a few row groups at a
   * time. Places and texts are cached as they come, so a batch stopped (signal: it then returns
   * what it read, `stopped`) or reloaded goes on from there.
   */
  async readMany(
    ids: readonly string[],
    onProgress?: (p: BatchProgress) => void,
    signal?: AbortSignal,
  ): Promise<BatchResult> {
    const guard = this.guard(signal);
    const progress = waitingProgress(onProgress);
    const transfer = this.transfer(guard.guard, progress.onWait);
    const result: BatchResult = {
      texts: new Map(),
      missing: [],
      failed: new Map(),
      cost: transfer.stats,
      stopped: false,
    };
    try {
      await this.readAll(ids, transfer, result, progress.report, signal);
    } catch (e) {
      if (!(e instanceof SourceError && e.kind === 'cancelled')) throw e;
      result.stopped = true;
    } finally {
      guard.release();
    }
    return { ...result, texts: new Map(result.texts), failed: new Map(result.failed), cost: { ...transfer.stats } };
  }

  /** What readMany(ids) would cost, from the cache alone (no request). */
  async estimate(ids: readonly string[]): Promise<BatchEstimate> {
    const { wanted, kept, places, unplaced } = await this.fromCache(ids);
    return {
      ids: wanted.length,
      kept: kept.size,
      placed: places.size,
      requests: Math.ceil(planRowGroupReads(places).length + unplaced.length * BATCH_COST_PER_DOC.requests),
      bytes: Math.round((places.size + unplaced.length) * BATCH_COST_PER_DOC.bytes),
    };
  }

  /** The ids (valid, once each, sorted) as the cache knows them: texts kept, places known, the rest. */
  private async fromCache(ids: readonly string[]): Promise<{
    wanted: string[];
    kept: Map<string, string>;
    places: Map<string, CachedLocation>;
    unplaced: string[];
  }> {
    const wanted = [...new Set(ids)].filter((id) => SOURCE_DOC_ID_RE.test(id)).sort();
    const sKey = settingsKey(this.settings);
    const fresh = isCommitSha(this.settings.revision);
    const current = (at: number) => fresh || this.now() - at < LOCATION_MAX_AGE_MS;
    const kept = new Map<string, string>();
    const places = new Map<string, CachedLocation>();
    const unplaced: string[] = [];
    for (const id of wanted) {
      const text = await this.cache.getText(cacheKeys.text(sKey, id)).catch(() => undefined);
      if (isCachedText(text) && current(text.fetchedAt)) {
        kept.set(id, text.text);
        continue;
      }
      const c = await this.cache.getLocation(cacheKeys.location(sKey, id)).catch(() => undefined);
      if (isCachedLocation(c) && current(c.fetchedAt)) places.set(id, c);
      else unplaced.push(id);
    }
    return { wanted, kept, places, unplaced };
  }

  private async readAll(
    ids: readonly string[],
    transfer: Transfer,
    out: BatchResult,
    onProgress?: (p: BatchProgress) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const { texts, failed, missing } = out;
    // Texts kept by an earlier batch, then cached places, then a search for the rest.
    const { wanted, kept, places, unplaced } = await this.fromCache(ids);
    for (const [id, text] of kept) texts.set(id, text);
    const progress: BatchProgress = {
      phase: 'locating',
      done: 0,
      total: wanted.length,
      requests: 0,
      bytes: 0,
      read: 0,
    };
    const report = () =>
      onProgress?.({ ...progress, requests: transfer.stats.requests, bytes: transfer.stats.bytes, read: texts.size });
    const stopIfAsked = () => {
      if (signal?.aborted) throw new SourceError('stopped', 'cancelled');
    };
    const sKey = settingsKey(this.settings);
    const fail = (id: string, e: unknown) => {
      if (e instanceof SourceError && e.kind === 'cancelled') throw e;
      if (e instanceof SourceError && (e.kind === 'rate-limited' || e.kind === 'auth'))
        out.refused ??= { kind: e.kind, message: e.message };
      failed.set(id, errorMessage(e));
    };

    progress.done = texts.size + places.size;
    report();
    const place = async (id: string, at: Found) => {
      const location: CachedLocation = {
        shard: at.shard,
        rowGroup: at.rowGroup,
        row: at.row,
        file_name: this.field(at.fields?.file_name),
        file_type: this.field(at.fields?.file_type),
        online_url: this.field(at.fields?.online_url),
        fetchedAt: this.now(),
      };
      places.set(id, location);
      await this.cache.putLocation(cacheKeys.location(sKey, id), location).catch(() => undefined);
    };
    if (unplaced.length > 0) {
      const shards = await this.shards(transfer);
      await this.loadRanges(shards);
      const quiet = () => undefined;
      let next = 0;
      const searchOne = async (): Promise<void> => {
        while (next < unplaced.length && this.ranges.order !== 'unsorted') {
          stopIfAsked();
          const id = unplaced[next++]!;
          try {
            const at = await this.find(id, shards, transfer, quiet, false);
            if (at === 'unsorted') {
              next--;
              return;
            }
            if (at) await place(id, at);
            else missing.push(id);
          } catch (e) {
            fail(id, e);
          }
          progress.done++;
          report();
        }
      };
      await Promise.all(Array.from({ length: this.limits.concurrency }, searchOne));
      const rest = unplaced.filter((id) => !places.has(id) && !failed.has(id) && !missing.includes(id));
      if (rest.length > 0) {
        // Unsorted shards: one pass over every footer finds them all.
        stopIfAsked();
        const located = await this.locate(
          rest,
          (p) => {
            progress.phase = 'footers';
            progress.done = p.done;
            progress.total = p.total;
            report();
          },
          transfer,
        );
        for (const [id, at] of located.found) await place(id, at);
        missing.push(...located.missing);
      }
    }

    // Texts: one read of each row group's text for all its ids.
    const list = planRowGroupReads(places);
    progress.phase = 'reading';
    progress.done = 0;
    progress.total = list.length;
    report();
    let next = 0;
    const readGroup = async (): Promise<void> => {
      while (next < list.length) {
        stopIfAsked();
        const g = list[next++]!;
        try {
          const metadata = await this.metadataOf(g.shard, transfer);
          const read = await readRowGroupRows(
            this.reader(g.shard, transfer),
            g.shard.size,
            metadata,
            g.rowGroup,
            ['text_content'],
            g.from,
            g.to,
            this.limits.maxTextChunkBytes,
            g.shard.path,
          );
          for (const id of g.ids) {
            const value = read[places.get(id)!.row - g.from]?.text_content;
            const text = typeof value === 'string' ? value.slice(0, this.limits.maxTextChars) : '';
            texts.set(id, text);
            await this.cache.putText(cacheKeys.text(sKey, id), { text, fetchedAt: this.now() }).catch(() => undefined);
          }
        } catch (e) {
          for (const id of g.ids) fail(id, e);
        }
        progress.done++;
        report();
      }
    };
    await Promise.all(Array.from({ length: this.limits.concurrency }, readGroup));
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

  /**
   * Where docId is. While the shards' doc_id ranges are in shard order (learned from each footer
   * read, and checked against every range known), the shard is found by interpolation and
   * bisection over footers: a handful of footers instead of all of them. A range out of order
   * marks the dataset unsorted, and the search reads every footer.
   */
  private async find(
    docId: string,
    shards: readonly ShardEntry[],
    transfer: Transfer,
    report: (phase: LookupProgress['phase'], done: number, total: number) => void,
    scanWhenUnsorted: false,
  ): Promise<Found | undefined | 'unsorted'>;
  private async find(
    docId: string,
    shards: readonly ShardEntry[],
    transfer: Transfer,
    report: (phase: LookupProgress['phase'], done: number, total: number) => void,
  ): Promise<Found | undefined>;
  private async find(
    docId: string,
    shards: readonly ShardEntry[],
    transfer: Transfer,
    report: (phase: LookupProgress['phase'], done: number, total: number) => void,
    scanWhenUnsorted = true,
  ): Promise<Found | undefined | 'unsorted'> {
    if (this.ranges.order !== 'unsorted') {
      const shard = await this.probe(docId, shards, transfer, report).catch((e: unknown) => {
        if (e instanceof OutOfOrder) return 'unsorted' as const;
        throw e;
      });
      if (shard === undefined) return undefined;
      if (shard !== 'unsorted') {
        for (const rowGroup of candidateRowGroups(await this.summaryOf(shards[shard]!, transfer), docId)) {
          const row = (await this.rowGroupIds(shards[shard]!, rowGroup, transfer)).indexOf(docId);
          if (row >= 0)
            return { shard: shards[shard]!, rowGroup, row, ...this.fieldsOf(shards[shard]!, rowGroup, row) };
        }
        return undefined;
      }
      await this.saveRanges();
    }
    if (!scanWhenUnsorted) return 'unsorted';
    return this.search(docId, shards, transfer, report);
  }

  /** The index of the shard whose range holds docId, undefined when none can; throws OutOfOrder. */
  private async probe(
    docId: string,
    shards: readonly ShardEntry[],
    transfer: Transfer,
    report: (phase: LookupProgress['phase'], done: number, total: number) => void,
  ): Promise<number | undefined> {
    await this.loadRanges(shards);
    // A new session may learn from the cache that the shards are unsorted.
    if (this.ranges.order === 'unsorted') throw new OutOfOrder();
    let probes = 0;
    const rangeAt = async (i: number): Promise<ShardRange> => {
      const known = this.ranges.get(i);
      if (known) return known;
      const summary = await this.summaryOf(shards[i]!, transfer);
      report('probing', ++probes, shards.length);
      const range = this.ranges.learn(i, summary);
      if (!range || this.ranges.order === 'unsorted') throw new OutOfOrder();
      return range;
    };
    const n = shards.length;
    const [first, last] = await Promise.all([rangeAt(0), rangeAt(n - 1)]);
    if (docId < first.min || docId > last.max) return undefined;
    if (docId <= first.max) return 0;
    if (docId >= last.min) return n - 1;
    let lo = 0;
    let hi = n - 1;
    let bisect = false;
    for (;;) {
      // Known ranges narrow the interval for free.
      const narrowed = this.ranges.narrow(docId, lo, hi);
      if (narrowed.holds !== undefined) return narrowed.holds;
      ({ lo, hi } = narrowed);
      if (hi - lo <= 1) return undefined;
      const width = hi - lo;
      const at = bisect ? (lo + hi) >> 1 : (this.ranges.interpolate(docId, lo, hi) ?? (lo + hi) >> 1);
      const r = await rangeAt(at);
      if (r.min <= docId && docId <= r.max) {
        await this.saveRanges();
        return at;
      }
      if (docId < r.min) hi = at;
      else lo = at;
      // Interpolation that does not halve the interval gives way to bisection for one step.
      bisect = !bisect && hi - lo > width / 2;
    }
  }

  private rangesLoaded = false;

  private async loadRanges(shards: readonly ShardEntry[]): Promise<void> {
    if (this.rangesLoaded) return;
    this.rangesLoaded = true;
    const key = cacheKeys.listing(settingsKey(this.settings));
    const cached = await this.cache.getListing(key).catch(() => undefined);
    this.ranges.restore(cached?.ranges, shards);
  }

  /** Keeps what was learned about the ranges beside the shard list (IndexedDB / the CLI cache). */
  private async saveRanges(): Promise<void> {
    const key = cacheKeys.listing(settingsKey(this.settings));
    const cached = await this.cache.getListing(key).catch(() => undefined);
    if (!isCachedListing(cached)) return;
    await this.cache.putListing(key, { ...cached, ranges: this.ranges.save(cached.shards) }).catch(() => undefined);
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
      return row >= 0 ? { shard, rowGroup, row, ...this.fieldsOf(shard, rowGroup, row) } : undefined;
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
    return this.listing.get(async () => {
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
    });
  }

  private reader(shard: ShardEntry, transfer: Transfer): ReadBytes {
    return async (start, end) => {
      const known = this.resolved.get(shard.path);
      if (known) {
        try {
          return (await transfer.range(known, start, end)).bytes;
        } catch (e) {
          // Signed file-host URLs expire (403, 410, 404...): go through the Hub again. A server
          // error or an unavailable host (5xx) would fail the same way through the Hub.
          if (!(e instanceof SourceError) || !isRefusedUrl(e)) throw e;
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
        const columns = ['doc_id', ...adjacentSmallColumns(metadata, rowGroup)];
        const read = await readRowGroupRows(
          this.reader(shard, transfer),
          shard.size,
          metadata,
          rowGroup,
          columns,
          0,
          rows,
          this.limits.maxIdChunkBytes,
          shard.path,
        );
        const ids = read.map((r) => (typeof r.doc_id === 'string' ? r.doc_id : String(r.doc_id ?? '')));
        if (columns.length > 1) {
          this.heads.set(key, read);
          while (this.heads.size > METADATA_KEPT) this.heads.delete(this.heads.keys().next().value!);
        }
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

  /** The small fields of a row read with its row group's doc_id, when they were. */
  private fieldsOf(shard: ShardEntry, rowGroup: number, row: number): { fields?: Record<string, unknown> } {
    const head = this.heads.get(cacheKeys.rowGroupIds(this.datasetKey, shard, rowGroup))?.[row];
    if (!head) return {};
    const { doc_id: _, ...fields } = head;
    return { fields };
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

/**
 * The small columns whose chunks directly follow doc_id's in this row group (no other column's
 * bytes between): reading them with doc_id costs no request and no media byte.
 */
function adjacentSmallColumns(metadata: FileMetaData, rowGroup: number): string[] {
  const out: string[] = [];
  let end = chunkRange(metadata, rowGroup, 'doc_id')?.end;
  for (;;) {
    const next = SMALL_COLUMNS.find((c) => !out.includes(c) && chunkRange(metadata, rowGroup, c)?.start === end);
    if (!next || end === undefined) return out;
    out.push(next);
    end = chunkRange(metadata, rowGroup, next)!.end;
  }
}

/** A file-host answer that a fresh signed URL may cure: a 4xx other than a bad range. */
function isRefusedUrl(e: SourceError): boolean {
  if (e.kind !== 'http' && e.kind !== 'not-found') return false;
  return e.status === undefined || (e.status >= 400 && e.status < 500 && e.status !== 416);
}

/** A footer showed that the shards' doc_id ranges are not in shard order. */
class OutOfOrder extends Error {}

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
