/**
 * Tells the host page how tall the embed is (only the height leaves the frame, so '*' is fine),
 * whenever it changes. Returns a function that stops watching.
 */
export function postHeight(root: HTMLElement): () => void {
  if (window.parent === window) return () => undefined;
  let last = -1;
  const send = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'epstein-bench:height', height }, '*');
  };
  const observer = new ResizeObserver(send);
  observer.observe(root);
  send();
  // Chromium pauses rendering (and so ResizeObserver) in off-screen cross-origin frames: timers still run.
  const timer = setInterval(send, 1000);
  return () => {
    observer.disconnect();
    clearInterval(timer);
  };
}
