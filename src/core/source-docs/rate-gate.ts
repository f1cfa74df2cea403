/**
 * Pacing under a server's request budget. The Hub counts requests over fixed windows (resolve and
 * API apart) and states what is left in each answer's `RateLimit` header; one gate per Hub session
 * learns that from every answer, per bucket (an origin, and for the Hub its route), and holds new
 * requests of a bucket whose budget is used up by the requests already in flight, until the window
 * resets. A 429 or 503 with a wait blocks its bucket for everyone until then.
 */
import { parseRateLimit } from '../net/retry-after.ts';

/** Time, sleeping and randomness, injectable so that tests never wait on the clock. */
export interface RateClock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** In [0, 1): the jitter of backoffs. */
  random(): number;
}

export const SYSTEM_CLOCK: RateClock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      // Timers run on another clock than Date.now() and may fire a millisecond early: a wait
      // until a reset must not end before it by now(), or the gate would hold the request again.
      const end = Date.now() + ms;
      let timer: ReturnType<typeof setTimeout>;
      const stop = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const wake = () => {
        const left = end - Date.now();
        if (left > 0) {
          timer = setTimeout(wake, left);
          return;
        }
        signal?.removeEventListener('abort', stop);
        resolve();
      };
      timer = setTimeout(wake, ms);
      signal?.addEventListener('abort', stop, { once: true });
    }),
};

/** A request (or a whole lookup) waiting on a server: until when, and why. */
export interface RateWait {
  /** When it resumes (ms since the epoch, on the session's clock). */
  until: number;
  host: string;
  /** The Hub itself (not its file host). */
  hub: boolean;
  /** A rate limit (429, or a budget used up), or a server that said it is unavailable (503). */
  reason: 'rate-limit' | 'unavailable';
}

/** "in 42 s", "in 12 min", "in 1 h 5 min". */
export function inWords(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 90) return `in ${s} s`;
  const min = Math.round(s / 60);
  if (min < 90) return `in ${min} min`;
  return `in ${Math.floor(min / 60)} h ${min % 60} min`;
}

/** Why a read waits or gave up: "the Hub's rate limit is reached", "files.host is unavailable (HTTP 503)". */
export function waitCause(w: Pick<RateWait, 'host' | 'hub' | 'reason'>): string {
  if (w.reason === 'unavailable') return `${w.hub ? 'the Hub' : w.host} is unavailable (HTTP 503)`;
  return w.hub ? "the Hub's rate limit is reached" : `the rate limit of ${w.host} is reached`;
}

/** A progress line: "waiting for the Hub's rate limit, resumes in 42 s". */
export function waitingLine(w: RateWait, now: number): string {
  const what =
    w.reason === 'unavailable'
      ? `${w.hub ? 'the Hub' : w.host} (unavailable, HTTP 503)`
      : w.hub
        ? "the Hub's rate limit"
        : `the rate limit of ${w.host}`;
  return `waiting for ${what}, resumes ${inWords(w.until - now)}`;
}

/** What the gate saw in a session: for the bench and the CLI's summary. */
export interface RateStats {
  /** 429 answers. */
  limited: number;
  /** 503 answers. */
  unavailable: number;
  /** Requests that waited (held by the gate, or retried after a wait). */
  waits: number;
  /** Time during which some request waited (overlapping waits counted once). */
  waitMs: number;
}

/** Waits under way; says when the earliest resume changes, and when none is left. */
export class WaitSet {
  private readonly active = new Set<RateWait>();
  private since = 0;
  /** Total time with at least one wait under way. */
  waitedMs = 0;

  constructor(
    private readonly now: () => number,
    private readonly onChange?: (wait: RateWait | undefined) => void,
  ) {}

  /** Registers a wait; the returned function ends it. */
  add(wait: RateWait): () => void {
    if (this.active.size === 0) this.since = this.now();
    this.active.add(wait);
    this.onChange?.(this.current());
    return () => {
      if (!this.active.delete(wait)) return;
      if (this.active.size === 0) this.waitedMs += this.now() - this.since;
      this.onChange?.(this.current());
    };
  }

  /** The wait that ends first, or undefined when nothing waits. */
  current(): RateWait | undefined {
    let first: RateWait | undefined;
    for (const w of this.active) if (!first || w.until < first.until) first = w;
    return first;
  }
}

interface Bucket {
  /** Requests left in the window, as last stated (less those answered since without a header). */
  remaining?: number;
  /** When the window resets. */
  resetAt?: number;
  /** The window's full budget, when a policy header named it. */
  quota?: number;
  /** The window's length, when a policy header named it (the next reset follows from the last). */
  windowMs?: number;
  /** A 429/503 said to wait until then. */
  blockedUntil?: number;
  inFlight: number;
}

/**
 * Two answers whose resets are within this of each other belong to the same window: t is in whole
 * seconds, and each answer's reset is reckoned from when it arrived.
 */
const SAME_WINDOW_MS = 2000;

export class RateGate {
  readonly stats: RateStats = { limited: 0, unavailable: 0, waits: 0, waitMs: 0 };
  private readonly buckets = new Map<string, Bucket>();
  private readonly waits: WaitSet;

  constructor(
    readonly clock: RateClock,
    /** The budget a URL's request counts against. */
    private readonly bucketOf: (url: string) => string,
    onWait?: (wait: RateWait | undefined) => void,
  ) {
    this.waits = new WaitSet(
      () => clock.now(),
      (w) => {
        this.stats.waitMs = this.waits.waitedMs;
        onWait?.(w);
      },
    );
  }

  /** The session's earliest resume while something waits. */
  get waiting(): RateWait | undefined {
    return this.waits.current();
  }

  private bucket(url: string): Bucket {
    const key = this.bucketOf(url);
    let b = this.buckets.get(key);
    if (!b) this.buckets.set(key, (b = { inFlight: 0 }));
    const now = this.clock.now();
    if (b.resetAt !== undefined && now >= b.resetAt) {
      // A new window: its budget is the policy's, or unknown until an answer states it; it ends a
      // window's length after the last (fixed windows), so requests resuming together at the reset
      // are paced too. Answers correct both.
      const known = b.quota !== undefined && b.windowMs !== undefined && b.windowMs > 0;
      b.remaining = b.quota;
      b.resetAt = known ? b.resetAt + Math.ceil((now + 1 - b.resetAt) / b.windowMs!) * b.windowMs! : undefined;
    }
    if (b.blockedUntil !== undefined && now >= b.blockedUntil) b.blockedUntil = undefined;
    return b;
  }

  /** Until when a new request to `url` should wait (undefined: it may go now). */
  holdUntil(url: string): number | undefined {
    const b = this.bucket(url);
    if (b.blockedUntil !== undefined) return b.blockedUntil;
    if (b.remaining !== undefined && b.resetAt !== undefined && b.remaining <= b.inFlight) return b.resetAt;
    return undefined;
  }

  /** A request to `url` is sent; call the returned function with its answer (or without, when it failed). */
  start(url: string): (answer?: { url: string; headers: Headers }) => void {
    const sent = this.bucket(url);
    sent.inFlight++;
    let settled = false;
    return (answer) => {
      if (settled) return;
      settled = true;
      sent.inFlight--;
      const stated = answer && parseRateLimit(answer.headers);
      if (answer && stated) this.learn(this.bucket(answer.url), stated);
      else if (answer && sent.remaining !== undefined) sent.remaining = Math.max(0, sent.remaining - 1);
    };
  }

  private learn(b: Bucket, stated: NonNullable<ReturnType<typeof parseRateLimit>>): void {
    if (stated.quota !== undefined) b.quota = stated.quota;
    if (stated.windowMs !== undefined) b.windowMs = stated.windowMs;
    if (stated.remaining === undefined) return;
    const resetAt = stated.resetMs === undefined ? undefined : this.clock.now() + stated.resetMs;
    // Answers arrive out of order: within one window the lowest count left is the latest.
    const sameWindow =
      b.remaining !== undefined &&
      b.resetAt !== undefined &&
      (resetAt === undefined || Math.abs(resetAt - b.resetAt) <= SAME_WINDOW_MS);
    b.remaining = sameWindow ? Math.min(b.remaining!, stated.remaining) : stated.remaining;
    if (resetAt !== undefined && !sameWindow) b.resetAt = resetAt;
  }

  /** A 429 or 503 said to wait until `until`: every request of its bucket waits too. */
  block(url: string, until: number, status: 429 | 503): void {
    if (status === 429) this.stats.limited++;
    else this.stats.unavailable++;
    const b = this.bucket(url);
    b.blockedUntil = Math.max(b.blockedUntil ?? 0, until);
  }

  /** Sleeps until `wait.until` (cancelled by `signal`), counted as the session's wait. */
  async pause(wait: RateWait, signal?: AbortSignal): Promise<void> {
    this.stats.waits++;
    const end = this.waits.add(wait);
    try {
      await this.clock.sleep(Math.max(0, wait.until - this.clock.now()), signal);
    } finally {
      end();
    }
  }
}

/**
 * Progress that also speaks when a wait on the server starts or ends (nothing else moves then):
 * the last progress again, with or without `waiting`. `first` is what a wait before any progress
 * repeats; it is not reported by itself.
 */
export function waitingProgress<P extends { waiting?: RateWait }>(
  onProgress?: (p: P) => void,
  first?: P,
): { report: (p: P) => void; onWait: (w: RateWait | undefined) => void } {
  let last: P | undefined = first;
  let waiting: RateWait | undefined;
  const emit = () => {
    if (!last || !onProgress) return;
    const { waiting: _, ...rest } = last;
    onProgress((waiting ? { ...rest, waiting } : rest) as P);
  };
  return {
    report: (p) => {
      last = p;
      emit();
    },
    onWait: (w) => {
      waiting = w;
      emit();
    },
  };
}
