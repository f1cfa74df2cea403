/**
 * The release diff as the app runs it (in a worker): reads both sides from their source specs,
 * keeps them for the downloads that follow (shared tasks, shared predictions), and cancels a
 * comparison still reading when a newer one starts. Same core as the CLI's `release-diff`, so the
 * files it gives are the CLI's, byte for byte.
 */
import { guardedFetch, LoadCancelled } from '../net/guarded-fetch.ts';
import { sourceOf, type SourceSpec } from '../release/source-spec.ts';
import type { SplitName } from '../release/types.ts';
import { diffReleases, type ReleaseDiff } from './diff.ts';
import { filterPredictions, sharedTasks, type FilteredPredictions, type SharedTasks } from './shared-tasks.ts';
import { diffSide, type DiffSide } from './side.ts';

/** One side of a comparison: where it is read from, and the name the report gives it. */
export interface DiffInput {
  spec: SourceSpec;
  label: string;
}

export type DiffStage = 'reading A' | 'reading B' | 'comparing';

/** As the data worker's loads: a server silent this long is given up on. */
const FETCH_TIMEOUT_MS = 20_000;

/** Predictions bigger than this are refused before they are read (a predictions file is a few MB). */
export const MAX_PREDICTIONS_BYTES = 64 * 1024 * 1024;

export interface ReleaseDiffSessionOptions {
  /** Where relative URLs resolve (the worker's location). */
  baseHref: string;
  fetchFn?: typeof fetch;
  fetchTimeoutMs?: number;
  maxPredictionsBytes?: number;
}

export class ReleaseDiffSession {
  #shown: { a: DiffSide; b: DiffSide; diff: ReleaseDiff } | undefined;
  #abort: AbortController | undefined;

  constructor(private readonly options: ReleaseDiffSessionOptions) {}

  /** Compares A (before) with B (after); a newer call cancels this one (it rejects with LoadCancelled). */
  async compare(a: DiffInput, b: DiffInput, onStage?: (stage: DiffStage) => void): Promise<ReleaseDiff> {
    this.#abort?.abort(new LoadCancelled());
    const abort = new AbortController();
    this.#abort = abort;
    this.#shown = undefined;
    const fetchFn = this.options.fetchFn ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
    const fetcher = guardedFetch(fetchFn, {
      signal: abort.signal,
      timeoutMs: this.options.fetchTimeoutMs ?? FETCH_TIMEOUT_MS,
    });
    const read = async (input: DiffInput): Promise<DiffSide> => {
      const side = await diffSide(sourceOf(input.spec, this.options.baseHref, fetcher));
      if (abort.signal.aborted) throw abort.signal.reason;
      return { ...side, label: input.label };
    };
    onStage?.('reading A');
    const sideA = await read(a);
    onStage?.('reading B');
    const sideB = await read(b);
    onStage?.('comparing');
    const diff = diffReleases(sideA, sideB);
    if (abort.signal.aborted) throw abort.signal.reason;
    this.#shown = { a: sideA, b: sideB, diff };
    return diff;
  }

  /** Stops a comparison still reading. */
  cancel(): void {
    this.#abort?.abort(new LoadCancelled());
    this.#abort = undefined;
  }

  /** The answer key of the tasks of `split` both sides share unchanged (as `--shared-tasks` writes it). */
  sharedTasks(split: SplitName): SharedTasks {
    const shown = this.#current();
    return sharedTasks(shown.diff, shown.a, shown.b, split);
  }

  /** A predictions file cut to the shared tasks of `split` (as `--shared-predictions` writes it). */
  async sharedPredictions(split: SplitName, predictions: Blob): Promise<FilteredPredictions> {
    const max = this.options.maxPredictionsBytes ?? MAX_PREDICTIONS_BYTES;
    if (predictions.size > max)
      throw new Error(`The predictions file has ${predictions.size} bytes; at most ${max} bytes are read.`);
    const ids = new Set(this.sharedTasks(split).ids);
    return filterPredictions(await predictions.text(), ids);
  }

  #current(): { a: DiffSide; b: DiffSide; diff: ReleaseDiff } {
    if (!this.#shown) throw new Error('No comparison is shown: compare two releases first.');
    return this.#shown;
  }
}
