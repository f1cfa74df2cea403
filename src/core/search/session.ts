/**
 * The search worker's logic (and the `run` CLI's): opens a release, loads its retrieval
 * indexes lazily with byte progress, ranks documents with BM25, dense or hybrid exactly as the
 * benchmark's retrievers do (docs/benchmark-spec.md 3), attaches chunk snippets, and evaluates a
 * method over a split's tasks.
 */
import { CachingSource } from '../release/caching-source.ts';
import { OnlySource } from '../release/only-source.ts';
import { loadRelease } from '../release/load.ts';
import { planRelease } from '../release/plan.ts';
import { sha256Hex } from '../release/sha256.ts';
import type { ReleaseSource } from '../release/source.ts';
import type { ReleaseDescriptor, SplitName, Task } from '../release/types.ts';
import {
  l2Normalize,
  loadBm25,
  loadDense,
  rrfFuse,
  type Bm25Index,
  type DenseIndex,
  type RankedDoc,
} from '../retrieval/index.ts';
import { ChunkTexts, snippetOf } from './chunk-texts.ts';
import type { QueryEmbedder } from './embedders.ts';
import { evaluateRankings } from './evaluate.ts';
import { predictionsText, runTag, trecRunText } from './exports.ts';
import { encoderInput, parseModelManifest, type ModelManifest } from './model-manifest.ts';
import { readWithProgress } from './read-progress.ts';
import { Memo } from '../memo.ts';
import type {
  EvalProgress,
  EvalReport,
  EvalTask,
  IndexProgress,
  SearchDoc,
  SearchMethod,
  SearchResult,
} from './types.ts';

/** Dense files that carry float32 rows are searched exactly (small releases); others by binary scan + rescore. */
function denseDocs(index: DenseIndex, vector: Float32Array, k: number): RankedDoc[] {
  return index.searchDocs(vector, k, { exact: index.data.float32 !== null });
}

export interface ReleaseIndexInfo {
  label: string;
  title: string;
  /** Paths from release.json `indexes` (relative to the release root). */
  indexes: { bm25?: string; dense?: string; model?: string };
}

export interface SplitIndexInfo {
  split: SplitName;
  tasks: number;
  answerable: number;
}

/** What a session reads after release.json: the tasks (for evaluation) and the chunks (for snippets). */
interface ReleaseContents {
  splitTasks: Partial<Record<SplitName, Task[]>>;
  chunkTexts?: ChunkTexts;
  /** Starts the pin check of chunks.parquet (after the first snippets; later reads wait for it). */
  checkChunks?: () => Promise<void>;
}

export interface SessionOptions {
  /** Makes the query encoder of a model manifest (transformers.js in the worker, Node in the CLI). */
  embedderFor?: (manifest: ModelManifest, source: ReleaseSource, root: string) => Promise<QueryEmbedder>;
  fetchFn?: typeof fetch;
  /**
   * Decode BM25 postings term by term on first use, and the rest in background slices: the first
   * query comes sooner (the search worker sets this; the CLI decodes everything at load).
   */
  lazyPostings?: boolean;
}

/** Postings decoded per background slice: a few milliseconds, so queries wait little behind it. */
const BACKGROUND_DECODE_POSTINGS = 100_000;

/** Resolves when every posting is decoded (or decoding failed: the index keeps that failure). */
function decodeInBackground(index: Bm25Index): Promise<void> {
  return new Promise((resolve) =>
    runInSlices(() => {
      let done = true;
      try {
        done = index.decodePostingsSome(BACKGROUND_DECODE_POSTINGS);
      } catch {
        // every later query that needs postings reports the failure
      }
      if (done) resolve();
      return done;
    }),
  );
}

/**
 * Calls step() until it returns true, letting other tasks (queries) run in between. A
 * MessageChannel yields without setTimeout's 4 ms clamp on nested timers; its port is closed at
 * the end so that it does not keep a Node process alive.
 */
function runInSlices(step: () => boolean): void {
  if (typeof MessageChannel !== 'function') {
    const tick = (): void => {
      if (!step()) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    if (step()) channel.port1.close();
    else channel.port2.postMessage(null);
  };
  channel.port2.postMessage(null);
}

const CACHED_VECTORS = 128;
const EMBED_BATCH = 32;

export class SearchSession {
  private readonly bm25 = new Memo<Bm25Index>();
  private readonly dense = new Memo<DenseIndex>();
  private postingsSettled?: Promise<void>;
  private readonly manifest = new Memo<ModelManifest>();
  private readonly embedder = new Memo<QueryEmbedder>();
  private readonly contentsRead = new Memo<ReleaseContents>();
  private chunkRow?: Map<string, number>;
  private readonly vectors = new Map<string, Float32Array>();

  private constructor(
    readonly source: ReleaseSource,
    readonly root: string,
    readonly descriptor: ReleaseDescriptor,
    private readonly readRest: () => Promise<ReleaseContents>,
    private readonly options: SessionOptions,
  ) {}

  /**
   * Reads release.json (or the official manifest) alone: a ranking needs nothing else but its
   * index. The tasks files and the chunks parquet's footer are read when first needed
   * (evaluation, snippets), so that they never hold the host's connections while an index loads.
   */
  static async open(source: ReleaseSource, options: SessionOptions = {}): Promise<SearchSession> {
    const cached = new CachingSource(source);
    const only = new OnlySource(cached, ['chunks']);
    const { descriptor } = await planRelease(only);
    return new SearchSession(source, releaseRoot(source), descriptor, () => readContents(cached, only), options);
  }

  /** The tasks and the chunks, read once (a failed read is tried again by the next caller). */
  private contents(): Promise<ReleaseContents> {
    return this.contentsRead.get(() => this.readRest());
  }

  info(): ReleaseIndexInfo {
    return { label: this.source.label, title: this.descriptor.title, indexes: { ...this.descriptor.indexes } };
  }

  /** Each split with a tasks file: its tasks, and how many of them have an answer to retrieve for. */
  async splits(): Promise<SplitIndexInfo[]> {
    const { splitTasks } = await this.contents();
    return (Object.entries(splitTasks) as Array<[SplitName, Task[]]>).map(([split, tasks]) => ({
      split,
      tasks: tasks.length,
      answerable: tasks.filter((t) => t.type !== 'unanswerable' && t.type !== 'false_premise').length,
    }));
  }

  hasMethod(method: SearchMethod): boolean {
    const ix = this.descriptor.indexes ?? {};
    return method === 'bm25' ? Boolean(ix.bm25) : Boolean(ix.bm25 && ix.dense && ix.model);
  }

  private path(p: string): string {
    return `${this.root}${p}`;
  }

  private async readIndex(
    part: IndexProgress['part'],
    file: string,
    onProgress?: (p: IndexProgress) => void,
  ): Promise<Uint8Array> {
    const bytes = await readWithProgress(
      this.source,
      this.path(file),
      (b, total) => onProgress?.({ part, file, bytes: b, total, done: false }),
      this.options.fetchFn,
    );
    if (!bytes) throw new Error(`${file} is named in release.json "indexes" but the release does not have it`);
    const pin = this.descriptor.sha256?.[file];
    if (pin && (await sha256Hex(bytes)) !== pin) {
      throw new Error(`${file}: sha256 differs from the pin in release.json; refusing a changed index file`);
    }
    onProgress?.({ part, file, bytes: bytes.byteLength, total: bytes.byteLength, done: true });
    return bytes;
  }

  /** The BM25 index, fetched once (concurrent callers share the load). */
  loadBm25(onProgress?: (p: IndexProgress) => void): Promise<Bm25Index> {
    const file = this.descriptor.indexes?.bm25;
    if (!file) {
      return Promise.reject(
        new Error(
          'this release has no BM25 index (release.json "indexes.bm25"); build one with `npm run cli -- build-index <folder>`',
        ),
      );
    }
    const lazyPostings = this.options.lazyPostings === true;
    return this.bm25.get(() =>
      this.readIndex('bm25', file, onProgress).then((bytes) => {
        const index = loadBm25(bytes, { lazyPostings });
        this.postingsSettled = lazyPostings ? decodeInBackground(index) : Promise.resolve();
        return index;
      }),
    );
  }

  /** Resolves once the BM25 index is loaded and all its postings are decoded (see lazyPostings). */
  async postingsDecoded(): Promise<void> {
    await this.loadBm25();
    await this.postingsSettled;
  }

  loadModelManifest(onProgress?: (p: IndexProgress) => void): Promise<ModelManifest> {
    const file = this.descriptor.indexes?.model;
    if (!file) return Promise.reject(new Error('this release names no embedding model (release.json "indexes.model")'));
    return this.manifest.get(() =>
      this.readIndex('model', file, onProgress).then((bytes) => parseModelManifest(bytes, file)),
    );
  }

  loadDense(onProgress?: (p: IndexProgress) => void): Promise<DenseIndex> {
    const file = this.descriptor.indexes?.dense;
    if (!file) return Promise.reject(new Error('this release has no dense vectors (release.json "indexes.dense")'));
    return this.dense.get(async () => {
      const [bm25, bytes, manifest] = await Promise.all([
        this.loadBm25(onProgress),
        this.readIndex('dense', file, onProgress),
        this.loadModelManifest(onProgress),
      ]);
      const dense = loadDense(bytes, bm25.data.chunks);
      if (dense.data.model !== manifest.model || dense.data.dim !== manifest.dim) {
        throw new Error(
          `${file} holds ${dense.data.dim}-d vectors of "${dense.data.model}", but the model manifest names ${manifest.dim}-d "${manifest.model}"`,
        );
      }
      return dense;
    });
  }

  /** Replaces the query encoder (a hub model, an embeddings endpoint); undefined goes back to the release's own. */
  setEmbedder(embedder: QueryEmbedder | undefined): void {
    this.embedder.set(embedder ? Promise.resolve(embedder) : undefined);
    this.vectors.clear();
  }

  private queryEmbedder(): Promise<QueryEmbedder> {
    return this.embedder.get(async () => {
      const manifest = await this.loadModelManifest();
      if (!this.options.embedderFor) throw new Error('no query encoder is available here');
      return this.options.embedderFor(manifest, this.source, this.root);
    });
  }

  async embedderLabel(): Promise<string> {
    return (await this.queryEmbedder()).label;
  }

  /** Unit query vectors (cached per text), embedded in batches. */
  async queryVectors(texts: readonly string[]): Promise<Float32Array[]> {
    const manifest = await this.loadModelManifest();
    const missing = [...new Set(texts.filter((t) => !this.vectors.has(t)))];
    if (missing.length > 0) {
      const embedder = await this.queryEmbedder();
      for (let i = 0; i < missing.length; i += EMBED_BATCH) {
        const batch = missing.slice(i, i + EMBED_BATCH);
        const vectors = await embedder.embed(batch.map((t) => encoderInput(t, manifest.max_chars)));
        batch.forEach((t, j) => {
          const v = vectors[j]!;
          if (v.length !== manifest.dim) {
            throw new Error(
              `the query encoder gave ${v.length}-d vectors, the index needs ${manifest.dim}-d (${manifest.model})`,
            );
          }
          this.vectors.set(t, l2Normalize(v));
        });
      }
      while (this.vectors.size > Math.max(CACHED_VECTORS, texts.length))
        this.vectors.delete(this.vectors.keys().next().value!);
    }
    return texts.map((t) => this.vectors.get(t)!);
  }

  /** Documents for a query; `vector` skips the embedding (the benchmark bench passes its own). */
  async rank(method: SearchMethod, query: string, k: number, vector?: Float32Array): Promise<RankedDoc[]> {
    if (!Number.isInteger(k) || k < 1 || k > 1000) throw new Error(`k must be an integer from 1 to 1000, got ${k}`);
    if (method === 'bm25') return (await this.loadBm25()).search(query, k);
    const [dense, [v]] = await Promise.all([
      this.loadDense(),
      vector ? Promise.resolve([vector]) : this.queryVectors([query]),
    ]);
    if (method === 'dense') return denseDocs(dense, v!, k);
    const bm25 = await this.loadBm25();
    return rrfFuse([bm25.search(query, 2 * k), denseDocs(dense, v!, 2 * k)], k);
  }

  async search(query: string, method: SearchMethod, k: number): Promise<SearchResult> {
    let embedMillis = 0;
    if (method !== 'bm25') {
      await this.loadDense();
      const started = now();
      const cached = this.vectors.has(query);
      await this.queryVectors([query]);
      embedMillis = cached ? 0 : now() - started;
    } else {
      await this.loadBm25();
    }
    const started = now();
    const ranked = await this.rank(method, query, k);
    const rankMillis = now() - started;
    return { method, query, docs: await this.withSnippets(ranked), rankMillis, embedMillis };
  }

  /** Adds the best chunk's snippet to each document (fused rankings get their BM25 or dense best chunk). */
  async withSnippets(ranked: readonly RankedDoc[]): Promise<SearchDoc[]> {
    const docs: SearchDoc[] = ranked.map((d) => ({ ...d }));
    // Snippets are a convenience: a release whose files cannot be read leaves the ids alone
    // (the page's own load reports what is wrong with them).
    const contents = await this.contents().catch(() => undefined);
    const chunkTexts = contents?.chunkTexts;
    if (!chunkTexts) return docs;
    const bm25 = await this.loadBm25();
    this.chunkRow ??= new Map(bm25.data.chunks.chunkIds.map((id, i) => [id, i]));
    const rows = this.chunkRow;
    const wanted = docs.filter((d) => d.chunk_id !== undefined && rows.has(d.chunk_id));
    try {
      const texts = await chunkTexts.texts(wanted.map((d) => ({ row: rows.get(d.chunk_id!)!, chunkId: d.chunk_id! })));
      wanted.forEach((d, i) => {
        const t = texts[i];
        if (t !== undefined) d.snippet = snippetOf(t);
      });
    } catch {
      // Snippets are a convenience: a chunks file that cannot be read leaves the ids alone.
    }
    contents.checkChunks?.().catch(() => undefined);
    return docs;
  }

  /** Tasks of a split, as evaluation needs them (every task, refusal types included). */
  async tasks(split: SplitName): Promise<EvalTask[]> {
    const tasks = (await this.contents()).splitTasks[split];
    if (!tasks) throw new Error(`this release has no tasks file for split "${split}"`);
    return tasks.map((t) => ({ task_id: t.task_id, type: t.type, question: t.question, gold_docs: t.gold_docs }));
  }

  async task(taskId: string, split?: SplitName): Promise<(EvalTask & { split: SplitName }) | undefined> {
    const { splitTasks } = await this.contents();
    const splits = split ? [split] : (Object.keys(splitTasks) as SplitName[]);
    for (const s of splits) {
      const t = splitTasks[s]?.find((x) => x.task_id === taskId);
      if (t) return { task_id: t.task_id, type: t.type, question: t.question, gold_docs: t.gold_docs, split: s };
    }
    return undefined;
  }

  /** Rankings of every task's question, in task order. */
  async rankAll(
    method: SearchMethod,
    tasks: readonly EvalTask[],
    k: number,
    onProgress?: (p: EvalProgress) => void,
  ): Promise<Map<string, RankedDoc[]>> {
    const rankings = new Map<string, RankedDoc[]>();
    const total = tasks.length;
    onProgress?.({ done: 0, total });
    for (let i = 0; i < total; i += EMBED_BATCH) {
      const batch = tasks.slice(i, i + EMBED_BATCH);
      const vectors = method === 'bm25' ? [] : await this.queryVectors(batch.map((t) => t.question));
      for (const [j, t] of batch.entries()) rankings.set(t.task_id, await this.rank(method, t.question, k, vectors[j]));
      onProgress?.({ done: Math.min(total, i + batch.length), total });
    }
    return rankings;
  }

  /** Ranks every task of the split and scores the answerable ones; also returns both exports. */
  async evaluate(
    method: SearchMethod,
    split: SplitName,
    k = 20,
    onProgress?: (p: EvalProgress) => void,
  ): Promise<{ report: EvalReport; trecRun: string; predictions: string }> {
    const tasks = await this.tasks(split);
    const rankings = await this.rankAll(method, tasks, k, onProgress);
    const order = tasks.map((t) => t.task_id);
    return {
      report: evaluateRankings(method, k, tasks, rankings),
      trecRun: trecRunText(order, rankings, runTag(method)),
      predictions: predictionsText(order, rankings),
    };
  }
}

/** The tasks files (all asked for at once) and the chunks parquet's footer. */
async function readContents(cached: CachingSource, only: ReleaseSource): Promise<ReleaseContents> {
  const plan = await planRelease(only);
  cached.prefetch(plan, () => true);
  // chunks.parquet is read by ranges for the first snippets and hashed against its pin after them.
  const release = await loadRelease(only, {
    plan,
    deferParquet: true,
    parquetCheck: 'on-demand',
    maxIssuesPerFile: 20,
  });
  const splitTasks: Partial<Record<SplitName, Task[]>> = {};
  for (const [split, files] of Object.entries(release.splits) as Array<[SplitName, { tasks?: Task[] }]>) {
    if (files.tasks) splitTasks[split] = files.tasks;
  }
  const chunks = release.parquet.find((p) => p.kind === 'chunks');
  return { splitTasks, chunkTexts: chunks && new ChunkTexts(chunks.file), checkChunks: chunks?.check };
}

/** A picked folder can hold the release one level down (e.g. sample/release.json). */
function releaseRoot(source: ReleaseSource): string {
  const listed = source.list();
  if (!listed || listed.includes('release.json')) return '';
  const nested = listed.filter((p) => /^[^/]+\/release\.json$/.test(p));
  return nested.length === 1 ? nested[0]!.slice(0, -'release.json'.length) : '';
}

function now(): number {
  return globalThis.performance?.now() ?? Date.now();
}
