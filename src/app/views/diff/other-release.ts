/**
 * The release the Diff view compares the loaded one with: a release the site offers or a URL
 * (both named in `?against=`, so a link reopens the comparison), or files picked from a disk
 * (kept in the page only: a browser cannot reopen them from a link).
 */
import type { SourceSpec } from '../../../core/release/source-spec.ts';
import { shippedSpec, type SiteRelease } from '../../state/site-releases.ts';

/** Which side of the diff the loaded release is (`?loaded=a`; B by default). */
export type LoadedSide = 'a' | 'b';

export type OtherRelease =
  | { kind: 'shipped'; id: string }
  | { kind: 'url'; base: string }
  | { kind: 'files'; label: string; files: Array<{ path: string; file: File }> };

/** `?against=` as written: a site release's id or an http(s) URL; undefined for picked files. */
export function againstParam(other: OtherRelease): string | undefined {
  return other.kind === 'shipped' ? other.id : other.kind === 'url' ? other.base : undefined;
}

export function parseAgainst(value: string | undefined): OtherRelease | undefined {
  if (!value) return undefined;
  return /^https?:\/\//.test(value) ? { kind: 'url', base: value } : { kind: 'shipped', id: value };
}

/** Where the other release is read from and what the report calls it; a message when it cannot be. */
export function otherInput(
  other: OtherRelease,
  shipped: readonly SiteRelease[],
): { spec: SourceSpec; label: string } | { error: string } {
  switch (other.kind) {
    case 'shipped': {
      const entry = shipped.find((r) => r.id === other.id);
      if (!entry) return { error: `This site offers no release named "${other.id}".` };
      return { spec: shippedSpec(entry), label: entry.title };
    }
    case 'url':
      return { spec: { kind: 'url', base: other.base }, label: other.base };
    case 'files':
      return { spec: { kind: 'files', label: other.label, files: other.files }, label: other.label };
  }
}
