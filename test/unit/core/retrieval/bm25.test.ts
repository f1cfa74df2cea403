import { describe, expect, it } from 'vitest';
import { IndexFormatError, readContainer } from '../../../../src/core/retrieval/binary-container.ts';
import { buildBm25Index } from '../../../../src/core/retrieval/bm25-build.ts';
import { BM25_FORMAT_VERSION, BM25_MAGIC, loadBm25, serializeBm25 } from '../../../../src/core/retrieval/bm25-file.ts';
import type { ChunkInput, RankedDoc } from '../../../../src/core/retrieval/types.ts';
import { textCorpus } from './synthetic.ts';

/** Straight from the formula: Maps, no typed arrays, its own regex tokenizer. */
function referenceBm25(chunks: ChunkInput[], k1 = 1.5, b = 0.75) {
  const tok = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]{2,}/g) ?? [];
  const tfs = chunks.map((c) => {
    const m = new Map<string, number>();
    for (const t of tok(c.text)) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  });
  const lengths = chunks.map((c) => tok(c.text).length);
  const N = chunks.length;
  const avgdl = lengths.reduce((a, x) => a + x, 0) / N;
  const df = new Map<string, number>();
  for (const m of tfs) for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const chunkScores = (query: string): Map<number, number> => {
    const terms = [...new Set(tok(query))];
    const scores = new Map<number, number>();
    for (const t of terms) {
      const n = df.get(t);
      if (!n) continue;
      const idf = Math.log(1 + (N - n + 0.5) / (n + 0.5));
      tfs.forEach((m, i) => {
        const tf = m.get(t);
        if (!tf) return;
        const s = (idf * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * lengths[i]!) / avgdl));
        scores.set(i, (scores.get(i) ?? 0) + s);
      });
    }
    return scores;
  };
  return {
    docs(query: string, k: number): RankedDoc[] {
      const best = new Map<string, { score: number; chunk: number }>();
      const docOrder = new Map<string, number>();
      chunks.forEach((c) => docOrder.has(c.doc_id) || docOrder.set(c.doc_id, docOrder.size));
      for (const [i, s] of chunkScores(query)) {
        const d = chunks[i]!.doc_id;
        const prev = best.get(d);
        if (!prev || s > prev.score || (s === prev.score && i < prev.chunk)) best.set(d, { score: s, chunk: i });
      }
      return [...best.entries()]
        .sort((x, y) => y[1].score - x[1].score || docOrder.get(x[0])! - docOrder.get(y[0])!)
        .slice(0, k)
        .map(([doc_id, v]) => ({ doc_id, score: v.score, chunk_id: chunks[v.chunk]!.chunk_id }));
    },
    chunks(query: string, k: number) {
      return [...chunkScores(query).entries()]
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, k)
        .map(([i, score]) => ({ chunk_id: chunks[i]!.chunk_id, score }));
    },
  };
}

const { chunks, queries } = textCorpus(20240601, 3000, 150);
const index = buildBm25Index(chunks);
const reference = referenceBm25(chunks);

function expectSameRanking(got: RankedDoc[], want: RankedDoc[]): void {
  expect(got.map((d) => d.doc_id)).toEqual(want.map((d) => d.doc_id));
  expect(got.map((d) => d.chunk_id)).toEqual(want.map((d) => d.chunk_id));
  got.forEach((d, i) => expect(Math.abs(d.score - want[i]!.score)).toBeLessThanOrEqual(1e-9));
}

describe('BM25 index', () => {
  it('has the benchmark parameters and counts', () => {
    expect(index.data.k1).toBe(1.5);
    expect(index.data.b).toBe(0.75);
    expect(index.numChunks).toBe(3000);
    expect(index.data.chunks.docIds.length).toBe(new Set(chunks.map((c) => c.doc_id)).size);
  });

  it('ranks the top-20 documents exactly like the reference formula on 150 queries', () => {
    let nonEmpty = 0;
    for (const q of queries) {
      const want = reference.docs(q, 20);
      if (want.length > 0) nonEmpty++;
      expectSameRanking(index.search(q, 20), want);
    }
    expect(nonEmpty).toBeGreaterThan(140);
  });

  it('ranks chunks like the reference', () => {
    for (const q of queries.slice(0, 40)) {
      const got = index.searchChunks(q, 20);
      const want = reference.chunks(q, 20);
      expect(got.map((c) => c.chunk_id)).toEqual(want.map((c) => c.chunk_id));
      got.forEach((c, i) => expect(Math.abs(c.score - want[i]!.score)).toBeLessThanOrEqual(1e-9));
    }
  });

  it('returns nothing for queries without known terms, and handles k larger than the hits', () => {
    expect(index.search('zzqq x y', 10)).toEqual([]);
    const q = queries[0]!;
    expect(index.search(q, 100000)).toEqual(reference.docs(q, 100000));
  });

  it('keeps tf exact above the uint8 escape (tf 300)', () => {
    const extra: ChunkInput[] = [
      ...chunks.slice(0, 50),
      { chunk_id: 'X_c0', doc_id: 'X', text: `${'repeatword '.repeat(300)} tail` },
      { chunk_id: 'Y_c0', doc_id: 'Y', text: 'repeatword once' },
    ];
    const small = buildBm25Index(extra);
    const ref = referenceBm25(extra);
    expectSameRanking(small.search('repeatword tail', 5), ref.docs('repeatword tail', 5));
    expectSameRanking(loadBm25(serializeBm25(small)).search('repeatword', 5), ref.docs('repeatword', 5));
  });

  it('orders tied documents by first appearance and reports the lowest tied chunk', () => {
    const tied = buildBm25Index([
      { chunk_id: 'b1', doc_id: 'B', text: 'alpha beta' },
      { chunk_id: 'a1', doc_id: 'A', text: 'alpha beta' },
      { chunk_id: 'b2', doc_id: 'B', text: 'alpha beta' },
      { chunk_id: 'c1', doc_id: 'C', text: 'gamma delta' },
    ]);
    const hits = tied.search('alpha', 10);
    expect(hits.map((h) => [h.doc_id, h.chunk_id])).toEqual([
      ['B', 'b1'],
      ['A', 'a1'],
    ]);
    expect(hits[0]!.score).toBe(hits[1]!.score);
  });

  it('rejects duplicate chunk ids and ids with whitespace', () => {
    expect(() =>
      buildBm25Index([
        { chunk_id: 'a', doc_id: 'd', text: 'x' },
        { chunk_id: 'a', doc_id: 'd', text: 'y' },
      ]),
    ).toThrow(/chunk 2: duplicate chunk_id "a"/);
    expect(() => buildBm25Index([{ chunk_id: 'a b', doc_id: 'd', text: 'x' }])).toThrow(/whitespace/);
  });
});

describe('BM25 file', () => {
  const bytes = serializeBm25(index);

  it('round-trips to identical results', () => {
    const loaded = loadBm25(bytes.slice().buffer);
    expect(loaded.data.terms).toEqual(index.data.terms);
    for (const q of queries) expect(loaded.search(q, 20)).toEqual(index.search(q, 20));
    expect(Buffer.from(serializeBm25(loaded)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('loads from a misaligned view', () => {
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    const loaded = loadBm25(padded.subarray(3));
    expect(loaded.search(queries[1]!, 20)).toEqual(index.search(queries[1]!, 20));
  });

  it('starts with the magic and a small JSON header', () => {
    expect(String.fromCharCode(...bytes.subarray(0, 6))).toBe('EBBM25');
    const jsonLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + jsonLength))) as Record<string, unknown>;
    expect(header).toMatchObject({ kind: 'bm25', k1: 1.5, b: 0.75, numChunks: 3000, avgdl: index.avgdl });
  });

  it('rejects foreign, truncated and damaged files with clear errors', () => {
    expect(() => loadBm25(new TextEncoder().encode('not an index file at all'))).toThrow(IndexFormatError);
    expect(() => loadBm25(bytes.subarray(0, 10))).toThrow(/too short/);
    expect(() => loadBm25(bytes.subarray(0, bytes.length - 100))).toThrow(/section/);
    const damaged = bytes.slice();
    damaged[8] = 9;
    expect(() => loadBm25(damaged)).toThrow(/expected format version 1, found 9/);
  });
});

describe('BM25 file loaded with lazy postings', () => {
  const withOverflow: ChunkInput[] = [
    ...chunks.slice(0, 200),
    { chunk_id: 'X_c0', doc_id: 'X', text: `${'repeatword '.repeat(300)} tail` },
  ];
  const small = buildBm25Index(withOverflow);
  const bytes = serializeBm25(small);
  /** Offset of the postings section in the file (section() is a view into the same bytes). */
  const postingsAt = readContainer(bytes, BM25_MAGIC, BM25_FORMAT_VERSION, 'test').section('postings').byteOffset;

  it('ranks exactly like the eagerly loaded index, decoding only what queries need', () => {
    const eager = loadBm25(bytes);
    const lazy = loadBm25(bytes, { lazyPostings: true });
    expect(lazy.data.lazy?.complete).toBe(false);
    for (const q of [...queries, 'repeatword tail']) expect(lazy.search(q, 20)).toEqual(eager.search(q, 20));
    expect(lazy.data.lazy?.complete).toBe(false);
  });

  it('decodes the rest in slices to the same arrays (tf above the escape included)', () => {
    const eager = loadBm25(bytes);
    const lazy = loadBm25(bytes, { lazyPostings: true });
    let slices = 1;
    while (!lazy.decodePostingsSome(500)) slices++;
    expect(slices).toBeGreaterThan(3);
    expect(lazy.data.postingChunk).toEqual(eager.data.postingChunk);
    expect(lazy.data.postingTf).toEqual(eager.data.postingTf);
    expect([...lazy.data.tfOverflow.values()]).toEqual([300]);
    expect(lazy.data.tfOverflow).toEqual(eager.data.tfOverflow);
    expect(Buffer.from(serializeBm25(loadBm25(bytes, { lazyPostings: true }))).equals(Buffer.from(bytes))).toBe(true);
  });

  it('reports a damaged term when it is decoded, and from then on', () => {
    const damaged = bytes.slice();
    damaged[postingsAt + 1] = 0; // the first posting's tf (one byte: tf < 128), still a varint end
    expect(() => loadBm25(damaged)).toThrow(/zero tf \(term 0\)/);
    const lazy = loadBm25(damaged, { lazyPostings: true });
    const first = small.data.terms[0]!;
    const other = small.data.terms.find((t) => t !== first && /^[a-z]{3,}$/.test(t))!;
    expect(lazy.search(other, 5).length).toBeGreaterThan(0);
    expect(() => lazy.search(first, 5)).toThrow(IndexFormatError);
    expect(() => lazy.search(other, 5)).toThrow(/zero tf \(term 0\)/);
    expect(() => lazy.decodeAllPostings()).toThrow(/zero tf/);
  });

  it('refuses at load a postings section whose varint count does not match the df table', () => {
    const cut = bytes.slice();
    cut[postingsAt + 1] = 0x81; // a varint end becomes a continuation: the scan runs one short
    expect(() => loadBm25(cut, { lazyPostings: true })).toThrow(IndexFormatError);
  });
});
