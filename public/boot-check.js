/*
 * Shows why the page did not start instead of leaving it blank: a script or style of the app
 * that could not be loaded (a host that lost part of dist/, an old copy in a cache), or a script
 * that stopped with an error before the app was on screen. A classic script, loaded before the
 * app's module; the app marks <html data-ebx-started> once it is mounted.
 */
(() => {
  const failed = [];
  const started = () => document.documentElement.hasAttribute('data-ebx-started');
  const show = (detail) => {
    const app = document.getElementById('app');
    if (!app || started()) return;
    const box = document.createElement('div');
    box.setAttribute('role', 'alert');
    box.setAttribute('data-testid', 'boot-error');
    box.style.font = '16px/1.5 system-ui, sans-serif';
    box.style.padding = '1rem';
    box.style.maxWidth = '40rem';
    const title = document.createElement('h1');
    title.style.fontSize = '1.25rem';
    title.textContent = 'Epstein Bench Explorer could not start';
    const what = document.createElement('p');
    what.textContent = detail;
    const hint = document.createElement('p');
    hint.textContent =
      'Reload the page. If this stays, the site was not copied whole: every file of the build (dist/) must be served from the same folder, at any path.';
    box.append(title, what, hint);
    app.replaceChildren(box);
  };
  window.addEventListener(
    'error',
    (event) => {
      const t = event.target;
      if (t instanceof HTMLScriptElement || t instanceof HTMLLinkElement) {
        const url = t instanceof HTMLScriptElement ? t.src : t.href;
        if (!url || failed.includes(url)) return;
        failed.push(url);
        show(`These files could not be loaded: ${failed.join(', ')}.`);
      } else if (event instanceof ErrorEvent && !started() && failed.length === 0) {
        show(`A script stopped with an error: ${String(event.message).slice(0, 300)}`);
      }
    },
    true,
  );
  window.addEventListener('load', () => {
    if (!started() && failed.length === 0) show('The page loaded, but its application did not start.');
  });
})();
