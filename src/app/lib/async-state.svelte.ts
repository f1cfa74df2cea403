import { errorMessage } from '../../core/error-message.ts';

/**
 * The latest result of an asynchronous load (a worker call), whether one is under way, and how the
 * last one failed. Each run supersedes the ones before it: an earlier answer that arrives late is
 * dropped, so the view always shows what its latest inputs asked for.
 */
export class AsyncState<T> {
  value = $state.raw<T | undefined>();
  pending = $state(false);
  error = $state<string | undefined>();
  /** The latest run has settled (with a value, possibly undefined, or an error); false before any run. */
  settled = $state(false);
  #generation = 0;
  #last: (() => Promise<T>) | undefined;

  /**
   * Starts `load`; resolves once it has settled (never rejects: the failure is in `error`).
   * `keep`: leave the previous value on show until the new one arrives (a list being refiltered).
   */
  run(load: () => Promise<T>, options: { keep?: boolean } = {}): Promise<void> {
    const generation = ++this.#generation;
    this.#last = load;
    this.pending = true;
    this.settled = false;
    this.error = undefined;
    if (!options.keep) this.value = undefined;
    let loading: Promise<T>;
    try {
      loading = load();
    } catch (error) {
      loading = Promise.reject(error);
    }
    return loading.then(
      (value) => {
        if (generation !== this.#generation) return;
        this.value = value;
        this.pending = false;
        this.settled = true;
      },
      (error: unknown) => {
        if (generation !== this.#generation) return;
        this.error = errorMessage(error);
        this.pending = false;
        this.settled = true;
      },
    );
  }

  /** Runs the last load again (after a failure), keeping what is on show. */
  retry(): Promise<void> {
    return this.#last ? this.run(this.#last, { keep: true }) : Promise.resolve();
  }

  /** Nothing to show: drops the value, the error and any load still under way. */
  reset(): void {
    this.#generation++;
    this.#last = undefined;
    this.value = undefined;
    this.pending = false;
    this.settled = false;
    this.error = undefined;
  }
}
