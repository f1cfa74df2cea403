/**
 * What the search worker exposes: one SearchSession for the release the page has loaded,
 * replaced when the page loads another, plus the choice of query encoder.
 */
import { sourceKey, sourceOf, type SourceSpec } from '../release/source-spec.ts';
import type { ReleaseSource } from '../release/source.ts';
import type { SplitName } from '../release/types.ts';
import type { RankedDoc } from '../retrieval/index.ts';
import { openAiEmbedder, type QueryEmbedder } from './embedders.ts';
import type { ModelManifest } from './model-manifest.ts';
import { SearchSession, type ReleaseIndexInfo, type SplitIndexInfo } from './session.ts';
import type { EvalProgress, IndexProgress, SearchMethod, SearchResult } from './types.ts';

export interface EncoderChoice {
  kind: 'release' | 'hub' | 'endpoint';
  /** hub: owner/name; endpoint: the model name. */
  model?: string;
  base?: string;
  key?: string;
}

export interface ServiceDeps {
  here: string;
  releaseEmbedder: (manifest: ModelManifest, source: ReleaseSource, root: string) => Promise<QueryEmbedder>;
  hubEmbedder: (name: string) => Promise<QueryEmbedder>;
}

export class SearchService {
  private session?: Promise<SearchSession>;
  private openedKey?: string;

  constructor(private readonly deps: ServiceDeps) {}

  private current(): Promise<SearchSession> {
    if (!this.session) return Promise.reject(new Error('no release is open in the search worker'));
    return this.session;
  }

  /**
   * Opens a release (a no-op when it is already the open one). Returns once release.json is
   * read, so that an index can be asked for at once; the tasks are read when first needed.
   */
  async open(spec: SourceSpec): Promise<ReleaseIndexInfo> {
    const key = sourceKey(spec);
    if (key !== this.openedKey || !this.session) {
      this.openedKey = key;
      this.session = SearchSession.open(sourceOf(spec, this.deps.here), {
        embedderFor: this.deps.releaseEmbedder,
        lazyPostings: true,
      });
      this.session.catch(() => {
        if (this.openedKey === key) this.session = undefined;
      });
    }
    return (await this.session).info();
  }

  /** The splits with tasks, for evaluation (waits for the tasks files). */
  async splits(): Promise<SplitIndexInfo[]> {
    return (await this.current()).splits();
  }

  async load(method: SearchMethod, onProgress?: (p: IndexProgress) => void): Promise<void> {
    const s = await this.current();
    if (method === 'bm25') await s.loadBm25(onProgress);
    else await s.loadDense(onProgress);
  }

  /** Resolves when the BM25 postings have all been decoded in the background (benches wait on it). */
  async postingsDecoded(): Promise<void> {
    await (await this.current()).postingsDecoded();
  }

  async modelManifest(): Promise<ModelManifest | undefined> {
    const s = await this.current();
    return s.hasMethod('dense') ? s.loadModelManifest() : undefined;
  }

  async search(query: string, method: SearchMethod, k: number): Promise<SearchResult> {
    return (await this.current()).search(query, method, k);
  }

  /** The unit query vector (for benches and for reuse). */
  async queryVector(query: string): Promise<Float32Array> {
    const [v] = await (await this.current()).queryVectors([query]);
    return v!.slice();
  }

  /**
   * Unit vectors of many texts with the current encoder (the release's model unless the user chose
   * another), in batches, reporting the share done; with the encoder's label.
   */
  async embedTexts(
    texts: readonly string[],
    onProgress?: (done: number) => void,
  ): Promise<{ label: string; dim: number; vectors: Float32Array }> {
    const s = await this.current();
    const label = await s.embedderLabel();
    const batch = 64;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += batch) {
      out.push(...(await s.queryVectors(texts.slice(i, i + batch))).map((v) => v.slice()));
      onProgress?.(Math.min(1, (i + batch) / texts.length));
    }
    const dim = out[0]?.length ?? 0;
    const vectors = new Float32Array(out.length * dim);
    out.forEach((v, i) => vectors.set(v, i * dim));
    return { label, dim, vectors };
  }

  /** Ranking only, from a given unit query vector (dense/hybrid) or text (bm25). */
  async rank(method: SearchMethod, query: string, k: number, vector?: Float32Array): Promise<RankedDoc[]> {
    return (await this.current()).rank(method, query, k, vector);
  }

  async evaluate(method: SearchMethod, split: SplitName, k: number, onProgress?: (p: EvalProgress) => void) {
    return (await this.current()).evaluate(method, split, k, onProgress);
  }

  async task(taskId: string, split?: SplitName) {
    return (await this.current()).task(taskId, split);
  }

  /** Chooses the query encoder; the key stays in this worker's memory only. */
  async useEncoder(choice: EncoderChoice): Promise<string> {
    const s = await this.current();
    if (choice.kind === 'release') {
      s.setEmbedder(undefined);
    } else if (choice.kind === 'hub') {
      s.setEmbedder(await this.deps.hubEmbedder(choice.model ?? ''));
    } else {
      if (!choice.base || !choice.key || !choice.model)
        throw new Error('an embeddings endpoint needs a base URL, a key and a model');
      s.setEmbedder(openAiEmbedder({ base: choice.base, key: choice.key, model: choice.model }));
    }
    return s.embedderLabel();
  }
}
