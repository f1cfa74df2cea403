import { errorMessage } from '../../core/error-message.ts';
import type {
  FacetCount,
  TaskFacet,
  TaskFilter,
  TaskListRow,
  TaskOrder,
  TaskPage,
} from '../../core/explorer/task-vocabulary.ts';

/** The data worker's two task-list questions the list asks. */
export interface TaskListSource {
  taskPage(filter: TaskFilter, order: TaskOrder, offset: number, limit: number): Promise<TaskPage>;
  taskRows(
    filter: TaskFilter,
    order: TaskOrder,
    offset: number,
    limit: number,
  ): Promise<{ rows: TaskListRow[]; total: number }>;
}

/** One question of the list: what it filters, how it sorts, and the release it asks. */
export interface TaskListQuery {
  filter: TaskFilter;
  order: TaskOrder;
  /** The release's version: facet values remembered for one release are forgotten for the next. */
  release: number;
}

function sameQuestion(a: TaskListQuery, b: TaskListQuery): boolean {
  return JSON.stringify([a.filter, a.order]) === JSON.stringify([b.filter, b.order]);
}

/**
 * The Tasks list's rows for its current question, fetched a page at a time as they are scrolled
 * into view, with the facet counts of the question and every facet value the release has shown
 * (so a search finding nothing keeps them listed). Answers to a question no longer asked are
 * dropped, whatever order they arrive in.
 */
export class TaskListState {
  total = $state<number | undefined>();
  facetCounts = $state<Record<TaskFacet, FacetCount[]> | undefined>();
  /** Every value each facet has shown for this release. */
  known = $state<Partial<Record<TaskFacet, string[]>>>({});
  pages = $state<Record<number, TaskListRow[]>>({});
  error = $state<string | undefined>();
  /** The first page of the question has taken more than a second. */
  slow = $state(false);

  #query: TaskListQuery | undefined;
  #asked = 0;
  #knownFor = -1;
  /** Pages asked for and not yet here: bookkeeping, not state a view reads. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #pending = new Set<number>();

  constructor(
    private readonly source: TaskListSource,
    private readonly facetNames: readonly TaskFacet[],
    readonly pageSize = 100,
    private readonly slowAfterMs = 1000,
  ) {}

  /**
   * Asks a new question: its first page comes with the facets, so counts and total always agree.
   * Resolves true once that page is shown, false when the question was replaced or failed.
   */
  async ask(query: TaskListQuery): Promise<boolean> {
    const asked = ++this.#asked;
    // The same question asked again of a fuller load (the release's version moved on) keeps its
    // rows on screen until the answer comes: clearing them would drop the row a reader has focused
    // and leave Enter with no row to open in between.
    const again = this.#query !== undefined && sameQuestion(this.#query, query);
    this.#query = query;
    this.#pending.clear();
    if (!again) this.pages = {};
    const timer = setTimeout(() => {
      if (asked === this.#asked) this.slow = true;
    }, this.slowAfterMs);
    try {
      const page = await this.source.taskPage(query.filter, query.order, 0, this.pageSize);
      if (asked !== this.#asked) return false;
      this.total = page.total;
      this.facetCounts = page.facets;
      this.pages = { 0: page.rows };
      this.error = undefined;
      this.remember(query.release, page.facets);
      return true;
    } catch (e) {
      if (asked === this.#asked) this.error = errorMessage(e);
      return false;
    } finally {
      clearTimeout(timer);
      if (asked === this.#asked) this.slow = false;
    }
  }

  private remember(release: number, facets: Record<TaskFacet, FacetCount[]>): void {
    if (this.#knownFor !== release) {
      this.#knownFor = release;
      this.known = {};
    }
    const next = { ...this.known };
    for (const name of this.facetNames) {
      const values = [...(next[name] ?? []), ...facets[name].map((c) => c.value)];
      next[name] = values.filter((v, i) => values.indexOf(v) === i);
    }
    this.known = next;
  }

  /** Fetches the pages that rows [first, last) fall in and that are neither here nor asked for. */
  need(first: number, last: number): void {
    const query = this.#query;
    if (!query || this.total === undefined) return;
    const asked = this.#asked;
    for (let p = Math.floor(first / this.pageSize); p * this.pageSize < last; p++) {
      if (this.pages[p] || this.#pending.has(p)) continue;
      this.#pending.add(p);
      const page = p;
      this.source
        .taskRows(query.filter, query.order, page * this.pageSize, this.pageSize)
        .then((r) => {
          if (asked === this.#asked) this.pages = { ...this.pages, [page]: r.rows };
        })
        .catch((e: unknown) => {
          if (asked !== this.#asked) return;
          this.#pending.delete(page);
          this.error = errorMessage(e);
        });
    }
  }

  rowAt(index: number): TaskListRow | undefined {
    return this.pages[Math.floor(index / this.pageSize)]?.[index % this.pageSize];
  }

  /** Whether the rows a place returns to are here: the selected row's page, or every page of a short list. */
  holdsPlace(selected: number, virtual: boolean): boolean {
    if (this.total === undefined) return false;
    const needed = virtual
      ? [Math.floor(selected / this.pageSize)]
      : Array.from({ length: Math.ceil(this.total / this.pageSize) }, (_, i) => i);
    return needed.every((p) => this.pages[p]);
  }

  /** Some row shown has an answer key (the answer column is shown only then). */
  get hasAnswers(): boolean {
    return Object.values(this.pages).some((rows) => rows.some((r) => r.has_key));
  }
}
