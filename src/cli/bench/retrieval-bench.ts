/**
 * `bench retrieval`: builds the BM25 and dense indexes over the synthetic corpus, writes them
 * (for the browser bench), reloads them and measures build, size, load and query latency,
 * each query path against a naive baseline in the same run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { buildBm25Index } from '../../core/retrieval/bm25-build.ts';
import { loadBm25, serializeBm25 } from '../../core/retrieval/bm25-file.ts';
import { buildDenseIndex } from '../../core/retrieval/dense-build.ts';
import { loadDense, serializeDense } from '../../core/retrieval/dense-file.ts';
import { aggregateChunksToDocs, chunkDepthForDocs, DEFAULT_RESCORE } from '../../core/retrieval/dense.ts';
import { rrfFuse } from '../../core/retrieval/hybrid.ts';
import { queryTerms } from '../../core/retrieval/tokenize.ts';
import type { RankedDoc } from '../../core/retrieval/types.ts';
import { NaiveBm25 } from './naive-bm25.ts';
import { measureLatency, percentile, timed, type Latency } from './stats.ts';
import { CORPUS_SEED, FULL_SHAPE, generateCorpus, generateVectors, SMALL_SHAPE } from './synthetic-corpus.ts';

export interface RetrievalBenchOptions {
  scale: 'full' | 'small';
  outDir: string;
  log: (line: string) => void;
}

const DIM = 384;
const MODEL = 'synthetic-clustered-384';
const MiB = 2 ** 20;

interface Row {
  name: string;
  ours: Latency;
  baseline: Latency;
  baselineName: string;
}

export function runRetrievalBench(options: RetrievalBenchOptions): Record<string, unknown> {
  const { log } = options;
  const shape = options.scale === 'full' ? FULL_SHAPE : SMALL_SHAPE;
  const naiveQueries = options.scale === 'full' ? 30 : 100;
  const hybridNaiveQueries = options.scale === 'full' ? 10 : 50;
  const denseQueries = options.scale === 'full' ? 1000 : 300;
  const recallQueries = 200;
  mkdirSync(options.outDir, { recursive: true });
  const write = (name: string, data: Uint8Array | string): void => writeFileSync(path.join(options.outDir, name), data);

  log(
    `generating corpus (${options.scale}: ${shape.docs} docs, ${shape.chunks} chunks, ${shape.queries} queries, seed ${CORPUS_SEED})...`,
  );
  const [corpus, genSeconds] = timed(() => generateCorpus(shape));
  let textBytes = 0;
  for (const c of corpus.chunks) textBytes += c.text.length;

  log('building BM25 index...');
  const [built, buildSeconds] = timed(() => buildBm25Index(corpus.chunks));
  const naive = new NaiveBm25(built);
  corpus.chunks.length = 0; // the 200 MiB of text is no longer needed

  const [bm25Raw, serializeSeconds] = timed(() => serializeBm25(built));
  const [bm25Gz, gzipSeconds] = timed(() => gzipSync(bm25Raw, { level: 6 }));
  write('bm25.bin', bm25Raw);
  write('bm25.bin.gz', bm25Gz);
  const [raw2, gunzipSeconds] = timed(() => gunzipSync(bm25Gz));
  const [bm25, decodeSeconds] = timed(() => loadBm25(raw2));
  const [, firstQuerySeconds] = timed(() => bm25.search(corpus.queries[0]!, 20));

  log('BM25 queries...');
  const bm25Latency = measureLatency(corpus.queries, (q) => bm25.search(q, 20), 2, 100);
  log(`naive BM25 on ${naiveQueries} queries...`);
  const naiveSubset = corpus.queries.slice(0, naiveQueries);
  const naiveResults: RankedDoc[][] = [];
  const naiveLatency = measureLatency(naiveSubset, (q, i) => (naiveResults[i] = naive.search(q, 20)), 1, 1);
  const agree = naiveSubset.filter((q, i) => {
    const a = naiveResults[i]!;
    const b = bm25.search(q, 20);
    return (
      a.length === b.length && a.every((d, j) => d.doc_id === b[j]!.doc_id && Math.abs(d.score - b[j]!.score) <= 1e-9)
    );
  }).length;
  const postingsTouched = corpus.queries.map((q) =>
    queryTerms(q).reduce((sum, t) => {
      const id = bm25.termId(t);
      return id < 0 ? sum : sum + bm25.df(id);
    }, 0),
  );

  log('generating vectors...');
  const [vectors, vectorSeconds] = timed(() => generateVectors(corpus, DIM, denseQueries));
  const [denseBuilt, denseBuildSeconds] = timed(() =>
    buildDenseIndex(vectors.rows, built.data.chunks, { model: MODEL, dim: DIM, normalized: true }),
  );
  const denseRaw = serializeDense(denseBuilt);
  const denseGz = gzipSync(denseRaw, { level: 6 });
  write('dense.bin', denseRaw);
  write('dense.bin.gz', denseGz);
  const [dense, denseLoadSeconds] = timed(() => loadDense(gunzipSync(denseGz), bm25.data.chunks));

  log('dense queries...');
  const denseLatency = measureLatency(vectors.queries, (v) => dense.searchDocs(v, 20), 2, 20);
  const recallSet = vectors.queries.slice(0, recallQueries);
  const exactTop: { chunks: number[]; docs: RankedDoc[] }[] = [];
  const exactLatency = measureLatency(
    recallSet,
    (v, i) => {
      const hits = denseBuilt.exactChunks(v, chunkDepthForDocs(20));
      exactTop[i] = { chunks: hits.chunks.slice(0, 20), docs: aggregateChunksToDocs(hits, denseBuilt.chunks, 20) };
    },
    1,
    1,
  );
  let chunkRecall = 0;
  let docRecall = 0;
  recallSet.forEach((v, i) => {
    const exactChunks = new Set(exactTop[i]!.chunks);
    chunkRecall += dense.searchChunks(v, 20).chunks.filter((c) => exactChunks.has(c)).length / exactChunks.size;
    const exactDocs = new Set(exactTop[i]!.docs.map((d) => d.doc_id));
    docRecall += dense.searchDocs(v, 20).filter((d) => exactDocs.has(d.doc_id)).length / exactDocs.size;
  });
  chunkRecall /= recallSet.length;
  docRecall /= recallSet.length;

  log('hybrid queries...');
  const pairs = vectors.queries.map((v, i) => ({ text: corpus.queries[i % corpus.queries.length]!, v }));
  const hybridLatency = measureLatency(
    pairs,
    (p) => rrfFuse([bm25.search(p.text, 40), dense.searchDocs(p.v, 40)], 20),
    2,
    20,
  );
  const hybridNaiveLatency = measureLatency(
    pairs.slice(0, hybridNaiveQueries),
    (p) => rrfFuse([naive.search(p.text, 40), denseBuilt.searchDocs(p.v, 40, { exact: true })], 20),
    1,
    1,
  );

  write('queries.json', `${JSON.stringify({ queries: corpus.queries, querySource: corpus.querySource }, null, 0)}\n`);
  const queryVectors = new Float32Array(vectors.queries.length * DIM);
  vectors.queries.forEach((v, i) => queryVectors.set(v, i * DIM));
  write('query-vectors.f32', new Uint8Array(queryVectors.buffer));

  const rows: Row[] = [
    {
      name: 'BM25 top-20 docs',
      ours: bm25Latency,
      baseline: naiveLatency,
      baselineName: 'scan of the term ids of every chunk',
    },
    {
      name: `dense top-20 docs (binary + rescore ${DEFAULT_RESCORE}, int8)`,
      ours: denseLatency,
      baseline: exactLatency,
      baselineName: 'float32 brute force',
    },
    {
      name: 'hybrid RRF top-20 (BM25 40 + dense 40)',
      ours: hybridLatency,
      baseline: hybridNaiveLatency,
      baselineName: 'naive BM25 + float32 brute force',
    },
  ];
  const f2 = (x: number): string => x.toFixed(2);
  const f1 = (x: number): string => x.toFixed(1);
  log('');
  log(`Retrieval bench, scale ${options.scale}, Node ${process.version}; files in ${options.outDir}`);
  log(
    `corpus      ${shape.docs} docs, ${bm25.numChunks} chunks, ${f1(textBytes / MiB)} MiB text, ${bm25.numTerms} terms, ${bm25.data.postingChunk.length} postings, avgdl ${f1(bm25.avgdl)} (generated in ${f1(genSeconds)} s)`,
  );
  log(
    `BM25 index  build ${f1(buildSeconds)} s; file ${f1(bm25Raw.length / MiB)} MiB raw / ${f1(bm25Gz.length / MiB)} MiB gzip (serialise ${f2(serializeSeconds)} s, gzip ${f2(gzipSeconds)} s)`,
  );
  log(
    `            postings touched per query: p50 ${Math.round(percentile(postingsTouched, 0.5))}, p95 ${Math.round(percentile(postingsTouched, 0.95))}`,
  );
  log(
    `            load ${f2(gunzipSeconds + decodeSeconds)} s = gunzip ${f2(gunzipSeconds)} + decode ${f2(decodeSeconds)}; first query ${f2(firstQuerySeconds * 1000)} ms`,
  );
  log(
    `dense       ${DIM} dims, build ${f1(denseBuildSeconds)} s (vectors generated in ${f1(vectorSeconds)} s); file ${f1(denseRaw.length / MiB)} MiB raw / ${f1(denseGz.length / MiB)} MiB gzip; load ${f2(denseLoadSeconds)} s`,
  );
  log('');
  log(
    `${'query path'.padEnd(50)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'n'.padStart(5)}   baseline: p50 / p95 ms (n), times slower at p50 / p95`,
  );
  for (const r of rows) {
    log(
      `${r.name.padEnd(50)} ${f2(r.ours.p50).padStart(8)} ${f2(r.ours.p95).padStart(8)} ${String(r.ours.n).padStart(5)}   ${r.baselineName}: ${f1(r.baseline.p50)} / ${f1(r.baseline.p95)} (${r.baseline.n}), ${f1(r.baseline.p50 / r.ours.p50)}x / ${f1(r.baseline.p95 / r.ours.p95)}x`,
    );
  }
  log('');
  log(
    `recall@20 of binary + rescore vs exact float32 (${recallSet.length} queries): chunks ${chunkRecall.toFixed(4)}, docs ${docRecall.toFixed(4)}`,
  );
  log(
    `naive and indexed BM25 give identical top-20 (ids, scores within 1e-9) on ${agree}/${naiveSubset.length} queries`,
  );
  log('dense latency excludes the query embedding (vectors are precomputed)');

  const results = {
    scale: options.scale,
    node: process.version,
    corpus: {
      docs: shape.docs,
      chunks: bm25.numChunks,
      textMiB: textBytes / MiB,
      terms: bm25.numTerms,
      postings: bm25.data.postingChunk.length,
      avgdl: bm25.avgdl,
      seed: CORPUS_SEED,
    },
    bm25: {
      buildSeconds,
      rawBytes: bm25Raw.length,
      gzipBytes: bm25Gz.length,
      gunzipSeconds,
      decodeSeconds,
      firstQueryMs: firstQuerySeconds * 1000,
    },
    dense: {
      dim: DIM,
      model: MODEL,
      buildSeconds: denseBuildSeconds,
      rawBytes: denseRaw.length,
      gzipBytes: denseGz.length,
      loadSeconds: denseLoadSeconds,
      recallAt20Chunks: chunkRecall,
      recallAt20Docs: docRecall,
    },
    latencyMs: Object.fromEntries(
      rows.map((r) => [r.name, { ours: r.ours, baseline: { name: r.baselineName, ...r.baseline } }]),
    ),
    naiveAgreement: { identical: agree, of: naiveSubset.length },
    postingsTouched: { p50: percentile(postingsTouched, 0.5), p95: percentile(postingsTouched, 0.95) },
    files: {
      bm25: 'bm25.bin',
      bm25Gzip: 'bm25.bin.gz',
      dense: 'dense.bin',
      denseGzip: 'dense.bin.gz',
      queries: 'queries.json',
      queryVectors: 'query-vectors.f32',
    },
  };
  write('results.json', `${JSON.stringify(results, null, 2)}\n`);
  return results;
}
