/** Where a release comes from, as the page tells each worker (structured-clonable), and the source it opens. */
import { OnlySource } from './only-source.ts';
import { FileListSource, UrlSource, type ReleaseSource } from './source.ts';
import type { LayoutName } from './layout.ts';

/**
 * `only` (embeds): load just these file kinds of an our-layout release, besides its questions and tasks.
 * `layout`: the layout when known (a URL cannot be listed), so that no other layout is probed.
 * `judgeProfile`: the judge profile the site ships for a release that has none (releases.json), pinned by sha256.
 */
export type SourceSpec =
  | { kind: 'url'; base: string; only?: string[]; layout?: LayoutName; judgeProfile?: { url: string; sha256: string } }
  | { kind: 'files'; label: string; files: Array<{ path: string; file: Blob }> };

/**
 * The source a spec names; a relative base URL resolves against `baseHref` (the page's or
 * worker's location). `fetchFn` is how a URL source fetches (the data worker passes one that
 * times out and can be cancelled).
 */
export function sourceOf(spec: SourceSpec, baseHref: string, fetchFn?: typeof fetch): ReleaseSource {
  if (spec.kind === 'url') {
    const source = new UrlSource(new URL(spec.base, baseHref).href, fetchFn, spec.layout);
    return spec.only ? new OnlySource(source, spec.only) : source;
  }
  return new FileListSource(
    spec.label,
    spec.files.map((f) => ({ path: f.path, blob: f.file })),
  );
}

/** A key that is equal for two specs naming the same release. */
export function sourceKey(spec: SourceSpec): string {
  return spec.kind === 'url' ? `url:${spec.base}` : `files:${spec.label}:${spec.files.length}`;
}
