import { errorMessage } from '../error-message.ts';
import { parquetReadObjects, type AsyncBuffer } from 'hyparquet';
import {
  loadRelease,
  ReleaseRefused,
  type FileReport,
  type LoadProgress,
  type LoadedRelease,
} from '../release/load.ts';
import type { PlannedFile } from '../release/layout.ts';
import { planRelease } from '../release/plan.ts';
import { parquetChecked } from '../release/parquet-pin.ts';
import { sourceOf, type SourceSpec } from '../release/source-spec.ts';
import type { Chunk, JudgeProfile, Leaderboard, PoolEntry, ReleaseDescriptor, SplitName } from '../release/types.ts';
import type { SourceLocator } from '../source-docs/locator.ts';
import { guardedFetch, LoadCancelled } from '../net/guarded-fetch.ts';
import { CachingSource } from '../net/caching-source.ts';
import { docDetail, type DocDetail } from './doc-queries.ts';
import { memoryDocs, ParquetDocs, type DocsIndex } from './docs-index.ts';
import { entityList, entityTasks } from './entity-queries.ts';
import * as q from './queries.ts';
import { candidateDetail, funnel, rejections, type RejectionFilter } from './rejection-queries.ts';
import type { SqlDatabase, SqlSession } from './sql.ts';
import { releaseStats } from './stats.ts';
import { taskTables, type TaskTables } from './task-records.ts';
import { SystemsIndex } from './systems.ts';
import { TaskStore, type StoreFilter } from './task-store.ts';
import type { TextSearch } from './text-search.ts';

export interface ReleaseSummary {
  label: string;
  layout: LoadedRelease['layout'];
  descriptor: ReleaseDescriptor;
  files: FileReport[];
  lacks: string[];
  counts: Array<{ split: string; type: string; count: number }>;
  manifestCounts: Array<{ split: string; type: string; count: number; n_tasks: number }>;
  hasKey: Record<string, boolean>;
  leaderboard?: Leaderboard;
  judgeProfile?: JudgeProfile;
  datasetCard?: string;
  submissions: Array<{
    slug: string;
    system_name?: string;
    split?: string;
    has_predictions: boolean;
    has_scores: boolean;
  }>;
  loadMs: number;
  /**
   * False while only the first files are read (questions, tasks, the small ones): the rest is
   * being read and checked, and DuckDB filled, in the background.
   */
  complete: boolean;
}

export type LoadOutcome =
  { ok: true; summary: ReleaseSummary } | { ok: false; error: string; file?: string; cancelled?: boolean };

/** What the page hears about a load after its first answer (comlink proxies in the browser). */
export interface LoadEvents {
  progress?(p: LoadProgress): void;
  /** Every file is read and checked and DuckDB is filled: the summary is final. */
  completed?(summary: ReleaseSummary): void;
  /** The rest of a release shown from its first files was refused: it is no longer loaded. */
  refused?(error: string, file?: string): void;
}

export interface LoadMode {
  /** Embeds: the first files only, documents by range reads, never DuckDB. */
  light?: boolean;
  /** With light: read only these splits' questions and tasks. */
  splits?: string[];
  /**
   * The design before issue 12, kept for the benchmark's side-by-side figures: DuckDB starts at
   * once, every file is read and inserted before the first answer, and every query is SQL.
   */
  enginesFirst?: boolean;
  /**
   * False when the first view is not the task list (a task or document page): the corpus rows'
   * small columns (the list's source-quality facet) are then read when a list asks, not with
   * the first files, so they do not compete with the page's own reads. True by default.
   */
  listFirst?: boolean;
  /**
   * The task a task page opens with: its first gold document's text is read as soon as the
   * first files are in, before the page asks for the task.
   */
  firstTask?: { taskId: string; split?: string };
}

export interface ExplorerDataOptions {
  /** How long a server may stay silent (no answer, or a body that stops) before a load fails. */
  fetchTimeoutMs?: number;
  fetchFn?: typeof fetch;
}

/** DuckDB could not start (its wasm unreachable offline, say): not a fault of the release. */
class EngineUnavailable extends Error {
  constructor(cause: unknown) {
    super(`DuckDB could not start: ${errorMessage(cause)}`, { cause });
    this.name = 'EngineUnavailable';
  }
}

/** 20 s: a release host that has not started answering by then is down, not slow. */
export const DEFAULT_FETCH_TIMEOUT_MS = 20_000;

/** The files that answer the first page of tasks and one task (and the small ones beside them). */
const FIRST_KINDS: ReadonlySet<PlannedFile['kind']> = new Set([
  'descriptor',
  'manifest',
  'questions',
  'tasks',
  'leaderboard',
  'judge_profile',
  'dataset_card',
]);
const isParquet = (f: PlannedFile) => f.path.endsWith('.parquet');
const firstFile = (f: PlannedFile) =>
  FIRST_KINDS.has(f.kind) || ((f.kind === 'docs' || f.kind === 'chunks') && isParquet(f));
/** An embed's files: its split's questions and tasks, the leaderboard, and docs.parquet for range reads. */
const lightFile = (f: PlannedFile, splits: readonly string[] | undefined) =>
  f.kind === 'questions' || f.kind === 'tasks'
    ? !splits || (f.split !== undefined && splits.includes(f.split))
    : firstFile(f) && f.kind !== 'chunks' && f.kind !== 'judge_profile' && f.kind !== 'dataset_card';

interface Engine {
  release: LoadedRelease;
  sql: SqlSession;
  summary: ReleaseSummary;
}

/** One load: its files, its answers from memory and, once filled, its own DuckDB schema. */
interface Generation {
  no: number;
  mode: LoadMode;
  events: LoadEvents;
  abort: AbortController;
  source: CachingSource;
  started: number;
  first?: LoadedRelease;
  tables?: TaskTables;
  store?: TaskStore;
  /** Where documents come from: none, docs.parquet (first files) or docs.jsonl (the full read). */
  corpus: 'none' | 'parquet' | 'jsonl';
  docs?: DocsIndex;
  /** Source quality of every task, once the corpus rows are read (the task list waits for it). */
  qualities?: Promise<void>;
  chunksParquet?: AsyncBuffer;
  chunkDocIds?: Promise<string[]>;
  /** Every file is read and DuckDB is filled. */
  complete: boolean;
  /** An embed's parquet files checked against their pins (after its view is on screen). */
  lightChecked?: Promise<void>;
  pool?: Promise<PoolEntry[] | undefined>;
  summary?: ReleaseSummary;
  /** The summary once every file is read and checked, before DuckDB is filled. */
  checked?: ReleaseSummary;
  /** Every file read and checked (the first step of the engine, before DuckDB). */
  whole?: Promise<LoadedRelease>;
  engine?: Promise<Engine>;
  systems?: SystemsIndex;
  locator?: Promise<SourceLocator | undefined>;
  taskSearch?: Promise<TextSearch>;
  candidateSearch?: Promise<TextSearch>;
  hits: Map<string, Promise<ReadonlySet<string>>>;
  hitTables: Map<string, Promise<string>>;
  inflight: number;
  retired: boolean;
}

/**
 * The data worker's API: loads a release (parsing and checks happen here, off the main
 * thread) and answers the explorer's typed questions. The first files answer the task list and
 * a task at once; DuckDB starts afterwards and answers the rest (rejections, entities, the
 * documents' uses, statistics). Each load fills its own schema, so a refused load leaves the
 * shown release exactly as it was, and a new load cancels a pending one instead of queueing.
 */
export function createExplorerData(
  startDb: () => Promise<SqlDatabase>,
  baseHref: string,
  options: ExplorerDataOptions = {},
) {
  let database: Promise<SqlDatabase> | undefined;
  const db = () => {
    database ??= startDb();
    database.catch(() => (database = undefined));
    return database;
  };
  const timeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const fetchFn = options.fetchFn ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  let loads = 0;
  /** Schemas are named per service, so that two services on one database never meet. */
  const instance = Math.floor(Math.random() * 36 ** 6).toString(36);
  /** The release the page shows (queries answer from it). */
  let shown: Generation | undefined;
  /** The newest load, until it is shown or fails. */
  let pending: Generation | undefined;

  function generation(spec: SourceSpec, events: LoadEvents, mode: LoadMode): Generation {
    const abort = new AbortController();
    const fetcher = guardedFetch(fetchFn, { signal: abort.signal, timeoutMs });
    return {
      no: ++loads,
      mode,
      events,
      abort,
      source: new CachingSource(sourceOf(spec, baseHref, fetcher)),
      started: now(),
      corpus: 'none',
      complete: false,
      hits: new Map(),
      hitTables: new Map(),
      inflight: 0,
      retired: false,
    };
  }

  /** The first files: task rows in memory, and the corpus rows when docs.parquet has them. */
  async function readFirst(g: Generation): Promise<void> {
    const select = g.mode.light ? (f: PlannedFile) => lightFile(f, g.mode.splits) : firstFile;
    const { plan, root } = await planRelease(g.source);
    await g.source.prefetch(select);
    const listed = g.source.list();
    const docsFile = plan.find((f) => f.kind === 'docs');
    // docs.parquet's footer arrives while the first files are parsed (the source keeps it).
    // (Block-checked reads are widened to whole blocks: an embed with block pins gains nothing.)
    if (docsFile && isParquet(docsFile) && !(g.mode.light && docsFile.blocks)) {
      void g.source
        .open(`${root}${docsFile.path}`)
        .then((file) => file && ParquetDocs.prefetchFooter(file))
        .catch(() => undefined);
    }
    // docs.parquet is read by ranges at once and hashed against its pin after the first view
    // (completeLoad): the whole-file download never delays it. An embed checks the blocks it
    // reads when the release pins them, and never downloads the file whole.
    const first = await loadRelease(g.source, {
      deferParquet: true,
      parquetCheck: g.mode.light ? 'blocks' : 'on-demand',
      select,
      onProgress: (p) => g.events.progress?.(p),
    });
    throwIfCancelled(g);
    g.first = first;
    g.tables = taskTables(first);
    const docsParquet = first.parquet.find((p) => p.kind === 'docs');
    g.chunksParquet = first.parquet.find((p) => p.kind === 'chunks')?.file;
    if (docsParquet) {
      g.corpus = 'parquet';
      g.docs = await ParquetDocs.open(docsParquet.file, docsParquet.path.slice(root.length));
    } else if (docsFile && !isParquet(docsFile)) {
      const path = `${root}${docsFile.path}`;
      const exists = listed ? listed.includes(path) : (await g.source.open(path)) !== undefined;
      if (exists) g.corpus = 'jsonl';
    }
    g.store = new TaskStore(g.tables, g.corpus !== 'none');
    // Source quality is a facet of the task list: the corpus rows' small columns are read now
    // when the list is the first view, and the list waits for them; a task page does not (it
    // reads its own documents' rows). An embed reads only the rows it shows, when it shows them.
    if (g.mode.listFirst !== false) void qualitiesOf(g);
    if (g.mode.firstTask && g.docs && !g.mode.light) {
      const { taskId, split } = g.mode.firstTask;
      const first = g.store.goldDocs(taskId, split)[0];
      if (first) void g.docs.text(first).catch(() => undefined);
    }
    throwIfCancelled(g);
    g.summary = summarise(first, g.store.countsBySplitType(), now() - g.started, false);
  }

  /** The source quality of every task's gold documents, in the task store (read once, when first asked for). */
  function qualitiesOf(g: Generation): Promise<void> | undefined {
    if (!g.qualities && g.docs && g.store && !g.mode.light) {
      const store = g.store;
      g.qualities = g.docs.all().then((rows) => store.setDocQualities(rows));
      g.qualities.catch(() => undefined);
    }
    return g.qualities;
  }

  /**
   * An embed's parquet files hashed against their pins; a mismatch refuses what it shows. Settles
   * once the check has run, either way (a refusal is reported through the load's events).
   */
  function checkLight(g: Generation): Promise<void> {
    if (!g.lightChecked) {
      g.lightChecked = parquetChecked(g.first?.parquet ?? []);
      g.lightChecked.catch((error: unknown) => {
        if (shown !== g || cancelled(g, error)) return;
        shown = undefined;
        retire(g);
        const { error: message, file } = refusal(error);
        g.events.refused?.(message, file);
      });
    }
    return g.lightChecked.catch(() => undefined);
  }

  /** Everything else: every file read and checked, then DuckDB filled in this load's own schema. */
  function engineOf(g: Generation): Promise<Engine> {
    if (g.mode.light)
      return Promise.reject(new Error('An embedded view reads only what it shows: open the full explorer for this.'));
    if (!g.engine) {
      g.engine = fill(g);
      g.engine.then(
        (engine) => {
          g.summary = engine.summary;
          g.complete = true;
          g.source.forget();
          if (shown === g) g.events.completed?.(engine.summary);
        },
        (error: unknown) => {
          g.engine = undefined;
          if (shown !== g || cancelled(g, error)) return;
          if (error instanceof EngineUnavailable && g.checked) {
            // Every file was read and checked: the release stands; what needs DuckDB says why it
            // cannot answer, and asks DuckDB again next time (it may be back online).
            g.summary = g.checked;
            g.complete = true;
            g.events.completed?.(g.checked);
            return;
          }
          // A release shown from its first files is refused as a whole when the rest fails.
          shown = undefined;
          retire(g);
          const { error: message, file } = refusal(error);
          g.events.refused?.(message, file);
        },
      );
    }
    return g.engine;
  }

  /** Every file of the release, read and checked once (the engine, the systems and the locator share it). */
  function wholeOf(g: Generation): Promise<LoadedRelease> {
    if (!g.whole) {
      g.whole = loadRelease(g.source, {
        deferParquet: true,
        parquetCheck: 'on-demand',
        onProgress: (p) => g.events.progress?.(p),
      });
      g.whole.catch(() => (g.whole = undefined));
    }
    return g.whole;
  }

  async function fill(g: Generation): Promise<Engine> {
    const dbReady = db();
    dbReady.catch(() => undefined);
    const release = await wholeOf(g);
    // Every deferred parquet file is hashed against its pin before the release stands: the
    // first files' copies too (their early range reads are compared with the hashed bytes).
    await parquetChecked([...(g.first?.parquet ?? []), ...release.parquet]);
    throwIfCancelled(g);
    if (!g.docs) {
      const docsParquet = release.parquet.find((p) => p.kind === 'docs');
      if (release.docs) g.docs = memoryDocs(release.docs);
      else if (docsParquet) g.docs = await ParquetDocs.open(docsParquet.file, docsParquet.path);
    }
    g.chunksParquet ??= release.parquet.find((p) => p.kind === 'chunks')?.file;
    const records = g.docs ? await g.docs.all() : [];
    const tables = taskTables(release);
    // The task list keeps answering from memory, now from every file (build/ releases have
    // their tasks in pooled.jsonl, which is not a first file).
    const store = new TaskStore(tables, g.docs !== undefined);
    if (g.docs) store.setDocQualities(records);
    store.setPool(release.pool);
    if (!g.mode.enginesFirst) {
      g.tables = tables;
      g.store = store;
      g.pool = Promise.resolve(release.pool);
      g.checked = summarise(release, store.countsBySplitType(), now() - g.started, true);
    }
    // Arrow and the table code load with DuckDB, not with the first view.
    const { createTables, fillSourceQuality } = await import('./tables.ts');
    let sql: SqlSession;
    try {
      sql = await (await dbReady).session(`r${instance}_${g.no}`);
    } catch (e) {
      throw new EngineUnavailable(e);
    }
    try {
      await createTables(sql, release, tables, records);
      await fillSourceQuality(sql);
      throwIfCancelled(g);
      g.tables = tables;
      const counts = g.mode.enginesFirst ? await q.countsBySplitType(sql) : store.countsBySplitType();
      return { release, sql, summary: summarise(release, counts, now() - g.started, true) };
    } catch (e) {
      await sql.close().catch(() => undefined);
      throw e;
    }
  }

  function throwIfCancelled(g: Generation): void {
    if (g.abort.signal.aborted) throw g.abort.signal.reason;
  }

  /** Stops a load's fetches and frees its schema once no query is using it. */
  function retire(g: Generation): void {
    if (g.retired) return;
    g.retired = true;
    g.abort.abort(new LoadCancelled());
    closeIfIdle(g);
  }

  function closeIfIdle(g: Generation): void {
    if (!g.retired || g.inflight > 0 || !g.engine) return;
    g.engine.then(
      (engine) => engine.sql.close(),
      () => undefined,
    );
  }

  function show(g: Generation): void {
    const before = shown;
    shown = g;
    if (pending === g) pending = undefined;
    if (before && before !== g) retire(before);
  }

  function current(): Generation {
    if (!shown) throw new Error('No release is loaded.');
    return shown;
  }

  async function withSql<T>(run: (sql: SqlSession, g: Generation) => Promise<T>): Promise<T> {
    const g = current();
    g.inflight++;
    try {
      return await run((await engineOf(g)).sql, g);
    } finally {
      g.inflight--;
      closeIfIdle(g);
    }
  }

  /** The store when it can answer this filter (never in the engines-first design). */
  function storeFor(g: Generation, filter: q.TaskFilter): TaskStore | undefined {
    const store = g.store;
    if (g.mode.enginesFirst || !store || (store.size === 0 && !g.complete)) return undefined;
    if (!store.canAnswer(filter as StoreFilter) || !store.facetsKnown) return undefined;
    return store;
  }

  /** The store for one task: build/ releases have their tasks in pooled.jsonl, read with the rest. */
  async function detailStore(g: Generation): Promise<TaskStore | undefined> {
    if (g.mode.enginesFirst) return undefined;
    if (g.store && (g.store.size > 0 || g.complete || g.mode.light)) return g.store;
    await engineOf(g);
    return g.store;
  }

  function taskSearch(g: Generation): Promise<TextSearch> {
    const tables = g.tables!;
    g.taskSearch ??= buildSearch(
      tables.tasks.map((r) => ({
        key: `${r.split}:${r.task_id}`,
        question: r.question,
        answer: [r.answer ?? '', r.false_element ?? ''].join(' ').trim(),
        items: itemsText(r.items_json),
      })),
    );
    return g.taskSearch;
  }

  async function storeFilter(g: Generation, filter: q.TaskFilter): Promise<StoreFilter> {
    const { text: raw, hitsTable: _, ...rest } = filter;
    const text = raw?.trim();
    if (!text) return rest;
    let hits = g.hits.get(text);
    if (!hits) {
      hits = taskSearch(g).then(async (s) => new Set(await s.keys(text)));
      g.hits.set(text, hits);
    }
    return { ...rest, hits: await hits, hitsText: text };
  }

  /** The filter with its free text resolved to a table of Orama hits (the SQL path). */
  async function sqlFilter(sql: SqlSession, g: Generation, filter: q.TaskFilter): Promise<q.TaskFilter> {
    const text = filter.text?.trim();
    if (!text) return filter;
    let table = g.hitTables.get(text);
    if (!table) {
      const name = `hits_${g.hitTables.size}`;
      table = (async () => {
        const keys = await (await taskSearch(g)).keys(text);
        const { Table, Utf8, vectorFromArray } = await import('apache-arrow');
        await sql.insertArrow(name, new Table({ key: vectorFromArray(keys, new Utf8()) }));
        return name;
      })();
      g.hitTables.set(text, table);
    }
    const { text: _, ...rest } = filter;
    return { ...rest, hitsTable: await table, hitsText: text };
  }

  async function taskQuery<T>(
    filter: q.TaskFilter,
    fromStore: (store: TaskStore, f: StoreFilter) => T,
    fromSql: (sql: SqlSession, f: q.TaskFilter) => Promise<T>,
  ): Promise<T> {
    const g = current();
    const qualities = g.complete ? undefined : qualitiesOf(g);
    if (qualities) await qualities;
    const store = storeFor(g, filter);
    if (store) return fromStore(store, await storeFilter(g, filter));
    return withSql(async (sql) => fromSql(sql, await sqlFilter(sql, g, filter)));
  }

  /** Documents of the shown release: from docs.parquet at once, from docs.jsonl once it is read. */
  async function docsOf(g: Generation): Promise<DocsIndex | undefined> {
    if (g.docs || g.corpus !== 'jsonl') return g.docs;
    await engineOf(g);
    return g.docs;
  }

  function poolOf(g: Generation): Promise<PoolEntry[] | undefined> {
    if (g.mode.light) return Promise.resolve(undefined);
    g.pool ??= loadRelease(g.source, { deferParquet: true, select: (f) => f.kind === 'pool' }).then((r) => r.pool);
    g.pool.catch(() => (g.pool = undefined));
    return g.pool;
  }

  /** The submissions side by side: every file is needed (predictions), an embed has none. */
  async function systemsOf(g: Generation): Promise<SystemsIndex | undefined> {
    if (g.mode.light) return undefined;
    const release = await wholeOf(g);
    g.systems ??= new SystemsIndex(
      (split) => release.splits[split]?.tasks,
      release.submissions,
      release.judgeProfile?.gate_max_citations,
    );
    return g.systems;
  }

  async function chunksOf(docId: string): Promise<Chunk[] | undefined> {
    const g = current();
    if (!g.chunksParquet && !g.mode.light) {
      const release = (await engineOf(g)).release;
      if (release.chunks) return release.chunks.filter((c) => c.doc_id === docId);
    }
    const file = g.chunksParquet;
    if (!file) return undefined;
    g.chunkDocIds ??= parquetReadObjects({ file, columns: ['doc_id'] }).then((rows) =>
      (rows as Array<{ doc_id: string }>).map((r) => r.doc_id),
    );
    g.chunkDocIds.catch(() => (g.chunkDocIds = undefined));
    const ids = await g.chunkDocIds;
    const first = ids.indexOf(docId);
    if (first < 0) return [];
    let last = first;
    while (ids[last + 1] === docId) last++;
    return (await parquetReadObjects({
      file,
      columns: ['chunk_id', 'doc_id', 'text'],
      rowStart: first,
      rowEnd: last + 1,
    })) as Chunk[];
  }

  return {
    /**
     * Loads a release. With nothing shown yet it answers after the first files (the summary says
     * complete: false) and reads the rest when the page calls completeLoad(); a load that
     * replaces a shown release answers once it is complete, so that a refusal changes nothing.
     */
    async load(spec: SourceSpec, events: LoadEvents = {}, mode: LoadMode = {}): Promise<LoadOutcome> {
      if (pending) retire(pending);
      const g = generation(spec, events, mode);
      pending = g;
      try {
        if (mode.enginesFirst) {
          await engineOf(g);
        } else {
          await readFirst(g);
          if (shown && !mode.light) await engineOf(g);
        }
        throwIfCancelled(g);
        show(g);
        return { ok: true, summary: g.summary! };
      } catch (error) {
        const stopped = cancelled(g, error);
        if (pending === g) pending = undefined;
        retire(g);
        if (stopped) return { ok: false, error: new LoadCancelled().message, cancelled: true };
        return { ok: false, ...refusal(error) };
      }
    },

    /**
     * Reads the rest of the shown release (the page calls it once the first view is on screen);
     * an embed only checks the parquet file it read rows from against its pin, and the answer
     * settles when that check has run (the embeds of a page take turns with it).
     */
    async completeLoad(): Promise<void> {
      const g = shown;
      if (!g) return;
      if (g.mode.light) await checkLight(g);
      else engineOf(g).catch(() => undefined);
    },

    summary(): ReleaseSummary | undefined {
      return shown?.summary;
    },

    async taskPage(filter: q.TaskFilter, sort: q.TaskOrder, offset: number, limit: number) {
      return taskQuery(
        filter,
        (s, f) => s.taskPage(f, sort, offset, limit),
        (sql, f) => q.taskPage(sql, f, sort, offset, limit),
      );
    },

    async taskRows(filter: q.TaskFilter, sort: q.TaskOrder, offset: number, limit: number) {
      return taskQuery(
        filter,
        (s, f) => s.taskRows(f, sort, offset, limit),
        (sql, f) => q.taskRows(sql, f, sort, offset, limit),
      );
    },

    async taskFacets(filter: q.TaskFilter) {
      return taskQuery(
        filter,
        (s, f) => s.taskFacets(f),
        (sql, f) => q.taskFacets(sql, f),
      );
    },

    async taskNeighbours(filter: q.TaskFilter, sort: q.TaskOrder, taskId: string, split: string) {
      return taskQuery(
        filter,
        (s, f) => s.taskNeighbours(f, sort, taskId, split),
        (sql, f) => q.taskNeighbours(sql, f, sort, taskId, split),
      );
    },

    async taskIds(filter: q.TaskFilter, sort: q.TaskOrder): Promise<string[]> {
      const page = await taskQuery(
        filter,
        (s, f) => s.taskRows(f, sort, 0, 10_000),
        (sql, f) => q.taskRows(sql, f, sort, 0, 10_000),
      );
      return page.rows.map((r) => r.task_id);
    },

    /**
     * One task's own columns at once, without its documents' rows or the pool (partial: true), so
     * that a task page shows its question, gold ids and ranking while taskDetail reads the rest;
     * undefined when only DuckDB can answer.
     */
    async taskBrief(taskId: string, split?: string): Promise<q.TaskDetail | undefined> {
      const g = current();
      if (g.mode.enginesFirst || !g.store || (g.store.size === 0 && !g.complete)) return undefined;
      const brief = await g.store.taskDetail(taskId, split, undefined, undefined);
      return brief && { ...brief, partial: true };
    },

    /** One task; the pool comes with it (read on its own when the rest of the release is not yet). */
    async taskDetail(taskId: string, split?: string) {
      const g = current();
      const store = await detailStore(g);
      if (!store) return withSql((sql) => q.taskDetail(sql, taskId, split));
      const docs = docsOf(g);
      // The task page opens its first gold document: its text is read at once, not after a
      // round trip to the page, and before the pool (a large file to parse) and the pool's rows
      // (many row groups), which would otherwise take the worker and the browser's few
      // connections to the host while the text waits.
      const first = g.mode.light ? undefined : store.goldDocs(taskId, split)[0];
      if (first) await docs.then((d) => d?.text(first)).catch(() => undefined);
      const [index, pool] = await Promise.all([docs, poolOf(g)]);
      return store.taskDetail(taskId, split, index, pool);
    },

    async docs(ids: string[]) {
      const g = current();
      if (g.mode.enginesFirst) return withSql((sql) => q.docsByIds(sql, ids));
      return (await docsOf(g))?.rows(ids) ?? [];
    },

    /** A document's text: from docs.jsonl, or from docs.parquet by row (range read). */
    async docText(docId: string): Promise<string | undefined> {
      const g = current();
      if (g.mode.enginesFirst) {
        const [row] = await withSql((sql) =>
          sql.all<{ text: string | null }>('SELECT text FROM docs WHERE doc_id = ?', [docId]),
        );
        if (!row) return undefined;
        if (row.text !== null) return row.text;
      }
      return (await docsOf(g))?.text(docId);
    },

    /** Everything the Document page shows but the text; an embed gets the row alone (it shows nothing else). */
    async docDetail(docId: string): Promise<DocDetail> {
      const g = current();
      if (g.mode.light) {
        const [row] = (await g.docs?.rows([docId])) ?? [];
        return { row, entities: [], uses: [] };
      }
      return withSql((sql) => docDetail(sql, docId));
    },

    /** The release's chunks of a document (chunks.jsonl or chunks.parquet), or undefined without chunks. */
    chunks: chunksOf,

    /** The release's locator of its documents in the Hugging Face source, when it ships one (read on first use). */
    async sourceLocator(): Promise<SourceLocator | undefined> {
      const g = current();
      if (g.whole) return (await g.whole).sourceLocator;
      g.locator ??= loadRelease(g.source, { select: (f) => f.kind === 'source_locator' }).then((r) => r.sourceLocator);
      g.locator.catch(() => (g.locator = undefined));
      return g.locator;
    },

    /** Tasks × submissions with the judge-free numbers of each (parses the predictions on first use). */
    async systemsMatrix(split: SplitName) {
      return (await systemsOf(current()))?.matrix(split);
    },

    /** Each submission's answer, citations and retrieved list for one task. */
    async taskSystems(taskId: string, split: SplitName) {
      return (await systemsOf(current()))?.task(taskId, split) ?? [];
    },

    async funnel() {
      return withSql((sql) => funnel(sql));
    },

    async rejections(filter: RejectionFilter & { text?: string }, offset: number, limit: number) {
      const { text, ...facets } = filter;
      return withSql(async (sql, g) => {
        let ids: string[] | undefined;
        if (text?.trim()) {
          g.candidateSearch ??= engineOf(g).then((e) =>
            buildSearch(
              (e.release.candidates ?? []).map((c) => ({
                key: c.task_id,
                question: c.question,
                answer: c.answer ?? '',
                items: (c.items ?? []).map((i) => i.item).join('\n'),
              })),
            ),
          );
          ids = await (await g.candidateSearch).keys(text.trim());
        }
        return rejections(sql, facets, offset, limit, ids);
      });
    },

    async candidate(taskId: string) {
      return withSql((sql) => candidateDetail(sql, taskId));
    },

    async entities(all: boolean) {
      return withSql((sql) => entityList(sql, all));
    },

    async entityTasks(name: string) {
      return withSql((sql) => entityTasks(sql, name));
    },

    async stats() {
      return withSql((sql) => releaseStats(sql));
    },
  };
}

/** Orama loads on the first free-text search, not with the first view. */
async function buildSearch(rows: Parameters<typeof TextSearch.build>[0]): Promise<TextSearch> {
  const { TextSearch } = await import('./text-search.ts');
  return TextSearch.build(rows);
}

/** A load stopped because a newer one started (whatever a source made of the abort). */
function cancelled(g: { abort: AbortController }, error: unknown): boolean {
  return error instanceof LoadCancelled || (g.abort.signal.aborted && g.abort.signal.reason instanceof LoadCancelled);
}

function itemsText(json: string | null): string {
  if (!json) return '';
  return (JSON.parse(json) as Array<{ item: string }>).map((i) => i.item).join('\n');
}

function refusal(error: unknown): { error: string; file?: string } {
  const message = errorMessage(error);
  return error instanceof ReleaseRefused && error.file ? { error: message, file: error.file } : { error: message };
}

function now(): number {
  return globalThis.performance?.now() ?? Date.now();
}

function summarise(
  release: LoadedRelease,
  counts: ReleaseSummary['counts'],
  loadMs: number,
  complete: boolean,
): ReleaseSummary {
  const manifestCounts = Object.entries(release.manifest?.splits ?? {}).flatMap(([split, s]) =>
    Object.entries(s?.by_type ?? {}).map(([type, count]) => ({
      split,
      type,
      count: count ?? 0,
      n_tasks: s?.n_tasks ?? 0,
    })),
  );
  const hasKey = Object.fromEntries(Object.entries(release.splits).map(([split, s]) => [split, Boolean(s?.tasks)]));
  return {
    label: release.label,
    layout: release.layout,
    descriptor: release.descriptor,
    files: release.files,
    // Until every file is read, what the release lacks is not known.
    lacks: complete ? release.lacks : [],
    counts,
    manifestCounts,
    hasKey,
    leaderboard: release.leaderboard,
    judgeProfile: release.judgeProfile,
    datasetCard: release.datasetCard,
    submissions: release.submissions.map((s) => ({
      slug: s.slug,
      system_name: s.metadata?.system_name ?? s.scores?.system_name,
      split: s.metadata?.split ?? s.scores?.split,
      has_predictions: s.predictionsText !== undefined,
      has_scores: s.scores !== undefined,
    })),
    loadMs,
    complete,
  };
}
