/**
 * The view state lives in the URL's query string (readable names, defaults left out), so every
 * view, filter and selection has a permalink and back/forward work.
 */
class UrlState {
  params = $state(new URLSearchParams(location.search));

  constructor() {
    window.addEventListener('popstate', () => {
      this.params = new URLSearchParams(location.search);
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
    // A fresh copy is built and then assigned whole, which is what triggers reactivity.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const next = new URLSearchParams(this.params);
    for (const [k, v] of Object.entries(changes)) {
      next.delete(k);
      if (v === undefined || v === '') continue;
      for (const value of Array.isArray(v) ? v : [v]) next.append(k, value);
    }
    const search = next.toString();
    const url = `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
    if (replace) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    this.params = next;
  }
}

export const url = new UrlState();
