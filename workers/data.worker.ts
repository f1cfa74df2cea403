/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { startDuckDb } from '../src/adapters/browser/duckdb.ts';
import { createExplorerData } from '../src/core/explorer/service.ts';
import type { SourceSpec } from '../src/core/release/source-spec.ts';

/** DuckDB-WASM behind comlink: loads a release into tables and answers typed queries. */
const api = createExplorerData(startDuckDb, self.location.href);
export type DataApi = typeof api;
export type { SourceSpec };
Comlink.expose(api);
