/** Where a release comes from, as the page tells each worker (structured-clonable), and the source it opens. */
import { OnlySource } from './only-source.ts';
import { FileListSource, UrlSource, type ReleaseSource } from './source.ts';
import type { LayoutName } from './layout.ts';

/**
 * `only` (embeds): load just these file kinds of an our-layout release, besides its questions and tasks.
 * `layout`: the layout when known (a URL cannot be listed), so that no other layout is probed.
 */
export type SourceSpec =
  | { kind: 'url'; base: string; only?: string[]; layout?: LayoutName }
  | { kind: 'files'; label: string; files: Array<{ path: string; file: Blob }> };

/** The source a spec names; a relative base URL resolves against `baseHref` (the page's or worker's location). */
export function sourceOf(spec: SourceSpec, baseHref: string): ReleaseSource {
  if (spec.kind === 'url') {
    const source = new UrlSource(new URL(spec.base, baseHref).href, undefined, spec.layout);
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
