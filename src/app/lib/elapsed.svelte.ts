/**
 * Whole seconds since `pending()` last became true, for the progress line of work that may take
 * more than a second (a query, a comparison). Call during a component's setup: the timer stops
 * with the work and with the component.
 */
export function elapsedWhile(pending: () => boolean): { readonly seconds: number } {
  let seconds = $state(0);
  $effect(() => {
    if (!pending()) return;
    const started = Date.now();
    seconds = 0;
    const timer = setInterval(() => (seconds = Math.floor((Date.now() - started) / 1000)), 250);
    return () => clearInterval(timer);
  });
  return {
    get seconds() {
      return seconds;
    },
  };
}

/**
 * The clock, ticking each second while `active()` holds (a countdown such as "resumes in 42 s"),
 * still otherwise. Call during a component's setup.
 */
export function nowWhile(active: () => boolean): { readonly now: number } {
  let now = $state(Date.now());
  $effect(() => {
    if (!active()) return;
    now = Date.now();
    const timer = setInterval(() => (now = Date.now()), 1000);
    return () => clearInterval(timer);
  });
  return {
    get now() {
      return now;
    },
  };
}
