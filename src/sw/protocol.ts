/** Messages between the page and the service worker (src/sw/service-worker.ts), answered on a MessagePort. */

export interface CachedRelease {
  /** The release's base URL (its folder, ending in '/'). */
  base: string;
  title: string;
  files: number;
  bytes: number;
}

export interface OfflineStatus {
  /** The app itself: pages, scripts, styles, and the engines it has used. */
  app: { files: number; bytes: number };
  releases: CachedRelease[];
}

export type OfflineRequest =
  { type: 'keep-release'; base: string; title: string; urls: string[] } | { type: 'status' } | { type: 'clear' };

export type OfflineReply = { ok: true; status: OfflineStatus } | { ok: false; error: string };

/** What the build writes into the service worker (vite-delivery.ts). */
export interface OfflineBuild {
  version: string;
  /** Paths below the site root, fetched at install. */
  precache: string[];
}
