import { errorMessage } from '../../../core/error-message.ts';
import * as Comlink from 'comlink';
import type { ReleaseIndexInfo, SplitIndexInfo } from '../../../core/search/session.ts';
import type { IndexProgress, SearchMethod } from '../../../core/search/types.ts';
import { searchWorker } from '../../data/search-client.ts';
import { release } from '../../state/release.svelte.ts';

/** The release as the search worker sees it (its indexes), and index loading progress. */
class SearchState {
  info = $state<ReleaseIndexInfo | undefined>();
  /** The splits with tasks (asked for by whoever evaluates: the search worker reads the tasks for it). */
  splits = $state<SplitIndexInfo[] | undefined>();
  error = $state<string | undefined>();
  /** Per index file: bytes loaded (and total when known). */
  progress = $state<Record<string, IndexProgress>>({});
  encoder = $state<string | undefined>();
  private opened = -1;
  private opening: Promise<ReleaseIndexInfo | undefined> | undefined;
  private splitsOf = -1;

  /** Opens the page's release in the search worker once per release load. */
  ensureOpen(): Promise<ReleaseIndexInfo | undefined> {
    const spec = release.spec;
    if (!spec) return Promise.resolve(undefined);
    if (this.opened !== release.version || !this.opening) {
      this.opened = release.version;
      this.error = undefined;
      this.progress = {};
      this.splits = undefined;
      this.opening = searchWorker()
        .open(spec)
        .then((info) => (this.info = info))
        .catch((e: unknown) => {
          this.error = errorMessage(e);
          this.opening = undefined;
          return undefined;
        });
    }
    return this.opening;
  }

  /** Reads the splits once per release load (after ensureOpen). */
  async ensureSplits(): Promise<void> {
    if (!(await this.ensureOpen())) return;
    const version = this.opened;
    if (this.splitsOf === version) return;
    this.splitsOf = version;
    try {
      const splits = await searchWorker().splits();
      if (this.opened === version) this.splits = splits;
    } catch (e) {
      if (this.opened === version) this.error = errorMessage(e);
      this.splitsOf = -1;
    }
  }

  has(method: SearchMethod): boolean {
    const ix = this.info?.indexes;
    if (!ix?.bm25) return false;
    return method === 'bm25' || Boolean(ix.dense && ix.model);
  }

  /** Loads the index files a method needs, reporting bytes as they arrive. */
  async load(method: SearchMethod): Promise<void> {
    await searchWorker().load(
      method,
      Comlink.proxy((p: IndexProgress) => {
        this.progress = { ...this.progress, [p.file]: p };
      }),
    );
  }
}

export const searchState = new SearchState();

export const METHOD_LABELS: Record<SearchMethod, string> = { bm25: 'BM25', dense: 'Dense', hybrid: 'Hybrid (RRF)' };
