/**
 * The page's side of offline use: registers the service worker (src/sw/service-worker.ts, built
 * to sw.js at the site's root, whose folder is its scope) once a release is fully loaded, names that release's files for it to keep, and
 * asks it what it holds or to clear it.
 */
import type { ReleaseSummary } from '../../core/explorer/service.ts';
import type { SourceSpec } from '../../core/release/source-spec.ts';
import type { OfflineReply, OfflineRequest, OfflineStatus } from '../../sw/protocol.ts';
import { siteRoot } from '../data/site-root.ts';
import { Memo } from '../../core/memo.ts';

const supported = () => import.meta.env.PROD && 'serviceWorker' in navigator;

export function offlineSupported(): boolean {
  return supported();
}

const registering = new Memo<ServiceWorkerRegistration>();

function register(): Promise<ServiceWorkerRegistration> {
  return registering.get(() =>
    navigator.serviceWorker.register(new URL('sw.js', siteRoot()).href).then(() => navigator.serviceWorker.ready),
  );
}

async function ask(request: OfflineRequest): Promise<OfflineStatus> {
  const registration = await register();
  const worker = registration.active;
  if (!worker) throw new Error('the offline copy is not ready yet');
  const channel = new MessageChannel();
  const reply = new Promise<OfflineReply>(
    (resolve) => (channel.port1.onmessage = (e) => resolve(e.data as OfflineReply)),
  );
  worker.postMessage(request, [channel.port2]);
  const answer = await reply;
  if (!answer.ok) throw new Error(answer.error);
  return answer.status;
}

/** The files of a release loaded by URL, for the service worker to keep (picked files are local already). */
export function releaseUrls(spec: SourceSpec, summary: ReleaseSummary): { base: string; urls: string[] } | undefined {
  if (spec.kind !== 'url') return undefined;
  const base = new URL(spec.base, location.href).href.replace(/\/?$/, '/');
  const paths = new Set(
    summary.files.filter((f) => f.status === 'loaded' || f.status === 'deferred').map((f) => f.path),
  );
  if (summary.layout === 'ours') paths.add('release.json');
  const bm25 = summary.descriptor.indexes?.bm25;
  if (bm25) paths.add(bm25);
  return { base, urls: [...paths].map((p) => new URL(p, base).href) };
}

/** Fired on window whenever what the offline copy holds has changed. */
export const OFFLINE_CHANGED = 'ebx-offline-changed';

/** Called once a release is complete: the app and this release become available offline. */
export async function keepOffline(spec: SourceSpec, summary: ReleaseSummary): Promise<void> {
  if (!supported()) return;
  const files = releaseUrls(spec, summary);
  await register();
  if (files) await ask({ type: 'keep-release', base: files.base, title: summary.descriptor.title, urls: files.urls });
  window.dispatchEvent(new Event(OFFLINE_CHANGED));
}

/** What the offline copy holds, or undefined when there is none (nothing registered yet). */
export async function offlineStatus(): Promise<OfflineStatus | undefined> {
  if (!supported() || !(await navigator.serviceWorker.getRegistration())) return undefined;
  return ask({ type: 'status' });
}

/** Empties every cache of the app and unregisters the service worker; the next complete load starts over. */
export async function clearOffline(): Promise<void> {
  if (!supported()) return;
  await ask({ type: 'clear' });
  for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
  registering.set(undefined);
}
