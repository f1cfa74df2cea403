import * as Comlink from 'comlink';
import type { AuditApi } from '../../../workers/audit.worker.ts';
import type { SourceApi } from '../../../workers/source.worker.ts';
import { Memo } from '../../core/memo.ts';

let api: Comlink.Remote<AuditApi> | undefined;
const connected = new Memo<void>();

/** The one place that starts the audit worker. */
export function auditWorker(): Comlink.Remote<AuditApi> {
  api ??= Comlink.wrap<AuditApi>(
    new Worker(new URL('../../../workers/audit.worker.ts', import.meta.url), { type: 'module', name: 'audit' }),
  );
  return api;
}

/**
 * The audit worker with a direct line to the source worker (a MessageChannel, one end each): its
 * batch reads go worker to worker; the page only hands over the ports, once.
 */
export async function auditWorkerWithSource(source: Comlink.Remote<SourceApi>): Promise<Comlink.Remote<AuditApi>> {
  const audit = auditWorker();
  await connected.get(async () => {
    const { port1, port2 } = new MessageChannel();
    await source.connect(Comlink.transfer(port1, [port1]));
    await audit.connectSource(Comlink.transfer(port2, [port2]));
  });
  return audit;
}
