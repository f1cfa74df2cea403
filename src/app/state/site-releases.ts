/** The releases the site offers (static-data/releases.json) and how `?release=` names a release. */
import type { LayoutName } from '../../core/release/layout.ts';
import type { SourceSpec } from '../../core/release/source-spec.ts';
import { siteRoot } from '../data/site-root.ts';

/** One entry of static-data/releases.json: a release the site offers. */
export interface SiteRelease {
  id: string;
  title: string;
  /** A folder under static-data/ that the site serves itself. */
  path?: string;
  /** The base URL of a release elsewhere (read only when the user picks it; the app names the host). */
  url?: string;
  /** Its layout, when known, so that a URL is not probed. */
  layout?: LayoutName;
  /** About how many bytes a load reads (for the notice before a remote load). */
  approxBytes?: number;
  /** What pins it, in words (e.g. the commit). */
  pinnedAt?: string;
  /** A file under static-data/ listing its task ids' first 8 characters, to name a task's release without loading it. */
  taskIds?: string;
  /** A judge profile under static-data/ for a release that ships none (the benchmark keeps its judge in code), pinned by sha256. */
  judgeProfile?: { path: string; sha256: string };
}

/** What `?release=` names: a shipped release, a base URL, a remembered folder, or files picked once. */
export type ReleaseRef =
  | { kind: 'shipped'; id: string }
  | { kind: 'url'; base: string }
  | { kind: 'folder'; name: string }
  | { kind: 'files'; label: string };

/** `?release=` as written in the page URL; undefined for the site's default release. */
export function refParam(ref: ReleaseRef, defaultId: string | undefined): string | undefined {
  switch (ref.kind) {
    case 'shipped':
      return ref.id === defaultId ? undefined : ref.id;
    case 'url':
      return ref.base;
    case 'folder':
      return `folder:${ref.name}`;
    case 'files':
      return `files:${ref.label}`;
  }
}

export function parseRefParam(value: string | undefined): ReleaseRef | undefined {
  if (!value) return undefined;
  if (/^https?:\/\//.test(value)) return { kind: 'url', base: value };
  if (value.startsWith('folder:')) return { kind: 'folder', name: value.slice('folder:'.length) };
  if (value.startsWith('files:')) return { kind: 'files', label: value.slice('files:'.length) };
  return { kind: 'shipped', id: value };
}

export { siteRoot };

/** The host a shipped release is read from, when it is not this site. */
export function remoteHost(entry: SiteRelease): string | undefined {
  if (!entry.url) return undefined;
  const at = new URL(entry.url, siteRoot());
  return at.origin === location.origin ? undefined : at.host;
}

/** Where a shipped release's files are read from. */
export function shippedSpec(entry: SiteRelease, only?: string[]): SourceSpec {
  const base = entry.url
    ? new URL(entry.url, siteRoot()).href
    : new URL(`static-data/${entry.path ?? `${entry.id}/`}`, siteRoot()).href;
  const judgeProfile = entry.judgeProfile
    ? { url: new URL(`static-data/${entry.judgeProfile.path}`, siteRoot()).href, sha256: entry.judgeProfile.sha256 }
    : undefined;
  return {
    kind: 'url',
    base,
    ...(entry.layout ? { layout: entry.layout } : {}),
    ...(only ? { only } : {}),
    ...(judgeProfile ? { judgeProfile } : {}),
  };
}

let shippedList: Promise<SiteRelease[]> | undefined;

/** static-data/releases.json: the releases the site offers; the first is the default. */
export function siteReleases(): Promise<SiteRelease[]> {
  shippedList ??= (async () => {
    const response = await fetch(new URL('static-data/releases.json', siteRoot()).href);
    if (!response.ok) return [];
    const body = (await response.json()) as { releases?: SiteRelease[] };
    return body.releases ?? [];
  })().catch(() => []);
  return shippedList;
}
