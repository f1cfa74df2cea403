/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { createExplorerData } from '../src/core/explorer/service.ts';
import type { SourceSpec } from '../src/core/release/source-spec.ts';

/**
 * The data worker behind comlink: loads a release, answers the first views from memory and
 * the rest from DuckDB-WASM, which is imported (and downloaded) only when first needed.
 */
const api = createExplorerData(
  async () => (await import('../src/adapters/browser/duckdb.ts')).startDuckDb(),
  self.location.href,
);
export type DataApi = typeof api;
export type { SourceSpec };
Comlink.expose(api);
