import { IdbAuditStore } from '../../adapters/browser/idb-audit-store.ts';
import { localDataScope } from '../../core/audit/scope.ts';
import { AuditLists } from './audit-lists.svelte.ts';
import { release } from './release.svelte.ts';

/** The loaded release's labels and appeals (audit-lists.svelte.ts), keyed by its origin and pins. */
export const auditStore = new AuditLists({
  scope: () => {
    const spec = release.spec;
    const summary = release.summary;
    return spec && summary ? localDataScope(spec, location.href, summary.files) : undefined;
  },
  identity: () => {
    const d = release.summary?.descriptor;
    return d ? { releaseId: d.id, datasetVersion: d.dataset_version } : undefined;
  },
  shipped: () => release.ref?.kind === 'shipped',
  openDb: () => IdbAuditStore.open(),
});
