/**
 * The view state lives in the URL's query string (readable names, defaults left out), so every
 * view, filter and selection has a permalink and back/forward work.
 */
class UrlState {
  params = $state(new URLSearchParams(location.search));
  /** This entry's position in the session history (kept in history.state), so views can tell where Back leads. */
  index = $state(0);

  constructor() {
    const known = readIndex(history.state);
    if (known === undefined) history.replaceState({ ...asRecord(history.state), idx: 0 }, '');
    else this.index = known;
    window.addEventListener('popstate', (e) => {
      this.params = new URLSearchParams(location.search);
      this.index = readIndex(e.state) ?? 0;
    });
  }

  get(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  getAll(name: string): string[] {
    return this.params.getAll(name);
  }

  /** Sets or clears parameters; `replace` for typing-as-you-go changes that should not stack history. */
  update(changes: Record<string, string | string[] | undefined>, replace = false): void {
    this.go(this.with(changes), replace);
  }

  /** This query string with some parameters set or cleared (no `?`): for links that keep the rest. */
  with(changes: Record<string, string | string[] | undefined>): string {
    // A fresh copy is built and then assigned whole, which is what triggers reactivity.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const next = new URLSearchParams(this.params);
    for (const [k, v] of Object.entries(changes)) {
      next.delete(k);
      if (v === undefined || v === '') continue;
      for (const value of Array.isArray(v) ? v : [v]) next.append(k, value);
    }
    return next.toString();
  }

  /** Goes to a whole query string (`a=1&b=2`, no `?`). */
  go(search: string, replace = false): void {
    const url = `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
    if (replace) history.replaceState({ idx: this.index }, '', url);
    else {
      this.index++;
      history.pushState({ idx: this.index }, '', url);
    }
    this.params = new URLSearchParams(search);
  }
}

function asRecord(state: unknown): Record<string, unknown> {
  return state && typeof state === 'object' ? (state as Record<string, unknown>) : {};
}

function readIndex(state: unknown): number | undefined {
  const idx = asRecord(state).idx;
  return typeof idx === 'number' ? idx : undefined;
}

export const url = new UrlState();

/** Parameters that survive a change of view from the nav (the release and the source settings stay). */
export const KEPT_PARAMS = ['release', 'hf_endpoint', 'hf_dataset', 'hf_revision'];
