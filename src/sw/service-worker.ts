/// <reference lib="webworker" />
/**
 * The service worker that keeps the explorer usable offline after a first visit. The build
 * (src/cli/vite-delivery.ts) strips its types and puts the list of files to precache in front
 * of it as `EBX_BUILD`; it has no imports.
 *
 * - The app: pages, scripts, styles and DuckDB's wasm are cached at install (hashed assets are
 *   answered from the cache first; they never change); assets fetched later (onnxruntime for a
 *   dense ranking) are added when first used.
 * - Releases: the page names the files of each release it opened ("keep-release"); they are
 *   stored whole, and answered from the cache only when the network fails, including the
 *   HEAD and Range requests of parquet range reads.
 */
import type { CachedRelease, OfflineBuild, OfflineReply, OfflineRequest, OfflineStatus } from './protocol.ts';

const sw = globalThis as unknown as ServiceWorkerGlobalScope & { EBX_BUILD?: OfflineBuild };
const BUILD: OfflineBuild = sw.EBX_BUILD ?? { version: 'dev', precache: [] };
const APP_CACHE = `ebx-app-${BUILD.version}`;
const RELEASE_CACHE = 'ebx-releases';
/** Where each kept release's title is noted, inside the release cache. */
const RELEASE_INDEX = new URL('__ebx__/releases.json', sw.registration.scope).href;
const scope = new URL(sw.registration.scope);
const assetsPath = `${scope.pathname}assets/`;

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(APP_CACHE);
      // The files were just downloaded by the page: the HTTP cache answers most of these.
      await cache.addAll(BUILD.precache.map((p) => new URL(p, scope).href));
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('ebx-app-') && name !== APP_CACHE) await caches.delete(name);
      }
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' && request.method !== 'HEAD') return;
  const url = new URL(request.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  if (request.mode === 'navigate' && url.origin === scope.origin) {
    event.respondWith(navigation(request, url));
  } else if (url.origin === scope.origin && url.pathname.startsWith(assetsPath) && request.method === 'GET') {
    event.respondWith(asset(request));
  } else {
    event.respondWith(networkFirst(request));
  }
});

sw.addEventListener('message', (event) => {
  const port = event.ports[0];
  if (!port) return;
  const message = event.data as OfflineRequest;
  const reply = (r: OfflineReply) => port.postMessage(r);
  event.waitUntil(
    handle(message).then(
      (status) => reply({ ok: true, status }),
      (e: unknown) => reply({ ok: false, error: e instanceof Error ? e.message : String(e) }),
    ),
  );
});

async function handle(message: OfflineRequest): Promise<OfflineStatus> {
  if (message.type === 'keep-release') await keepRelease(message.base, message.title, message.urls);
  else if (message.type === 'clear') {
    for (const name of await caches.keys()) if (name.startsWith('ebx-')) await caches.delete(name);
  }
  return status();
}

/** The page, from the network; offline, the cached page of the same kind (the app or an embed). */
async function navigation(request: Request, url: URL): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const page = url.pathname.startsWith(`${scope.pathname}embed/`) ? 'embed/index.html' : 'index.html';
    const cached = await caches.match(new URL(page, scope).href);
    if (cached) return cached;
    throw error;
  }
}

/** Hashed assets never change: the cache first, else the network (and keep what came). */
async function asset(request: Request): Promise<Response> {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.status === 200) {
    const copy = response.clone();
    void caches.open(APP_CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

/** The network; when it fails, the cached copy (whole, as a range, or as the headers of a HEAD). */
async function networkFirst(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(request.url, { ignoreVary: true });
    if (!cached) throw error;
    return fromCache(request, cached);
  }
}

async function fromCache(request: Request, cached: Response): Promise<Response> {
  const blob = await cached.blob();
  const headers = new Headers({
    'Content-Type': cached.headers.get('Content-Type') ?? 'application/octet-stream',
    'Accept-Ranges': 'bytes',
  });
  const etag = cached.headers.get('ETag');
  if (etag) headers.set('ETag', etag);
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get('Range') ?? '');
  if (!range) {
    headers.set('Content-Length', String(blob.size));
    return new Response(request.method === 'HEAD' ? null : blob, { status: 200, headers });
  }
  let start = Number(range[1] || 0);
  let end = range[2] ? Math.min(Number(range[2]), blob.size - 1) : blob.size - 1;
  if (range[1] === '' && range[2]) {
    start = Math.max(0, blob.size - Number(range[2]));
    end = blob.size - 1;
  }
  if (start > end) return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${blob.size}` } });
  headers.set('Content-Range', `bytes ${start}-${end}/${blob.size}`);
  headers.set('Content-Length', String(end - start + 1));
  return new Response(request.method === 'HEAD' ? null : blob.slice(start, end + 1), { status: 206, headers });
}

async function releaseIndex(cache: Cache): Promise<Record<string, string>> {
  const entry = await cache.match(RELEASE_INDEX);
  return entry ? ((await entry.json()) as Record<string, string>) : {};
}

/** Stores a release's files whole; a file already stored with the server's current ETag is kept. */
async function keepRelease(base: string, title: string, urls: string[]): Promise<void> {
  const cache = await caches.open(RELEASE_CACHE);
  const index = await releaseIndex(cache);
  index[base] = title;
  await cache.put(
    RELEASE_INDEX,
    new Response(JSON.stringify(index), { headers: { 'Content-Type': 'application/json' } }),
  );
  for (const url of urls) {
    const stored = await cache.match(url, { ignoreVary: true });
    if (stored) {
      const head = await fetch(url, { method: 'HEAD', cache: 'no-cache' }).catch(() => undefined);
      if (!head || !head.ok || head.headers.get('ETag') === stored.headers.get('ETag')) continue;
    }
    const response = await fetch(url, { cache: 'no-cache' }).catch(() => undefined);
    if (response?.status === 200) await cache.put(url, response);
  }
}

async function sizeOf(cache: Cache, keep: (url: string) => boolean): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const request of await cache.keys()) {
    if (!keep(request.url)) continue;
    const response = await cache.match(request);
    if (!response) continue;
    files++;
    bytes += (await response.blob()).size;
  }
  return { files, bytes };
}

async function status(): Promise<OfflineStatus> {
  const names = await caches.keys();
  let app = { files: 0, bytes: 0 };
  if (names.includes(APP_CACHE)) app = await sizeOf(await caches.open(APP_CACHE), () => true);
  const releases: CachedRelease[] = [];
  if (names.includes(RELEASE_CACHE)) {
    const cache = await caches.open(RELEASE_CACHE);
    const index = await releaseIndex(cache);
    for (const [base, title] of Object.entries(index)) {
      releases.push({ base, title, ...(await sizeOf(cache, (url) => url.startsWith(base))) });
    }
  }
  return { app, releases };
}
