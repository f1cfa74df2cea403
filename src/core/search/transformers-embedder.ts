/**
 * Query encoders on transformers.js (feature-extraction, mean pooling, L2 normalisation), fully
 * local by default: the release's model folder is read through the release source itself (a
 * fetch hook maps a private root-relative prefix to it, docs/stack-recipe.md P9-P13), so
 * models in picked folders or on another origin work too. A hub model is fetched from
 * huggingface.co only when the user names one (allowRemoteModels is on for that load only).
 */
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import type { ReleaseSource } from '../release/source.ts';
import type { QueryEmbedder } from './embedders.ts';
import type { ModelManifest } from './model-manifest.ts';

export interface TransformersSetup {
  /** The ORT wasm files served by the app (never the CDN default). */
  wasmPaths?: { wasm: string; mjs: string };
  onProgress?: (p: { file: string; loaded: number; total: number }) => void;
}

const RELEASE_PREFIX = '/__ebx_release__/';
const defaultFetch: typeof fetch = (...args) => fetch(...args);
let releaseSource: { source: ReleaseSource; root: string } | undefined;

function inBrowser(): boolean {
  return 'WorkerGlobalScope' in globalThis || 'document' in globalThis;
}

function configure(setup: TransformersSetup): void {
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.useBrowserCache = false;
  // Its wasm cache imports onnxruntime's factory from a blob: URL, which the search worker's
  // Content-Security-Policy does not allow (src/cli/security-headers.ts): load it from the site.
  env.useWasmCache = false;
  env.localModelPath = RELEASE_PREFIX;
  const wasm = env.backends.onnx?.wasm;
  if (wasm && setup.wasmPaths) {
    wasm.wasmPaths = setup.wasmPaths;
    wasm.numThreads = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated ? 2 : 1;
  }
  env.fetch = async (input: string | URL, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input.href;
    const at = href.indexOf(RELEASE_PREFIX);
    if (at < 0 || !releaseSource) return defaultFetch(input, init);
    const rel = decodeURIComponent(href.slice(at + RELEASE_PREFIX.length).split(/[?#]/)[0]!);
    const bytes = await releaseSource.source.read(`${releaseSource.root}${rel}`);
    if (!bytes) return new Response(null, { status: 404, statusText: 'Not Found' });
    const headers = { 'content-length': String(bytes.byteLength) };
    if (init?.method === 'HEAD') return new Response(null, { status: 200, headers });
    return new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), { status: 200, headers });
  };
}

function progressHook(setup: TransformersSetup) {
  return (p: unknown) => {
    const e = p as { status?: string; file?: string; loaded?: number; total?: number };
    if (e.status === 'progress' && e.file)
      setup.onProgress?.({ file: e.file, loaded: e.loaded ?? 0, total: e.total ?? 0 });
  };
}

function wrap(fe: FeatureExtractionPipeline, label: string): QueryEmbedder {
  return {
    label,
    async embed(texts) {
      const tensor = await fe([...texts], { pooling: 'mean', normalize: true });
      const dim = tensor.dims[1]!;
      const data = tensor.data as Float32Array;
      const out = texts.map((_, i) => {
        const v = data.slice(i * dim, (i + 1) * dim);
        // A text without a known token has no direction (0/0): a zero vector instead of NaNs.
        if (!v.every(Number.isFinite)) v.fill(0);
        return v;
      });
      tensor.dispose();
      return out;
    },
  };
}

/** The release's own model (manifest kind "transformers.js"). */
export async function releaseModelEmbedder(
  manifest: ModelManifest,
  source: ReleaseSource,
  root: string,
  setup: TransformersSetup = {},
): Promise<QueryEmbedder> {
  if (manifest.kind !== 'transformers.js' || !manifest.path) {
    throw new Error(`the vectors are ${manifest.model} (${manifest.kind}): use an embeddings endpoint with your key`);
  }
  configure(setup);
  const folder = manifest.path.replace(/\/+$/, '');
  const slash = folder.lastIndexOf('/');
  releaseSource = { source, root: `${root}${slash >= 0 ? folder.slice(0, slash + 1) : ''}` };
  const modelId = slash >= 0 ? folder.slice(slash + 1) : folder;
  const fe = await pipeline('feature-extraction', modelId, {
    dtype: manifest.dtype ?? 'fp32',
    device: inBrowser() ? 'wasm' : 'cpu',
    progress_callback: progressHook(setup),
  });
  return wrap(fe, `${manifest.model} (${manifest.dtype ?? 'fp32'}, transformers.js, from the release)`);
}

/** A model from the Hugging Face hub, by name: downloads from huggingface.co (the user opted in). */
export async function hubModelEmbedder(name: string, setup: TransformersSetup = {}): Promise<QueryEmbedder> {
  if (!/^[\w.-]+\/[\w.-]+$/.test(name)) throw new Error(`"${name}" is not a hub model name (owner/name)`);
  configure(setup);
  env.allowRemoteModels = true;
  try {
    const fe = await pipeline('feature-extraction', name, {
      dtype: 'q8',
      device: inBrowser() ? 'wasm' : 'cpu',
      progress_callback: progressHook(setup),
    });
    return wrap(fe, `${name} (transformers.js, downloaded from huggingface.co)`);
  } finally {
    env.allowRemoteModels = false;
  }
}
