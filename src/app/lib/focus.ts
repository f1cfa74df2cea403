/**
 * After an in-app navigation the old page's elements are gone and focus falls to <body>. This
 * waits for the new page's <h1> and focuses it (without scrolling), unless something else took
 * focus meanwhile (a view restoring its selected row, for instance). Returns a cancel function.
 */
export function focusHeadingAfterNavigation(root: HTMLElement, timeoutMs = 15_000): () => void {
  const lost = () =>
    document.activeElement === null || document.activeElement === document.body || !document.activeElement.isConnected;
  const tryFocus = (): boolean => {
    if (!lost()) return true;
    const h1 = root.querySelector<HTMLElement>('h1');
    if (!h1) return false;
    if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
    h1.focus({ preventScroll: true });
    return true;
  };
  let done = false;
  const observer = new MutationObserver(() => {
    if (!done && tryFocus()) stop();
  });
  const timer = setTimeout(() => stop(), timeoutMs);
  function stop(): void {
    done = true;
    observer.disconnect();
    clearTimeout(timer);
  }
  // The old page's heading may still be there this instant: look after the DOM settles.
  queueMicrotask(() => {
    if (done) return;
    if (tryFocus()) stop();
    else observer.observe(root, { childList: true, subtree: true });
  });
  return stop;
}
