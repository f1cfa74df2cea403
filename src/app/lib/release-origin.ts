import type { ReleaseRef } from '../state/site-releases.ts';

/**
 * Where a release off the site's own list comes from, to show beside its title: a title is what
 * a release says about itself, so one on another host could call itself anything. Undefined for
 * the site's own releases (static-data/releases.json).
 */
export function notOwnOrigin(ref: ReleaseRef | undefined): string | undefined {
  switch (ref?.kind) {
    case undefined:
    case 'shipped':
      return undefined;
    case 'url': {
      try {
        const at = new URL(ref.base);
        return at.protocol === 'https:' ? at.host : `${at.protocol}//${at.host}`;
      } catch {
        return ref.base;
      }
    }
    case 'folder':
      return `folder ${ref.name}`;
    case 'files':
      return `files ${ref.label}`;
  }
}
