/**
 * A RateClock whose time moves only when something sleeps on it: a sleep ends on the next turn of
 * the event loop with the clock at least at its end, so a test waits out a 60 s Retry-After (or a
 * window's reset) at once. Give `now` to the mock Hub too (its windows and signed-URL expiry), and
 * both sides see the same time.
 */
import type { RateClock } from '../../src/core/source-docs/rate-gate.ts';

export interface VirtualClock extends RateClock {
  /** Moves the clock on (between lookups: a window passes, a signed URL expires). */
  advance(ms: number): void;
  /** Every sleep asked for, in ms, in order. */
  slept: number[];
}

export function virtualClock(start = Date.UTC(2025, 0, 6, 9, 0, 0)): VirtualClock {
  let t = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    // Backoffs take the middle of their range: deterministic, and not the edge.
    random: () => 0.5,
    advance(ms) {
      t += ms;
    },
    sleep(ms, signal) {
      slept.push(ms);
      const end = t + Math.max(0, ms);
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const stop = () => {
          clearImmediate(timer);
          reject(signal?.reason);
        };
        const timer = setImmediate(() => {
          signal?.removeEventListener('abort', stop);
          t = Math.max(t, end);
          resolve();
        });
        signal?.addEventListener('abort', stop, { once: true });
      });
    },
  };
}
