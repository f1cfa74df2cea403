/**
 * Where a release's local data (spot-check labels, gold appeals) is kept: by where the release
 * came from and what its pins say, never by the id and title the release claims for itself, so
 * a release on another host cannot see or withdraw another release's labels and appeals.
 */
import type { SourceSpec } from '../release/source-spec.ts';

export interface PinnedFile {
  path: string;
  kind: string;
  pin: 'ok' | 'none' | 'pending';
  sha256?: string;
}

/** The release's origin: its folder's URL, or the picked folder's name (the user's own disk). */
export function releaseOrigin(spec: SourceSpec, baseHref: string): string {
  if (spec.kind === 'url') {
    const at = new URL(spec.base, baseHref);
    return `${at.origin}${at.pathname}`;
  }
  return `files:${spec.label}`;
}

/** The scope key: the origin, then the questions files' checked pins (path and sha256, sorted). */
export function localDataScope(spec: SourceSpec, baseHref: string, files: readonly PinnedFile[]): string {
  const pins = files
    .filter((f) => f.kind === 'questions' && f.pin === 'ok' && f.sha256)
    .map((f) => `${f.path}=${f.sha256}`)
    .sort();
  return `${releaseOrigin(spec, baseHref)}#${pins.length ? pins.join(',') : 'unpinned'}`;
}
