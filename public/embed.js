/*
 * Epstein Bench embeds: <epstein-bench-task task-id="…" [split="full"] [release="…"]></epstein-bench-task>
 * and <epstein-bench-embed view="leaderboard" | view="map" [map="published-map.jsonl"] | doc-id="…"
 * [release="…"]>, each with an optional
 * theme="light" | "dark" | "auto" (default: the host page's colour scheme). Each builds an iframe on
 * the explorer's /embed/ page and resizes it when the page posts its height
 * ({type: 'epstein-bench:height', height}).
 */
(() => {
  const script = document.currentScript;
  const base = new URL('embed/index.html', script && script.src ? script.src : location.href);
  const frames = new Set();

  /**
   * Without theme=, an embed takes the host page's colour scheme (its computed `color-scheme`):
   * a page that declares none is drawn light, so the embed is too; a page that allows both
   * ("light dark") follows the visitor's setting, and so does the embed (theme="auto").
   */
  function hostTheme() {
    const scheme = getComputedStyle(document.documentElement).colorScheme || 'normal';
    const light = /\blight\b/.test(scheme);
    const dark = /\bdark\b/.test(scheme);
    if (dark && !light) return 'dark';
    if (light && dark) return 'auto';
    return 'light';
  }

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!data || data.type !== 'epstein-bench:height' || typeof data.height !== 'number') return;
    for (const frame of frames) {
      if (frame.contentWindow === event.source) frame.style.height = `${Math.max(0, Math.min(data.height, 100000))}px`;
    }
  });

  class EpsteinBenchEmbed extends HTMLElement {
    static get observedAttributes() {
      return ['task-id', 'split', 'doc-id', 'view', 'map', 'release', 'theme'];
    }
    connectedCallback() {
      this.render();
    }
    disconnectedCallback() {
      if (this.frame) frames.delete(this.frame);
    }
    attributeChangedCallback() {
      if (this.isConnected) this.render();
    }
    params() {
      const p = new URLSearchParams();
      const view = this.getAttribute('view');
      if (view) p.set('view', view);
      // A published map file (the CLI's `map --out`), relative to the page that embeds it.
      const map = this.getAttribute('map');
      if (map) p.set('map', new URL(map, location.href).href);
      const doc = this.getAttribute('doc-id');
      if (doc) p.set('doc', doc);
      const release = this.getAttribute('release');
      if (release) p.set('release', release);
      const theme = this.getAttribute('theme') || hostTheme();
      if (theme === 'light' || theme === 'dark') p.set('theme', theme);
      return p;
    }
    title() {
      return 'Epstein Bench';
    }
    render() {
      if (!this.frame) {
        this.frame = document.createElement('iframe');
        this.frame.setAttribute('loading', 'lazy');
        this.frame.setAttribute('width', '100%');
        this.frame.style.border = '0';
        this.frame.style.width = '100%';
        this.frame.style.height = '320px';
        this.frame.style.display = 'block';
        this.appendChild(this.frame);
        frames.add(this.frame);
      }
      this.frame.title = this.title();
      this.frame.src = `${base.href}?${this.params().toString()}`;
    }
  }

  class EpsteinBenchTask extends EpsteinBenchEmbed {
    params() {
      const p = super.params();
      const id = this.getAttribute('task-id');
      if (id) p.set('task', id);
      const split = this.getAttribute('split');
      if (split) p.set('split', split);
      return p;
    }
    title() {
      return `Epstein Bench – task ${this.getAttribute('task-id') || ''}`;
    }
  }

  if (!customElements.get('epstein-bench-embed')) customElements.define('epstein-bench-embed', EpsteinBenchEmbed);
  if (!customElements.get('epstein-bench-task')) customElements.define('epstein-bench-task', EpsteinBenchTask);
})();
