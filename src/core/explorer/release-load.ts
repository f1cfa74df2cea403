/**
 * One load of one release: its source, its plan (release.json read once), the rows it holds in
 * memory, and, once the rest is read and checked, its own DuckDB schema. The data worker's service
 * (service.ts) routes the page's questions to the load it shows; everything a load knows lives
 * here, so that a new load starts from nothing and a refused one leaves the shown one as it was.
 */
import { type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { readParquetRows } from '../parquet/read-rows.ts';
import { readParquetFooter } from '../parquet/checked-metadata.ts';
import { errorMessage } from '../error-message.ts';
import { loadRelease, ReleaseRefused, type LoadProgress, type LoadedRelease } from '../release/load.ts';
import type { PlannedFile } from '../release/layout.ts';
import { planRelease, type ReleasePlan } from '../release/plan.ts';
import { parquetChecked } from '../release/parquet-pin.ts';
import type { Chunk, PoolEntry, SplitName } from '../release/types.ts';
import type { SourceLocator } from '../source-docs/locator.ts';
import { LoadCancelled } from '../net/guarded-fetch.ts';
import type { CachingSource } from '../release/caching-source.ts';
import { docDetail, docTaskCounts, type DocDetail, type DocPoints } from './doc-queries.ts';
import { memoryDocs, ParquetDocs, type DocsIndex } from './docs-index.ts';
import { entityList, entityTasks } from './entity-queries.ts';
import { candidateDetail, candidatePoints, funnel, rejections, type RejectionFilter } from './rejection-queries.ts';
import { summarise, type ReleaseSummary } from './release-summary.ts';
import type { SqlDatabase, SqlSession } from './sql.ts';
import { releaseStats } from './stats.ts';
import { taskTables, type TaskTables } from './task-records.ts';
import { TaskStore, type StoreFilter } from './task-store.ts';
import type { TaskDetail, TaskFilter } from './task-vocabulary.ts';
import type { TextSearch } from './text-search.ts';
import { SystemsIndex } from './systems.ts';
import { Memo } from '../memo.ts';

/** What the page needs of a load first; the rest is read after the first view, in the background. */
export interface LoadNeeds {
  /**
   * What is shown first: the task list (the default: the corpus rows' small columns, its
   * source-quality facet, are read with the first files), one task (its first gold document's
   * text is read as soon as the first files are in), or something else (neither).
   */
  first?: 'task-list' | { task: string; split?: string } | 'other';
  /**
   * Only the rows asked for, by range reads: never the rest of the release nor DuckDB; the
   * parquet files read from are checked against their pins once the rows are shown.
   */
  rowsOnly?: boolean;
  /** With rowsOnly: the splits whose questions and tasks are read (every split when not given). */
  splits?: string[];
}

/** What the page hears about a load after its first answer (comlink proxies in the browser). */
export interface LoadEvents {
  progress?(p: LoadProgress): void;
  /** Every file is read and checked and DuckDB is filled: the summary is final. */
  completed?(summary: ReleaseSummary): void;
  /** The rest of a release shown from its first files was refused: it is no longer loaded. */
  refused?(error: string, file?: string): void;
}

/** What a load asks of the service that holds it. */
export interface LoadHost {
  db(): Promise<SqlDatabase>;
  /** The name of this load's DuckDB schema. */
  schema: string;
  /** Whether the page shows this load (only then does it hear of completion and refusal). */
  isShown(): boolean;
  /** The shown load was refused after its first view: the service shows nothing. */
  dropped(): void;
}

/** DuckDB could not start (its wasm unreachable offline, say): not a fault of the release. */
class EngineUnavailable extends Error {
  constructor(cause: unknown) {
    super(`DuckDB could not start: ${errorMessage(cause)}`, { cause });
    this.name = 'EngineUnavailable';
  }
}

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
/** The rows-only files: the splits' questions and tasks, the leaderboard, and docs.parquet for range reads. */
const rowsOnlyFile = (f: PlannedFile, splits: readonly string[] | undefined) =>
  f.kind === 'questions' || f.kind === 'tasks'
    ? !splits || (f.split !== undefined && splits.includes(f.split))
    : firstFile(f) && f.kind !== 'chunks' && f.kind !== 'judge_profile' && f.kind !== 'dataset_card';

interface Engine {
  release: LoadedRelease;
  sql: SqlSession;
  summary: ReleaseSummary;
}

export class ReleaseLoad {
  private readonly started = now();
  private readonly planned = new Memo<ReleasePlan>();
  private first?: LoadedRelease;
  private tables?: TaskTables;
  private store?: TaskStore;
  /** Where documents come from: none, docs.parquet (first files) or docs.jsonl (the full read). */
  private corpus: 'none' | 'parquet' | 'jsonl' = 'none';
  private docsIndex?: DocsIndex;
  /** Source quality of every task, once the corpus rows are read (the task list waits for it). */
  private qualities?: Promise<void>;
  private chunksParquet?: AsyncBuffer;
  private readonly chunkDocIds = new Memo<string[]>();
  private readonly chunkFooter = new Memo<FileMetaData>();
  /** Every file is read and DuckDB is filled. */
  private complete = false;
  /** The rows-only load's parquet files checked against their pins (after its view is on screen). */
  private rowsChecked?: Promise<void>;
  private readonly pool = new Memo<PoolEntry[] | undefined>();
  private readonly poolInStore = new Memo<void>();
  summary?: ReleaseSummary;
  /** The summary once every file is read and checked, before DuckDB is filled. */
  private checked?: ReleaseSummary;
  /** Every file read and checked (the first step of the engine, before DuckDB). */
  private readonly whole = new Memo<LoadedRelease>();
  private engine?: Promise<Engine>;
  private systems?: SystemsIndex;
  private readonly locator = new Memo<SourceLocator | undefined>();
  private taskSearch?: Promise<TextSearch>;
  private candidateSearch?: Promise<TextSearch>;
  private readonly hits = new Map<string, Promise<ReadonlySet<string>>>();
  private inflight = 0;
  private retired = false;

  /** `abort` stops the source's fetches: a load is retired by aborting it. */
  constructor(
    readonly source: CachingSource,
    readonly abort: AbortController,
    private readonly needs: LoadNeeds,
    private readonly events: LoadEvents,
    private readonly host: LoadHost,
  ) {}

  /** The release's plan, made once per load (release.json or the manifest read and parsed once). */
  private plan(): Promise<ReleasePlan> {
    return this.planned.get(() => planRelease(this.source));
  }

  /** The first files: task rows in memory, and the corpus rows when docs.parquet has them. */
  async readFirst(): Promise<void> {
    const select = this.needs.rowsOnly ? (f: PlannedFile) => rowsOnlyFile(f, this.needs.splits) : firstFile;
    const plan = await this.plan();
    this.source.prefetch(plan, select);
    const listed = this.source.list();
    const docsFile = plan.plan.find((f) => f.kind === 'docs');
    // docs.parquet's footer arrives while the first files are parsed (the source keeps it).
    // (Block-checked reads are widened to whole blocks: a rows-only load with block pins gains nothing.)
    if (docsFile && isParquet(docsFile) && !(this.needs.rowsOnly && docsFile.blocks)) {
      void this.source
        .open(`${plan.root}${docsFile.path}`)
        .then((file) => file && ParquetDocs.prefetchFooter(file))
        .catch(() => undefined);
    }
    // docs.parquet is read by ranges at once and hashed against its pin after the first view
    // (the engine): the whole-file download never delays it. A rows-only load checks the blocks
    // it reads when the release pins them, and never downloads the file whole.
    const first = await loadRelease(this.source, {
      plan,
      deferParquet: true,
      parquetCheck: this.needs.rowsOnly ? 'blocks' : 'on-demand',
      select,
      onProgress: (p) => this.events.progress?.(p),
    });
    this.throwIfCancelled();
    this.first = first;
    this.tables = taskTables(first);
    const docsParquet = first.parquet.find((p) => p.kind === 'docs');
    this.chunksParquet = first.parquet.find((p) => p.kind === 'chunks')?.file;
    if (docsParquet) {
      this.corpus = 'parquet';
      this.docsIndex = await ParquetDocs.open(docsParquet.file, docsParquet.path.slice(plan.root.length));
    } else if (docsFile && !isParquet(docsFile)) {
      const path = `${plan.root}${docsFile.path}`;
      const exists = listed ? listed.includes(path) : (await this.source.open(path)) !== undefined;
      if (exists) this.corpus = 'jsonl';
    }
    this.store = new TaskStore(this.tables, this.corpus !== 'none');
    const wanted = this.needs.first ?? 'task-list';
    // Source quality is a facet of the task list: the corpus rows' small columns are read now
    // when the list is shown first, and the list waits for them; a task page does not (it reads
    // its own documents' rows). A rows-only load reads only the rows it shows, when it shows them.
    if (wanted === 'task-list') void this.qualitiesRead();
    if (typeof wanted === 'object' && this.docsIndex && !this.needs.rowsOnly) {
      const gold = this.store.goldDocs(wanted.task, wanted.split)[0];
      if (gold) void this.docsIndex.text(gold).catch(() => undefined);
    }
    this.throwIfCancelled();
    this.summary = summarise(first, this.store.countsBySplitType(), now() - this.started, false);
  }

  /** The source quality of every task's gold documents, in the task store (read once, when first asked for). */
  private qualitiesRead(): Promise<void> | undefined {
    if (!this.qualities && this.docsIndex && this.store && !this.needs.rowsOnly) {
      const store = this.store;
      this.qualities = this.docsIndex.all().then((rows) => store.setDocQualities(rows));
      this.qualities.catch(() => undefined);
    }
    return this.qualities;
  }

  /**
   * What the rest of the load does once the first view is shown: a rows-only load checks the
   * parquet files it read rows from against their pins (the answer settles when that check has
   * run, either way); any other reads every file and fills DuckDB in the background.
   */
  async completeLoad(): Promise<void> {
    if (this.needs.rowsOnly) await this.checkRows();
    else this.engineOf().catch(() => undefined);
  }

  /** A rows-only load's parquet files hashed against their pins; a mismatch refuses what it shows. */
  private checkRows(): Promise<void> {
    if (!this.rowsChecked) {
      this.rowsChecked = parquetChecked(this.first?.parquet ?? []);
      this.rowsChecked.catch((error: unknown) => this.refuseShown(error));
    }
    return this.rowsChecked.catch(() => undefined);
  }

  /** A release shown from its first files is refused as a whole when the rest fails. */
  private refuseShown(error: unknown): void {
    if (!this.host.isShown() || this.isCancellation(error)) return;
    this.host.dropped();
    this.retire();
    const { error: message, file } = refusal(error);
    this.events.refused?.(message, file);
  }

  /** Everything else: every file read and checked, then DuckDB filled in this load's own schema. */
  engineOf(): Promise<Engine> {
    if (this.needs.rowsOnly)
      return Promise.reject(new Error('An embedded view reads only what it shows: open the full explorer for this.'));
    if (!this.engine) {
      this.engine = this.fill();
      this.engine.then(
        (engine) => {
          this.summary = engine.summary;
          this.complete = true;
          this.source.forget();
          if (this.host.isShown()) this.events.completed?.(engine.summary);
        },
        (error: unknown) => {
          this.engine = undefined;
          if (!this.host.isShown() || this.isCancellation(error)) return;
          if (error instanceof EngineUnavailable && this.checked) {
            // Every file was read and checked: the release stands; what needs DuckDB says why it
            // cannot answer, and asks DuckDB again next time (it may be back online).
            this.summary = this.checked;
            this.complete = true;
            this.events.completed?.(this.checked);
            return;
          }
          this.refuseShown(error);
        },
      );
    }
    return this.engine;
  }

  /** Every file of the release, read and checked once (the engine, the systems and the locator share it). */
  private wholeOf(): Promise<LoadedRelease> {
    return this.whole.get(() =>
      this.plan().then((plan) =>
        loadRelease(this.source, {
          plan,
          deferParquet: true,
          parquetCheck: 'on-demand',
          onProgress: (p) => this.events.progress?.(p),
        }),
      ),
    );
  }

  private async fill(): Promise<Engine> {
    const dbReady = this.host.db();
    dbReady.catch(() => undefined);
    const release = await this.wholeOf();
    // Every deferred parquet file is hashed against its pin before the release stands: the
    // first files' copies too (their early range reads are compared with the hashed bytes).
    await parquetChecked([...(this.first?.parquet ?? []), ...release.parquet]);
    this.throwIfCancelled();
    if (!this.docsIndex) {
      const docsParquet = release.parquet.find((p) => p.kind === 'docs');
      if (release.docs) this.docsIndex = memoryDocs(release.docs);
      else if (docsParquet) this.docsIndex = await ParquetDocs.open(docsParquet.file, docsParquet.path);
    }
    this.chunksParquet ??= release.parquet.find((p) => p.kind === 'chunks')?.file;
    const records = this.docsIndex ? await this.docsIndex.all() : [];
    const tables = taskTables(release);
    // The task list keeps answering from memory, now from every file (build/ releases have
    // their tasks in pooled.jsonl, which is not a first file).
    const store = new TaskStore(tables, this.docsIndex !== undefined);
    if (this.docsIndex) store.setDocQualities(records);
    store.setPool(release.pool);
    this.tables = tables;
    this.store = store;
    this.pool.set(Promise.resolve(release.pool));
    this.poolInStore.set(Promise.resolve());
    this.checked = summarise(release, store.countsBySplitType(), now() - this.started, true);
    // Arrow and the table code load with DuckDB, not with the first view.
    const { createTables, fillSourceQuality } = await import('./tables.ts');
    let sql: SqlSession;
    try {
      sql = await (await dbReady).session(this.host.schema);
    } catch (e) {
      throw new EngineUnavailable(e);
    }
    try {
      await createTables(sql, release, tables, records);
      await fillSourceQuality(sql);
      this.throwIfCancelled();
      return { release, sql, summary: this.checked };
    } catch (e) {
      await sql.close().catch(() => undefined);
      throw e;
    }
  }

  private throwIfCancelled(): void {
    if (this.abort.signal.aborted) throw this.abort.signal.reason;
  }

  /** A load stopped because a newer one started (whatever a source made of the abort). */
  isCancellation(error: unknown): boolean {
    return (
      error instanceof LoadCancelled || (this.abort.signal.aborted && this.abort.signal.reason instanceof LoadCancelled)
    );
  }

  /** Stops the load's fetches and frees its schema once no query is using it. */
  retire(): void {
    if (this.retired) return;
    this.retired = true;
    this.abort.abort(new LoadCancelled());
    this.closeIfIdle();
  }

  private closeIfIdle(): void {
    if (!this.retired || this.inflight > 0 || !this.engine) return;
    this.engine.then(
      (engine) => engine.sql.close(),
      () => undefined,
    );
  }

  /** Runs a question on this load's DuckDB schema (filled first when it is not yet). */
  async withSql<T>(run: (sql: SqlSession) => Promise<T>): Promise<T> {
    this.inflight++;
    try {
      return await run((await this.engineOf()).sql);
    } finally {
      this.inflight--;
      this.closeIfIdle();
    }
  }

  /**
   * The task store once it can answer a list question with this free text: every task is in it
   * (a build/ release's tasks come with the rest), the source qualities of its facet are known,
   * and, for a document id, the pool that also names the tasks using it.
   */
  private async listStore(text: string | undefined): Promise<TaskStore> {
    let store = await this.detailStore();
    if (!store.facetsKnown) {
      const qualities = this.qualitiesRead();
      if (qualities) await qualities;
      else await this.engineOf(); // the corpus is docs.jsonl, read with the rest
      store = this.store!;
    }
    if (store.needsPoolFor(text)) {
      await this.poolInStore.get(() => this.poolOf().then((pool) => store.setPool(pool)));
    }
    return store;
  }

  /** The store for one task: build/ releases have their tasks in pooled.jsonl, read with the rest. */
  private async detailStore(): Promise<TaskStore> {
    const store = this.store!;
    if (store.size > 0 || this.complete || this.needs.rowsOnly) return store;
    await this.engineOf();
    return this.store!;
  }

  private tasksSearch(): Promise<TextSearch> {
    const tables = this.tables!;
    this.taskSearch ??= buildSearch(
      tables.tasks.map((r) => ({
        key: `${r.split}:${r.task_id}`,
        question: r.question,
        answer: [r.answer ?? '', r.false_element ?? ''].join(' ').trim(),
        items: itemsText(r.items_json),
      })),
    );
    return this.taskSearch;
  }

  /** The filter with its free text resolved to the keys of the search hits. */
  private async storeFilter(filter: TaskFilter): Promise<StoreFilter> {
    const { text: raw, ...rest } = filter;
    const text = raw?.trim();
    if (!text) return rest;
    let hits = this.hits.get(text);
    if (!hits) {
      hits = this.tasksSearch().then(async (s) => new Set(await s.keys(text)));
      this.hits.set(text, hits);
    }
    return { ...rest, hits: await hits, hitsText: text };
  }

  /** A task-list question, answered by the task store once it can. */
  async taskList<T>(filter: TaskFilter, ask: (store: TaskStore, f: StoreFilter) => T): Promise<T> {
    const store = await this.listStore(filter.text?.trim());
    return ask(store, await this.storeFilter(filter));
  }

  /** One task's own columns at once, without its documents' rows or the pool (partial: true). */
  async taskBrief(taskId: string, split?: string): Promise<TaskDetail | undefined> {
    const store = this.store;
    if (!store || (store.size === 0 && !this.complete)) return undefined;
    const brief = await store.taskDetail(taskId, split, undefined, undefined);
    return brief && { ...brief, partial: true };
  }

  /** One task; the pool comes with it (read on its own when the rest of the release is not yet). */
  async taskDetail(taskId: string, split?: string): Promise<TaskDetail | undefined> {
    const store = await this.detailStore();
    const docs = this.docs();
    // The task page opens its first gold document: its text is read at once, not after a
    // round trip to the page, and before the pool (a large file to parse) and the pool's rows
    // (many row groups), which would otherwise take the worker and the browser's few
    // connections to the host while the text waits.
    const first = this.needs.rowsOnly ? undefined : store.goldDocs(taskId, split)[0];
    if (first) await docs.then((d) => d?.text(first)).catch(() => undefined);
    const [index, pool] = await Promise.all([docs, this.poolOf()]);
    return store.taskDetail(taskId, split, index, pool);
  }

  /** Documents of the release: from docs.parquet at once, from docs.jsonl once it is read. */
  async docs(): Promise<DocsIndex | undefined> {
    if (this.docsIndex || this.corpus !== 'jsonl') return this.docsIndex;
    await this.engineOf();
    return this.docsIndex;
  }

  private poolOf(): Promise<PoolEntry[] | undefined> {
    if (this.needs.rowsOnly) return Promise.resolve(undefined);
    return this.pool.get(() =>
      this.plan().then((plan) =>
        loadRelease(this.source, { plan, deferParquet: true, select: (f) => f.kind === 'pool' }).then((r) => r.pool),
      ),
    );
  }

  /** Everything the Document page shows but the text; a rows-only load gives the row alone. */
  async docDetail(docId: string): Promise<DocDetail> {
    if (this.needs.rowsOnly) {
      const [row] = (await this.docsIndex?.rows([docId])) ?? [];
      return { row, entities: [], uses: [] };
    }
    return this.withSql((sql) => docDetail(sql, docId));
  }

  /** The release's chunks of a document (chunks.jsonl or chunks.parquet), or undefined without chunks. */
  async chunks(docId: string): Promise<Chunk[] | undefined> {
    if (!this.chunksParquet && !this.needs.rowsOnly) {
      const release = (await this.engineOf()).release;
      if (release.chunks) return release.chunks.filter((c) => c.doc_id === docId);
    }
    const file = this.chunksParquet;
    if (!file) return undefined;
    const metadata = await this.chunkFooter.get(() => readParquetFooter(file, 'chunks.parquet'));
    const ids = await this.chunkDocIds.get(() =>
      readParquetRows({ file, metadata, columns: ['doc_id'] }, 'chunks.parquet').then((rows) =>
        (rows as Array<{ doc_id: string }>).map((r) => r.doc_id),
      ),
    );
    const first = ids.indexOf(docId);
    if (first < 0) return [];
    let last = first;
    while (ids[last + 1] === docId) last++;
    return (await readParquetRows(
      { file, metadata, columns: ['chunk_id', 'doc_id', 'text'], rowStart: first, rowEnd: last + 1 },
      'chunks.parquet',
    )) as unknown as Chunk[];
  }

  /** The release's locator of its documents in the Hugging Face source, when it ships one (read on first use). */
  async sourceLocator(): Promise<SourceLocator | undefined> {
    const whole = this.whole.current;
    if (whole) return (await whole).sourceLocator;
    return this.locator.get(() =>
      this.plan().then((plan) =>
        loadRelease(this.source, { plan, select: (f) => f.kind === 'source_locator' }).then((r) => r.sourceLocator),
      ),
    );
  }

  /** The submissions side by side: every file is needed (predictions), a rows-only load has none. */
  async systemsOf(): Promise<SystemsIndex | undefined> {
    if (this.needs.rowsOnly) return undefined;
    const release = await this.wholeOf();
    this.systems ??= new SystemsIndex(
      (split: SplitName) => release.splits[split]?.tasks,
      release.submissions,
      release.judgeProfile?.gate_max_citations,
    );
    return this.systems;
  }

  async funnel() {
    return this.withSql((sql) => funnel(sql));
  }

  async candidatePoints() {
    return this.withSql((sql) => candidatePoints(sql));
  }

  /**
   * The map's documents layer: the corpus's first `limit` documents with the opening of their
   * text, and how many of the split's tasks hold each in their gold set and pool; `total` is
   * the corpus's size. Empty without a corpus that has its text.
   */
  async docPoints(split: string, limit: number, maxChars: number): Promise<DocPoints> {
    const docs = await this.docs();
    if (!docs) return { total: 0, points: [] };
    const [total, openings, counts] = await Promise.all([
      docs.all().then((rows) => rows.length),
      docs.openings(limit, maxChars),
      this.withSql((sql) => docTaskCounts(sql, split)),
    ]);
    const byDoc = new Map(counts.map((c) => [c.doc_id, c]));
    return {
      total,
      points: openings.map((o) => ({
        ...o,
        gold: byDoc.get(o.doc_id)?.gold ?? 0,
        pool: byDoc.get(o.doc_id)?.pool ?? 0,
      })),
    };
  }

  async rejections(filter: RejectionFilter & { text?: string }, offset: number, limit: number) {
    const { text, ...facets } = filter;
    return this.withSql(async (sql) => {
      let ids: string[] | undefined;
      if (text?.trim()) {
        this.candidateSearch ??= this.engineOf().then((e) =>
          buildSearch(
            (e.release.candidates ?? []).map((c) => ({
              key: c.task_id,
              question: c.question,
              answer: c.answer ?? '',
              items: (c.items ?? []).map((i) => i.item).join('\n'),
            })),
          ),
        );
        ids = await (await this.candidateSearch).keys(text.trim());
      }
      return rejections(sql, facets, offset, limit, ids);
    });
  }

  async candidate(taskId: string) {
    return this.withSql((sql) => candidateDetail(sql, taskId));
  }

  async entities(all: boolean) {
    return this.withSql((sql) => entityList(sql, all));
  }

  async entityTasks(name: string) {
    return this.withSql((sql) => entityTasks(sql, name));
  }

  async stats() {
    return this.withSql((sql) => releaseStats(sql));
  }
}

/** Orama loads on the first free-text search, not with the first view. */
async function buildSearch(rows: Parameters<typeof TextSearch.build>[0]): Promise<TextSearch> {
  const { TextSearch } = await import('./text-search.ts');
  return TextSearch.build(rows);
}

function itemsText(json: string | null): string {
  if (!json) return '';
  return (JSON.parse(json) as Array<{ item: string }>).map((i) => i.item).join('\n');
}

export function refusal(error: unknown): { error: string; file?: string } {
  const message = errorMessage(error);
  return error instanceof ReleaseRefused && error.file ? { error: message, file: error.file } : { error: message };
}

function now(): number {
  return globalThis.performance?.now() ?? Date.now();
}
