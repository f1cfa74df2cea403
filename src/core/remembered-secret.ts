/** The part of the Web Storage API a secret store needs (localStorage in the page, a Map in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Where a secret the user typed (the judge's API key, a Hugging Face token) may live: in memory by
 * default; in storage, under one item, only while the user has ticked "remember", and removed as
 * soon as they untick it or forget the secret. Storage that refuses (quota, blocked site data)
 * leaves the secret in memory only.
 */
export class RememberedSecret {
  constructor(
    private readonly storage: KeyValueStorage | undefined,
    private readonly item: string,
  ) {}

  /** The remembered value, if the user chose to remember one. */
  remembered(): string | undefined {
    try {
      return this.storage?.getItem(this.item) ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores the value when `remember` is true (and it is not empty), removes any stored value otherwise. */
  apply(value: string, remember: boolean): void {
    try {
      if (remember && value !== '') this.storage?.setItem(this.item, value);
      else this.storage?.removeItem(this.item);
    } catch {
      // Storage refused: the value stays in memory only.
    }
  }

  forget(): void {
    try {
      this.storage?.removeItem(this.item);
    } catch {
      // nothing was stored
    }
  }
}
