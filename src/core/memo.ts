/**
 * A promise made on first use and kept; a failure is forgotten, so the next use makes it again (a
 * read that failed is tried again, one that worked is never repeated). The failure of a promise
 * already replaced does not forget its successor.
 */
export class Memo<T> {
  private promise: Promise<T> | undefined;

  /** The kept promise, or `make()`'s when there is none. */
  get(make: () => Promise<T>): Promise<T> {
    if (!this.promise) this.set(make());
    return this.promise!;
  }

  /** The kept promise (settled or not), if any. */
  get current(): Promise<T> | undefined {
    return this.promise;
  }

  /** Keeps this promise instead (undefined forgets): a value given outright, or a new input. */
  set(promise: Promise<T> | undefined): void {
    this.promise = promise;
    promise?.catch(() => {
      if (this.promise === promise) this.promise = undefined;
    });
  }
}
