/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjs from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import type { SourceSpec } from '../src/core/release/source-spec.ts';
import type { SplitName } from '../src/core/release/types.ts';
import { SearchService, type EncoderChoice } from '../src/core/search/service.ts';
import type { EvalProgress, IndexProgress, SearchMethod } from '../src/core/search/types.ts';

/**
 * Retrieval over the loaded release (BM25, dense via transformers.js, hybrid) behind comlink.
 * transformers.js and onnxruntime are imported (and their wasm fetched) only when a dense or
 * hybrid ranking first needs a query vector.
 */
const setup = { wasmPaths: { wasm: ortWasm, mjs: ortMjs } };
const embedders = () => import('../src/core/search/transformers-embedder.ts');
const service = new SearchService({
  here: self.location.href,
  releaseEmbedder: async (manifest, source, root) =>
    (await embedders()).releaseModelEmbedder(manifest, source, root, setup),
  hubEmbedder: async (name) => (await embedders()).hubModelEmbedder(name, setup),
});

const api = {
  open: (spec: SourceSpec) => service.open(spec),
  splits: () => service.splits(),
  load: (method: SearchMethod, onProgress?: (p: IndexProgress) => void) => service.load(method, onProgress),
  postingsDecoded: () => service.postingsDecoded(),
  modelManifest: () => service.modelManifest(),
  search: (query: string, method: SearchMethod, k: number) => service.search(query, method, k),
  async queryVector(query: string): Promise<Float32Array> {
    const v = await service.queryVector(query);
    return Comlink.transfer(v, [v.buffer]);
  },
  async embedTexts(texts: string[], onProgress?: (done: number) => void) {
    const embedded = await service.embedTexts(texts, onProgress);
    return Comlink.transfer(embedded, [embedded.vectors.buffer]);
  },
  rank: (method: SearchMethod, query: string, k: number, vector?: Float32Array) =>
    service.rank(method, query, k, vector),
  evaluate: (method: SearchMethod, split: SplitName, k: number, onProgress?: (p: EvalProgress) => void) =>
    service.evaluate(method, split, k, onProgress),
  task: (taskId: string, split?: SplitName) => service.task(taskId, split),
  useEncoder: (choice: EncoderChoice) => service.useEncoder(choice),
};
export type SearchApi = typeof api;
Comlink.expose(api);
