/**
 * The data worker's API: loads a release (parsing and checks happen here, off the main thread)
 * and routes the explorer's typed questions to the load it shows (release-load.ts). The first
 * files answer the task list and a task at once; DuckDB starts afterwards and answers the rest
 * (rejections, entities, the documents' uses, statistics). Each load fills its own schema, so a
 * refused load leaves the shown release exactly as it was, and a new load cancels a pending one
 * instead of queueing.
 */
import { sourceOf, type SourceSpec } from '../release/source-spec.ts';
import type { SplitName } from '../release/types.ts';
import type { SourceLocator } from '../source-docs/locator.ts';
import { guardedFetch, LoadCancelled } from '../net/guarded-fetch.ts';
import { CachingSource } from '../release/caching-source.ts';
import type { DocDetail } from './doc-queries.ts';
import { consoleApi } from './console-api.ts';
import { refusal, ReleaseLoad, type LoadEvents, type LoadNeeds } from './release-load.ts';
import type { ReleaseSummary } from './release-summary.ts';
import type { SqlDatabase } from './sql.ts';
import type { TaskDetail, TaskFilter, TaskOrder } from './task-vocabulary.ts';
import type { RejectionFilter } from './rejection-queries.ts';
import { Memo } from '../memo.ts';

export type { LoadEvents, LoadNeeds } from './release-load.ts';
export type { ReleaseSummary } from './release-summary.ts';

export type LoadOutcome =
  { ok: true; summary: ReleaseSummary } | { ok: false; error: string; file?: string; cancelled?: boolean };

export interface ExplorerDataOptions {
  /** How long a server may stay silent (no answer, or a body that stops) before a load fails. */
  fetchTimeoutMs?: number;
  fetchFn?: typeof fetch;
}

/** 20 s: a release host that has not started answering by then is down, not slow. */
export const DEFAULT_FETCH_TIMEOUT_MS = 20_000;

export function createExplorerData(
  startDb: () => Promise<SqlDatabase>,
  baseHref: string,
  options: ExplorerDataOptions = {},
) {
  const database = new Memo<SqlDatabase>();
  const db = () => database.get(startDb);
  const timeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const fetchFn = options.fetchFn ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  let loads = 0;
  /** Schemas are named per service, so that two services on one database never meet. */
  const instance = Math.floor(Math.random() * 36 ** 6).toString(36);
  /** The release the page shows (questions go to it). */
  let shown: ReleaseLoad | undefined;
  /** The newest load, until it is shown or fails. */
  let pending: ReleaseLoad | undefined;

  function newLoad(spec: SourceSpec, events: LoadEvents, needs: LoadNeeds): ReleaseLoad {
    const abort = new AbortController();
    const fetcher = guardedFetch(fetchFn, { signal: abort.signal, timeoutMs });
    const source = new CachingSource(sourceOf(spec, baseHref, fetcher));
    const load: ReleaseLoad = new ReleaseLoad(source, abort, needs, events, {
      db,
      schema: `r${instance}_${++loads}`,
      isShown: () => shown === load,
      dropped: () => {
        if (shown === load) shown = undefined;
      },
    });
    return load;
  }

  function show(load: ReleaseLoad): void {
    const before = shown;
    shown = load;
    if (pending === load) pending = undefined;
    if (before && before !== load) before.retire();
  }

  function current(): ReleaseLoad {
    if (!shown) throw new Error('No release is loaded.');
    return shown;
  }

  return {
    /**
     * Loads a release. With nothing shown yet it answers after the first files (the summary says
     * complete: false) and reads the rest when the page calls completeLoad(); a load that
     * replaces a shown release answers once it is complete, so that a refusal changes nothing.
     */
    async load(spec: SourceSpec, events: LoadEvents = {}, needs: LoadNeeds = {}): Promise<LoadOutcome> {
      pending?.retire();
      const load = newLoad(spec, events, needs);
      pending = load;
      try {
        await load.readFirst();
        if (shown && !needs.rowsOnly) await load.engineOf();
        if (load.abort.signal.aborted) throw load.abort.signal.reason;
        show(load);
        return { ok: true, summary: load.summary! };
      } catch (error) {
        const stopped = load.isCancellation(error);
        if (pending === load) pending = undefined;
        load.retire();
        if (stopped) return { ok: false, error: new LoadCancelled().message, cancelled: true };
        return { ok: false, ...refusal(error) };
      }
    },

    /**
     * Reads the rest of the shown release (the page calls it once the first view is on screen);
     * a rows-only load only checks the parquet files it read rows from against their pins, and
     * the answer settles when that check has run (the embeds of a page take turns with it).
     */
    async completeLoad(): Promise<void> {
      await shown?.completeLoad();
    },

    summary(): ReleaseSummary | undefined {
      return shown?.summary;
    },

    async taskPage(filter: TaskFilter, sort: TaskOrder, offset: number, limit: number) {
      return current().taskList(filter, (s, f) => s.taskPage(f, sort, offset, limit));
    },

    async taskRows(filter: TaskFilter, sort: TaskOrder, offset: number, limit: number) {
      return current().taskList(filter, (s, f) => s.taskRows(f, sort, offset, limit));
    },

    async taskFacets(filter: TaskFilter) {
      return current().taskList(filter, (s, f) => s.taskFacets(f));
    },

    async taskNeighbours(filter: TaskFilter, sort: TaskOrder, taskId: string, split: string) {
      return current().taskList(filter, (s, f) => s.taskNeighbours(f, sort, taskId, split));
    },

    async taskIds(filter: TaskFilter, sort: TaskOrder): Promise<string[]> {
      const page = await current().taskList(filter, (s, f) => s.taskRows(f, sort, 0, 10_000));
      return page.rows.map((r) => r.task_id);
    },

    /**
     * One task's own columns at once, without its documents' rows or the pool (partial: true), so
     * that a task page shows its question, gold ids and ranking while taskDetail reads the rest;
     * undefined when the task store does not hold the tasks yet (a build/ release).
     */
    async taskBrief(taskId: string, split?: string): Promise<TaskDetail | undefined> {
      return current().taskBrief(taskId, split);
    },

    /** One task; the pool comes with it (read on its own when the rest of the release is not yet). */
    async taskDetail(taskId: string, split?: string) {
      return current().taskDetail(taskId, split);
    },

    async docs(ids: string[]) {
      return (await current().docs())?.rows(ids) ?? [];
    },

    /** A document's text: from docs.jsonl, or from docs.parquet by row (range read). */
    async docText(docId: string): Promise<string | undefined> {
      return (await current().docs())?.text(docId);
    },

    /** Everything the Document page shows but the text; an embed gets the row alone (it shows nothing else). */
    async docDetail(docId: string): Promise<DocDetail> {
      return current().docDetail(docId);
    },

    /** The release's chunks of a document (chunks.jsonl or chunks.parquet), or undefined without chunks. */
    async chunks(docId: string) {
      return current().chunks(docId);
    },

    /** The release's locator of its documents in the Hugging Face source, when it ships one (read on first use). */
    async sourceLocator(): Promise<SourceLocator | undefined> {
      return current().sourceLocator();
    },

    /** Tasks × submissions with the judge-free numbers of each (parses the predictions on first use). */
    async systemsMatrix(split: SplitName) {
      return (await current().systemsOf())?.matrix(split);
    },

    /** Each submission's answer, citations and retrieved list for one task. */
    async taskSystems(taskId: string, split: SplitName) {
      return (await current().systemsOf())?.task(taskId, split) ?? [];
    },

    async funnel() {
      return current().funnel();
    },

    async candidatePoints() {
      return current().candidatePoints();
    },

    async docPoints(split: string, limit: number, maxChars: number) {
      return current().docPoints(split, limit, maxChars);
    },

    async rejections(filter: RejectionFilter & { text?: string }, offset: number, limit: number) {
      return current().rejections(filter, offset, limit);
    },

    async candidate(taskId: string) {
      return current().candidate(taskId);
    },

    async entities(all: boolean) {
      return current().entities(all);
    },

    async entityTasks(name: string) {
      return current().entityTasks(name);
    },

    ...consoleApi((run) => current().withSql(run)),

    async stats() {
      return current().stats();
    },
  };
}
