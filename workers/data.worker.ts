/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { startDuckDb } from '../src/app/data/duckdb.ts';
import { createExplorerData, type SourceSpec } from '../src/core/db/explorer.ts';

/** DuckDB-WASM behind comlink: loads a release into tables and answers typed queries. */
const api = createExplorerData(startDuckDb);
export type DataApi = typeof api;
export type { SourceSpec };
Comlink.expose(api);
