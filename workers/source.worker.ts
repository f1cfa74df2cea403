/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { IdbSourceCache } from '../src/adapters/browser/idb-source-cache.ts';
import { createSourceDocsService } from '../src/core/source-docs/service.ts';

/** Source documents from the Hugging Face source by doc_id, behind comlink; what it learns goes to IndexedDB. */
const service = createSourceDocsService(
  () => IdbSourceCache.open(),
  (input, init) => fetch(input, init),
);
const api = {
  ...service,
  /** Serves the same API on a port: another worker's direct line (the audit worker's batch reads). */
  connect: (port: MessagePort) => Comlink.expose(service, port),
};
export type SourceApi = typeof api;
Comlink.expose(api);
