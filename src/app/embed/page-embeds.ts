/**
 * The embeds of one page take turns with their pin check (a download of the whole docs.parquet,
 * after the embed is on screen): a frame checks once no other started embed of the page is still
 * loading, and one frame at a time. So no check takes bandwidth from an embed still loading, and
 * each check after the first revalidates the file in the browser's cache instead of downloading
 * it again.
 *
 * Embeds find each other on a BroadcastChannel of the site's origin (partitioned by the embedding
 * site in browsers that partition third-party storage). Web Locks would serialise the checks too,
 * but browsers deny them to third-party frames whose storage is blocked; the channel is enough.
 * Each frame says what it is doing: "loading", "settled" (shown, or failed, and waiting for its
 * turn), "checking", then "done"; or "gone" when unloaded. A newcomer says "hello" and the others
 * answer with their state. The turn goes to the settled frame with the smallest id once none is
 * loading or checking. A lazy frame that has not started is not waited for.
 */

export const EMBEDS_CHANNEL = 'epstein-bench:embeds';
/** A frame that never settles or never finishes its check (a background tab, a hung source) holds the others back at most this long. */
export const TURN_WAIT_MAX_MS = 10_000;

type FrameState = 'loading' | 'settled' | 'checking';
const KINDS = ['hello', 'loading', 'settled', 'checking', 'done', 'gone'] as const;

export interface EmbedMessage {
  kind: (typeof KINDS)[number];
  id: string;
}

export interface EmbedChannel {
  postMessage(m: EmbedMessage): void;
  onmessage: ((e: MessageEvent) => void) | null;
  close(): void;
}

export interface PageEmbedsEnv {
  /** Null: no channel (every frame checks on its own, at once). */
  channel?: EmbedChannel | null;
  id?: string;
  turnWaitMaxMs?: number;
}

export interface PageEmbeds {
  /** This frame has nothing to check (its load failed, or read no parquet file): the others need not wait for it. */
  nothingToCheck(): void;
  /** Runs `check` in this frame's turn (or after TURN_WAIT_MAX_MS); settles when it has run. */
  checkInTurn(check: () => Promise<void>): Promise<void>;
  /** This frame is leaving the page. */
  close(): void;
}

function browserChannel(): EmbedChannel | null {
  try {
    return typeof BroadcastChannel === 'function' ? new BroadcastChannel(EMBEDS_CHANNEL) : null;
  } catch {
    // A context without storage may refuse it: the frame checks on its own.
    return null;
  }
}

function isEmbedMessage(data: unknown): data is EmbedMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { kind, id } = data as Record<string, unknown>;
  return typeof id === 'string' && (KINDS as readonly unknown[]).includes(kind);
}

export function pageEmbeds(env: PageEmbedsEnv = {}): PageEmbeds {
  const channel = env.channel === undefined ? browserChannel() : env.channel;
  const id = env.id ?? crypto.randomUUID();
  const waitMax = env.turnWaitMaxMs ?? TURN_WAIT_MAX_MS;
  const others = new Map<string, FrameState>();
  let mine: FrameState | 'done' | 'gone' = 'loading';
  let wake: (() => void) | undefined;

  const post = (kind: EmbedMessage['kind']) => channel?.postMessage({ kind, id });
  const myTurn = () => [...others].every(([other, state]) => state === 'settled' && other > id);

  if (channel) {
    channel.onmessage = (event: MessageEvent) => {
      const m: unknown = event.data;
      if (!isEmbedMessage(m) || m.id === id) return;
      if (m.kind === 'done' || m.kind === 'gone') others.delete(m.id);
      else others.set(m.id, m.kind === 'hello' ? 'loading' : m.kind);
      // A newcomer learns who is there, and in what state.
      if (m.kind === 'hello' && (mine === 'loading' || mine === 'settled' || mine === 'checking')) post(mine);
      if (wake && myTurn()) wake();
    };
    post('hello');
  }

  function turn(): Promise<void> {
    if (myTurn()) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, waitMax);
      function done(): void {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  const api: PageEmbeds = {
    nothingToCheck() {
      if (mine !== 'loading') return;
      mine = 'done';
      post('done');
    },
    async checkInTurn(check) {
      if (mine === 'loading') {
        mine = 'settled';
        post('settled');
      }
      await turn();
      if (mine === 'gone') return;
      mine = 'checking';
      post('checking');
      try {
        await check();
      } finally {
        if (mine === 'checking') {
          mine = 'done';
          post('done');
        }
      }
    },
    close() {
      if (mine === 'gone') return;
      mine = 'gone';
      post('gone');
      channel?.close();
      wake?.();
    },
  };
  return api;
}
