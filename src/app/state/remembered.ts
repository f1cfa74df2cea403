/**
 * Small preferences this browser remembers (theme, the welcome box, the reviewer's name). When
 * site data is blocked, reading localStorage throws: the app then works without remembering.
 */
function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export const remembered = {
  get(key: string): string | undefined {
    try {
      return storage()?.getItem(key) ?? undefined;
    } catch {
      return undefined;
    }
  },
  /** Stores the value (undefined: forgets it); false when the browser refused. */
  set(key: string, value: string | undefined): boolean {
    try {
      const s = storage();
      if (!s) return false;
      if (value === undefined) s.removeItem(key);
      else s.setItem(key, value);
      return true;
    } catch {
      return false;
    }
  },
};
