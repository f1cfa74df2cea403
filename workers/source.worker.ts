/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { IdbSourceCache } from '../src/adapters/browser/idb-source-cache.ts';
import { createSourceDocsService } from '../src/core/source-docs/service.ts';

/** Source documents from the Hugging Face source by doc_id, behind comlink; what it learns goes to IndexedDB. */
const api = createSourceDocsService(
  () => IdbSourceCache.open(),
  (input, init) => fetch(input, init),
);
export type SourceApi = typeof api;
Comlink.expose(api);
