/**
 * The model manifest (release.json `indexes.model`, e.g. index/model.json): which encoder made
 * the dense vectors, so that queries are embedded the same way. Two kinds:
 *   - "transformers.js": a feature-extraction model folder shipped with the release (`path`,
 *     relative to the release root), mean pooling + L2 normalisation;
 *   - "openai-embeddings": vectors of a hosted model (e.g. text-embedding-3-small); queries go
 *     to an OpenAI-compatible /embeddings endpoint with the user's key.
 */
import { errorMessage } from '../error-message.ts';
export const MODEL_MANIFEST_VERSION = 1;

export type ModelKind = 'transformers.js' | 'openai-embeddings';

export interface ModelManifest {
  version: number;
  kind: ModelKind;
  /** Must equal the dense file's model name. */
  model: string;
  dim: number;
  /** transformers.js: the model folder relative to the release root. */
  path?: string;
  /** transformers.js: which ONNX file (fp32 = onnx/model.onnx, q8 = onnx/model_quantized.onnx). */
  dtype?: 'fp32' | 'q8';
  pooling: 'mean';
  normalize: boolean;
  /** Input texts are cut to this many characters (the benchmark's 8,000). */
  max_chars: number;
}

export class ModelManifestError extends Error {
  override name = 'ModelManifestError';
}

const MAX_MANIFEST_BYTES = 64 * 1024;

export function parseModelManifest(bytes: Uint8Array, file: string): ModelManifest {
  if (bytes.byteLength > MAX_MANIFEST_BYTES) {
    throw new ModelManifestError(`${file}: ${bytes.byteLength} bytes, expected a small JSON object (≤ 64 KiB)`);
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new ModelManifestError(`${file}: not valid JSON (${errorMessage(e)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ModelManifestError(
      `${file}: expected a JSON object, found ${Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  const o = value as Record<string, unknown>;
  const field = (name: string, expected: string, ok: (v: unknown) => boolean): unknown => {
    const v = o[name];
    if (!ok(v))
      throw new ModelManifestError(`${file}: field "${name}": expected ${expected}, found ${JSON.stringify(v)}`);
    return v;
  };
  const isString = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length < 500;
  const version = field('version', `${MODEL_MANIFEST_VERSION}`, (v) => v === MODEL_MANIFEST_VERSION) as number;
  const kind = field('kind', '"transformers.js" or "openai-embeddings"', (v) =>
    ['transformers.js', 'openai-embeddings'].includes(v as string),
  ) as ModelKind;
  const manifest: ModelManifest = {
    version,
    kind,
    model: field('model', 'a model name', isString) as string,
    dim: field(
      'dim',
      'an integer from 1 to 65535',
      (v) => Number.isInteger(v) && (v as number) > 0 && (v as number) <= 65535,
    ) as number,
    pooling: field('pooling', '"mean"', (v) => v === 'mean') as 'mean',
    normalize: field('normalize', 'true or false', (v) => typeof v === 'boolean') as boolean,
    max_chars: field('max_chars', 'a positive integer', (v) => Number.isInteger(v) && (v as number) > 0) as number,
  };
  if (kind === 'transformers.js') {
    manifest.path = field(
      'path',
      'a relative folder path without ".." segments',
      (v) => isString(v) && !/^[/\\]|^[a-z]+:|(^|[/\\])\.\.([/\\]|$)/i.test(v as string),
    ) as string;
    manifest.dtype = field('dtype', '"fp32" or "q8"', (v) => v === 'fp32' || v === 'q8') as 'fp32' | 'q8';
  }
  return manifest;
}

export function formatModelManifest(manifest: ModelManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The text an encoder sees: at most max_chars code points, never empty (the benchmark's rule). */
export function encoderInput(text: string, maxChars: number): string {
  const cut = text.length > maxChars ? Array.from(text).slice(0, maxChars).join('') : text;
  return cut === '' ? ' ' : cut;
}
