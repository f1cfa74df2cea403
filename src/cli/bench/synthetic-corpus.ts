/**
 * A deterministic synthetic corpus of the v1.0 shape (docs/perf-anchors.md "Corpus"):
 * 83,810 docs, 159,564 chunks (at most 35 per doc) of 150-300 words, a Zipf-Mandelbrot
 * vocabulary (s = 1.05) of pseudo-words with ~12% numbers / dates / Bates-style ids and OCR-noise
 * variants in the tail, fresh garbage tokens, a topic layer (22% of a chunk's words from its
 * doc's topic), and queries of 6-15 distinct terms (3-8 from a source chunk, 2-5 function words,
 * 0-2 random terms). Also clustered unit vectors for the dense side.
 */
import { tokenize } from '../../core/retrieval/tokenize.ts';
import type { ChunkInput } from '../../core/retrieval/types.ts';
import { AliasSampler, gaussian, mulberry32, randomInt, type Random } from './prng.ts';

export interface CorpusShape {
  docs: number;
  chunks: number;
  vocabulary: number;
  topics: number;
  queries: number;
}

export const FULL_SHAPE: CorpusShape = {
  docs: 83_810,
  chunks: 159_564,
  vocabulary: 180_000,
  topics: 400,
  queries: 1000,
};
export const SMALL_SHAPE: CorpusShape = { docs: 8_381, chunks: 15_956, vocabulary: 40_000, topics: 80, queries: 300 };
export const CORPUS_SEED = 20240601;
const MAX_CHUNKS_PER_DOC = 35;

const FUNCTION_WORDS = [
  'the',
  'of',
  'and',
  'to',
  'in',
  'is',
  'that',
  'for',
  'it',
  'as',
  'was',
  'with',
  'be',
  'by',
  'on',
  'not',
  'he',
  'this',
  'are',
  'or',
  'his',
  'from',
  'at',
  'which',
  'but',
  'have',
  'an',
  'had',
  'they',
  'you',
  'were',
  'their',
  'one',
  'all',
  'we',
  'can',
  'her',
  'has',
  'there',
  'been',
  'if',
  'more',
  'when',
  'will',
  'would',
  'who',
];
const SYLLABLES = [
  'ba',
  'be',
  'bi',
  'bo',
  'ca',
  'co',
  'da',
  'de',
  'di',
  'do',
  'fa',
  'fe',
  'ga',
  'go',
  'ha',
  'he',
  'hi',
  'ja',
  'ka',
  'ke',
  'la',
  'le',
  'li',
  'lo',
  'ma',
  'me',
  'mi',
  'mo',
  'na',
  'ne',
  'ni',
  'no',
  'pa',
  'pe',
  'pi',
  'po',
  'ra',
  're',
  'ri',
  'ro',
  'sa',
  'se',
  'si',
  'so',
  'ta',
  'te',
  'ti',
  'to',
  'va',
  've',
  'wa',
  'we',
  'za',
  'ton',
  'ster',
  'man',
  'son',
  'ing',
  'tion',
  'ment',
  'al',
  'er',
  'an',
  'en',
  'in',
  'on',
  'un',
  'or',
  'ar',
  'el',
  'ey',
  'ly',
  'ford',
  'berg',
  'ville',
];
const OCR_SWAPS: [string, string][] = [
  ['o', '0'],
  ['l', '1'],
  ['m', 'rn'],
  ['e', 'c'],
  ['i', 'l'],
  ['s', '5'],
  ['a', 'o'],
  ['h', 'b'],
];

export interface SyntheticCorpus {
  shape: CorpusShape;
  chunks: ChunkInput[];
  queries: string[];
  /** Chunk index each query was drawn from. */
  querySource: number[];
  /** Document index (order of first appearance) of every chunk. */
  chunkDoc: Uint32Array;
}

function pseudoWord(r: Random): string {
  let w = '';
  const n = randomInt(r, 1, 4);
  for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)]!;
  return w;
}

function numberLike(r: Random): string {
  const x = r();
  if (x < 0.35) return String(randomInt(r, 1, 9999));
  if (x < 0.65) return `${randomInt(r, 1, 12)}/${randomInt(r, 1, 28)}/${randomInt(r, 1990, 2020)}`;
  return `EFTA${String(randomInt(r, 0, 99_999_999)).padStart(8, '0')}`;
}

function ocrVariant(r: Random, word: string): string {
  const [from, to] = OCR_SWAPS[Math.floor(r() * OCR_SWAPS.length)]!;
  const at = word.indexOf(from);
  if (at >= 0) return word.slice(0, at) + to + word.slice(at + from.length);
  return `${word}${String.fromCharCode(97 + Math.floor(r() * 26))}`;
}

function garbage(r: Random): string {
  let w = '';
  const n = randomInt(r, 3, 9);
  for (let i = 0; i < n; i++) w += 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(r() * 36)];
  return w;
}

function buildVocabulary(r: Random, size: number): string[] {
  const vocab = [...FUNCTION_WORDS];
  const seen = new Set(vocab);
  while (vocab.length < size) {
    const rank = vocab.length;
    const x = r();
    let w: string;
    if (x < 0.12) w = numberLike(r);
    else if (rank > size * 0.3 && x < 0.42) w = ocrVariant(r, vocab[Math.floor(r() * Math.min(rank, 20_000))]!);
    else w = pseudoWord(r);
    if (seen.has(w)) continue;
    seen.add(w);
    vocab.push(w);
  }
  return vocab;
}

/** Chunk counts per doc summing to shape.chunks, skewed so a few docs have many chunks. */
function chunksPerDoc(r: Random, shape: CorpusShape): Uint8Array {
  const counts = new Uint8Array(shape.docs).fill(1);
  let extra = shape.chunks - shape.docs;
  while (extra > 0) {
    const d = Math.floor(shape.docs * r() ** 3);
    if (counts[d]! < MAX_CHUNKS_PER_DOC) {
      counts[d]!++;
      extra--;
    }
  }
  return counts;
}

function decorate(r: Random, word: string): string {
  const x = r();
  if (x < 0.06) return word[0]!.toUpperCase() + word.slice(1);
  if (x < 0.07) return word.toUpperCase();
  if (x < 0.11) return `${word},`;
  if (x < 0.14) return `${word}.`;
  return word;
}

export function generateCorpus(shape: CorpusShape, seed = CORPUS_SEED): SyntheticCorpus {
  const r = mulberry32(seed);
  const vocab = buildVocabulary(r, shape.vocabulary);
  const weights = Float64Array.from({ length: vocab.length }, (_, i) => 1 / (i + 2.7) ** 1.05);
  const zipf = new AliasSampler(weights);
  const topicTerms = Array.from({ length: shape.topics }, () =>
    Array.from({ length: 200 }, () => vocab[randomInt(r, 200, Math.min(vocab.length - 1, 60_000))]!),
  );
  const counts = chunksPerDoc(r, shape);
  const chunks: ChunkInput[] = [];
  const chunkDoc = new Uint32Array(shape.chunks);
  const words: string[] = [];
  for (let d = 0; d < shape.docs; d++) {
    const docId = `EFTA${String(d * 7 + 13).padStart(8, '0')}`;
    const topic = topicTerms[Math.floor(r() * topicTerms.length)]!;
    const n = counts[d]!;
    for (let p = 0; p < n; p++) {
      const length = p === n - 1 && n > 1 ? randomInt(r, 30, 300) : randomInt(r, 150, 300);
      words.length = 0;
      for (let i = 0; i < length; i++) {
        const x = r();
        const w = x < 0.0009 ? garbage(r) : x < 0.22 ? topic[Math.floor(r() * topic.length)]! : vocab[zipf.sample(r)]!;
        words.push(decorate(r, w));
      }
      chunkDoc[chunks.length] = d;
      chunks.push({ chunk_id: `${docId}_c${p}`, doc_id: docId, text: words.join(' ') });
    }
  }
  const queries: string[] = [];
  const querySource: number[] = [];
  const functionWords = new Set(FUNCTION_WORDS);
  for (let q = 0; q < shape.queries; q++) {
    const source = Math.floor(r() * chunks.length);
    const tokens = tokenize(chunks[source]!.text);
    const content = tokens.filter((t) => !functionWords.has(t));
    const terms = new Set<string>();
    const wantContent = randomInt(r, 3, 8);
    for (let tries = 0; terms.size < wantContent && tries < 50 && content.length; tries++)
      terms.add(content[Math.floor(r() * content.length)]!);
    const wantFunction = randomInt(r, 2, 5);
    for (let i = 0; i < wantFunction; i++) terms.add(FUNCTION_WORDS[Math.floor(r() * FUNCTION_WORDS.length)]!);
    const wantRandom = randomInt(r, 0, 2);
    for (let i = 0; i < wantRandom; i++)
      terms.add(vocab[Math.floor(r() * vocab.length)]!.toLowerCase().replace(/[^a-z0-9]+/g, '') || 'x0');
    queries.push([...terms].join(' '));
    querySource.push(source);
  }
  return { shape, chunks, queries, querySource, chunkDoc };
}

export interface SyntheticVectors {
  dim: number;
  /** Unit rows, chunk i at [i * dim, (i + 1) * dim). */
  rows: Float32Array;
  /** Unit query vectors (a source chunk's vector plus noise). */
  queries: Float32Array[];
}

/** Clustered unit vectors with a shared direction (anisotropy); a doc's chunks share a cluster. */
export function generateVectors(
  corpus: SyntheticCorpus,
  dim: number,
  numQueries: number,
  seed = CORPUS_SEED + 1,
): SyntheticVectors {
  const r = mulberry32(seed);
  // About 80 chunks per cluster, so a query's top 20 lie inside its cluster at every scale
  // (top-1 cosine ~0.71, top-20 ~0.44, random pairs ~0.07: close to docs/perf-anchors.md).
  const clusters = Math.max(1, Math.round(corpus.chunkDoc.length / 80));
  const common = Float32Array.from({ length: dim }, () => gaussian(r));
  const centroids = new Float32Array(clusters * dim);
  for (let c = 0; c < clusters; c++)
    for (let d = 0; d < dim; d++) centroids[c * dim + d] = gaussian(r) + 0.35 * common[d]!;
  const docCluster = Uint32Array.from({ length: corpus.shape.docs }, () => Math.floor(r() * clusters));
  const count = corpus.chunkDoc.length;
  const rows = new Float32Array(count * dim);
  const v = new Float64Array(dim);
  const writeUnit = (out: Float32Array, offset: number): void => {
    let s = 0;
    for (let d = 0; d < dim; d++) s += v[d]! * v[d]!;
    const n = Math.sqrt(s);
    for (let d = 0; d < dim; d++) out[offset + d] = v[d]! / n;
  };
  for (let i = 0; i < count; i++) {
    const c = docCluster[corpus.chunkDoc[i]!]! * dim;
    for (let d = 0; d < dim; d++) v[d] = centroids[c + d]! + 0.9 * gaussian(r);
    writeUnit(rows, i * dim);
  }
  const queries: Float32Array[] = [];
  for (let q = 0; q < numQueries; q++) {
    const src = corpus.querySource[q % corpus.querySource.length]! * dim;
    for (let d = 0; d < dim; d++) v[d] = rows[src + d]! + 0.05 * gaussian(r);
    const out = new Float32Array(dim);
    writeUnit(out, 0);
    queries.push(out);
  }
  return { dim, rows, queries };
}
