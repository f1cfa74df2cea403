import * as Comlink from 'comlink';
import type { AuditApi } from '../../../workers/audit.worker.ts';

let api: Comlink.Remote<AuditApi> | undefined;

/** The one place that starts the audit worker. */
export function auditWorker(): Comlink.Remote<AuditApi> {
  api ??= Comlink.wrap<AuditApi>(
    new Worker(new URL('../../../workers/audit.worker.ts', import.meta.url), { type: 'module', name: 'audit' }),
  );
  return api;
}
