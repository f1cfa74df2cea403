/** Seeded synthetic chunks, queries and vectors for the retrieval tests. */
import type { ChunkInput } from '../../../../src/core/retrieval/types.ts';

import { mulberry32 as rng } from '../../../../src/core/random.ts';

export { rng };

const SYLLABLES = [
  'ka',
  'ro',
  'mi',
  'tel',
  'sun',
  'ep',
  'st',
  'ein',
  'dor',
  'fa',
  'lu',
  'qi',
  'ven',
  'ox',
  'ar',
  'nel',
];
const FUNCTION_WORDS = ['the', 'of', 'and', 'to', 'in', 'a', 'is', 'for', 'on', 'with', 'was', 'by'];

export interface TextCorpus {
  chunks: ChunkInput[];
  queries: string[];
}

/** Chunks with Zipf-ish words, capitals, punctuation, numbers, OCR-like noise and a few non-ASCII chars. */
export function textCorpus(seed: number, numChunks: number, numQueries: number): TextCorpus {
  const r = rng(seed);
  const vocab: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const n = 1 + Math.floor(r() * 3);
    let w = '';
    for (let j = 0; j < n; j++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)]!;
    vocab.push(r() < 0.08 ? `${w}${Math.floor(r() * 100)}` : w);
  }
  const zipf = (): string => vocab[Math.floor(vocab.length * r() ** 2.2)]!;
  const decorate = (w: string): string => {
    const x = r();
    if (x < 0.1) return w[0]!.toUpperCase() + w.slice(1);
    if (x < 0.13) return w.toUpperCase();
    if (x < 0.16) return `${w},`;
    if (x < 0.18) return `${w}.`;
    if (x < 0.19) return `(${w})`;
    if (x < 0.2) return w.replace(/o/g, '0');
    if (x < 0.205) return `${w}İx`;
    if (x < 0.21) return `caf\u00e9-${w}`;
    return w;
  };
  const chunks: ChunkInput[] = [];
  let doc = 0;
  let part = 0;
  for (let c = 0; c < numChunks; c++) {
    if (part > 0 && r() < 0.45) {
      doc++;
      part = 0;
    }
    const len = 20 + Math.floor(r() * 180);
    const words: string[] = [];
    for (let i = 0; i < len; i++) {
      const x = r();
      words.push(
        decorate(
          x < 0.3
            ? FUNCTION_WORDS[Math.floor(r() * FUNCTION_WORDS.length)]!
            : x < 0.32
              ? String(Math.floor(r() * 3000))
              : zipf(),
        ),
      );
    }
    chunks.push({
      chunk_id: `D${String(doc).padStart(5, '0')}_c${part}`,
      doc_id: `D${String(doc).padStart(5, '0')}`,
      text: words.join(' '),
    });
    part++;
  }
  const queries: string[] = [];
  for (let q = 0; q < numQueries; q++) {
    const src = chunks[Math.floor(r() * chunks.length)]!.text.split(' ');
    const words: string[] = [];
    const n = 3 + Math.floor(r() * 6);
    for (let i = 0; i < n; i++) words.push(src[Math.floor(r() * src.length)]!);
    for (let i = 0; i < 2; i++) words.push(FUNCTION_WORDS[Math.floor(r() * FUNCTION_WORDS.length)]!);
    if (r() < 0.5) words.push(vocab[Math.floor(r() * vocab.length)]!);
    if (r() < 0.3) words.push('zzunknownterm');
    if (r() < 0.3) words.push(words[0]!.toUpperCase());
    queries.push(words.join(' '));
  }
  return { chunks, queries };
}

function gaussian(r: () => number): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

/** Clustered unit vectors with a shared direction (anisotropy), and queries near random rows. */
export function clusteredVectors(
  seed: number,
  count: number,
  dim: number,
  clusters: number,
  numQueries: number,
): { rows: Float32Array; queries: Float32Array[] } {
  const r = rng(seed);
  const common = Float32Array.from({ length: dim }, () => gaussian(r));
  const centroids = Array.from({ length: clusters }, () =>
    Float32Array.from({ length: dim }, (_, d) => gaussian(r) + 0.5 * common[d]!),
  );
  const rows = new Float32Array(count * dim);
  const unit = (v: Float32Array): Float32Array => {
    let s = 0;
    for (const x of v) s += x * x;
    const n = Math.sqrt(s);
    return v.map((x) => x / n);
  };
  for (let i = 0; i < count; i++) {
    const c = centroids[Math.floor(r() * clusters)]!;
    const v = unit(Float32Array.from({ length: dim }, (_, d) => c[d]! + 1.1 * gaussian(r)));
    rows.set(v, i * dim);
  }
  const queries: Float32Array[] = [];
  for (let q = 0; q < numQueries; q++) {
    const i = Math.floor(r() * count);
    queries.push(unit(Float32Array.from({ length: dim }, (_, d) => rows[i * dim + d]! + 0.06 * gaussian(r))));
  }
  return { rows, queries };
}
