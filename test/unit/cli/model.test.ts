import { sha256HexSync } from '../../../src/adapters/node/sha256.ts';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_MODEL_DIM, SAMPLE_MODEL_NAME, buildSampleModel } from '../../../src/cli/model/build-model.ts';
import { embedChunks, embedTexts } from '../../../src/cli/model/embed-node.ts';
import { readChunks } from '../../../src/cli/model/read-chunks.ts';
import { createPrng } from '../../../src/core/embedding-model/prng.ts';
import { StaticEmbedder } from '../../../src/core/embedding-model/static-embedder.ts';
import { WordPieceEncoder } from '../../../src/core/embedding-model/wordpiece.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const release = path.join(root, 'static-data/sample');
const committed = path.join(release, 'models', SAMPLE_MODEL_NAME);
const FILES = [
  'config.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'onnx/model.onnx',
  'onnx/model_quantized.onnx',
  'training.json',
];
const SAMPLES = [
  'Meeting with Rosalind Pellucci at Foxglove Bistro, Kestrelmouth.',
  'wire transfer to the Halvorsen trust',
  'Zyxqv ÉTÉ — 07/27/2004 [SEP] ok',
];

let work = '';
let modelDir = '';

async function sha256(file: string): Promise<string> {
  return sha256HexSync(await readFile(file));
}

function embeddingTable(onnxBytes: Uint8Array): Float32Array {
  const model = onnxProto.onnx.ModelProto.decode(onnxBytes);
  const init = model.graph?.initializer?.find((t) => t.name === 'embeddings');
  if (!init?.rawData) throw new Error('model.onnx has no embeddings initializer');
  const raw = init.rawData;
  return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'sample-model-'));
  modelDir = path.join(work, 'a', SAMPLE_MODEL_NAME);
  await buildSampleModel(release, modelDir);
}, 300_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('buildSampleModel', () => {
  it('writes every file under 5 MB with the advertised dims', async () => {
    for (const f of FILES) expect((await readFile(path.join(modelDir, f))).byteLength).toBeLessThan(5 * 1024 * 1024);
    const config = JSON.parse(await readFile(path.join(modelDir, 'config.json'), 'utf8')) as {
      hidden_size: number;
      vocab_size: number;
    };
    expect(config.hidden_size).toBe(SAMPLE_MODEL_DIM);
    expect(config.vocab_size).toBeLessThanOrEqual(8000);
  });

  it('rebuilds byte for byte, and the committed model is that build', async () => {
    const again = path.join(work, 'b', SAMPLE_MODEL_NAME);
    await buildSampleModel(release, again);
    for (const f of FILES) {
      const h = await sha256(path.join(modelDir, f));
      expect(await sha256(path.join(again, f)), f).toBe(h);
      expect(await sha256(path.join(committed, f)), `committed ${f}`).toBe(h);
    }
  }, 300_000);
});

describe('embedTexts (transformers.js feature-extraction, reproduced without a model runtime)', () => {
  const fixture = JSON.parse(readFileSync(path.join(root, 'test/fixtures/transformers-vectors.json'), 'utf8')) as {
    texts: string[];
    fp32: string[];
    q8: string[];
  };
  for (const dtype of ['fp32', 'q8'] as const) {
    it(`gives the ${dtype} vectors transformers.js + onnxruntime computed, bit for bit`, async () => {
      const got = await embedTexts(committed, fixture.texts, { dtype });
      got.forEach((v, i) =>
        expect(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64'), fixture.texts[i]).toBe(
          fixture[dtype][i],
        ),
      );
    });
  }

  it('equals the mean of the token rows of the embedding table, L2-normalised', async () => {
    const vectors = await embedTexts(modelDir, SAMPLES);
    const table = embeddingTable(await readFile(path.join(modelDir, 'onnx/model.onnx')));
    const vocab = JSON.parse(await readFile(path.join(modelDir, 'tokenizer.json'), 'utf8')) as {
      model: { vocab: Record<string, number> };
    };
    const byId: string[] = [];
    for (const [token, id] of Object.entries(vocab.model.vocab)) byId[id] = token;
    const encoder = new WordPieceEncoder(byId);
    SAMPLES.forEach((text, i) => {
      const ids = [encoder.idOf('[CLS]')!, ...encoder.encode(text), encoder.idOf('[SEP]')!];
      const mean = new Float64Array(SAMPLE_MODEL_DIM);
      for (const id of ids)
        for (let d = 0; d < SAMPLE_MODEL_DIM; d++) mean[d] = mean[d]! + table[id * SAMPLE_MODEL_DIM + d]! / ids.length;
      const norm = Math.hypot(...mean);
      expect(norm).toBeGreaterThan(0);
      const got = vectors[i]!;
      expect(got).toHaveLength(SAMPLE_MODEL_DIM);
      for (let d = 0; d < SAMPLE_MODEL_DIM; d++) expect(Math.abs(got[d]! - mean[d]! / norm)).toBeLessThan(1e-5);
    });
  });

  it("reproduces the committed index's float32 chunk vectors byte for byte", async () => {
    const { loadDense } = await import('../../../src/core/retrieval/dense-file.ts');
    const { loadBm25 } = await import('../../../src/core/retrieval/bm25-file.ts');
    const bm25 = loadBm25(new Uint8Array(await readFile(path.join(release, 'index/bm25.bin'))));
    const dense = loadDense(new Uint8Array(await readFile(path.join(release, 'index/dense.bin'))), bm25.data.chunks);
    const float32 = dense.data.float32;
    expect(float32).not.toBeNull();
    const chunks = await readChunks(release);
    const { encoderInput } = await import('../../../src/core/search/index.ts');
    const { MAX_ENCODER_CHARS } = await import('../../../src/cli/index-build/build-indexes.ts');
    const got = await embedTexts(
      committed,
      chunks.map((c) => encoderInput(c.text, MAX_ENCODER_CHARS)),
    );
    const rows = new Float32Array(got.length * SAMPLE_MODEL_DIM);
    got.forEach((v, i) => rows.set(v, i * SAMPLE_MODEL_DIM));
    // The index stores the rows as buildDenseIndex re-normalises them.
    const { buildDenseIndex } = await import('../../../src/core/retrieval/dense-build.ts');
    const rebuilt = buildDenseIndex(rows, bm25.data.chunks, { model: SAMPLE_MODEL_NAME, dim: SAMPLE_MODEL_DIM });
    const mine = rebuilt.data.float32!;
    expect(mine).toHaveLength(float32!.length);
    expect(
      Buffer.from(mine.buffer, mine.byteOffset, mine.byteLength).equals(
        Buffer.from(float32!.buffer, float32!.byteOffset, float32!.byteLength),
      ),
    ).toBe(true);
    // Embeds every chunk of the sample: 3 s alone, but 63 s (past the 60 s default) beside other suites on two busy cores.
  }, 300_000);

  it('StaticEmbedder (pure TS, used by pooling) equals the transformers.js vectors within 1e-5', async () => {
    const vocab = JSON.parse(await readFile(path.join(modelDir, 'tokenizer.json'), 'utf8')) as {
      model: { vocab: Record<string, number> };
    };
    const byId: string[] = [];
    for (const [token, id] of Object.entries(vocab.model.vocab)) byId[id] = token;
    const table = embeddingTable(await readFile(path.join(modelDir, 'onnx/model.onnx')));
    const embedder = new StaticEmbedder({ vocab: byId, dim: SAMPLE_MODEL_DIM, table });
    const chunks = await readChunks(release);
    const texts = [...SAMPLES, ' ', ...chunks.filter((_, i) => i % 41 === 0).map((c) => c.text)];
    const want = await embedTexts(modelDir, texts);
    texts.forEach((text, i) => {
      const got = embedder.embed(text);
      for (let d = 0; d < SAMPLE_MODEL_DIM; d++) expect(Math.abs(got[d]! - want[i]![d]!)).toBeLessThan(1e-5);
    });
  });

  it('gives a zero vector (not NaN) for a text without tokens, and q8 close to fp32', async () => {
    const [blank] = await embedTexts(modelDir, [' ']);
    expect(Array.from(blank!).every((v) => v === 0)).toBe(true);
    const fp32 = await embedTexts(modelDir, SAMPLES);
    const q8 = await embedTexts(modelDir, SAMPLES, { dtype: 'q8' });
    fp32.forEach((v, i) => expect(v.reduce((s, x, d) => s + x * q8[i]![d]!, 0)).toBeGreaterThan(0.999));
  });
});

describe('embedChunks quality on the sample', () => {
  it('ranks the source document in the top 10 for >= 60% of 50 content-word queries', async () => {
    const { ids, docIds, dim, vectors } = await embedChunks(release, modelDir);
    const chunks = await readChunks(release);
    expect(ids).toEqual(chunks.map((c) => c.chunk_id));
    expect(vectors).toHaveLength(ids.length * dim);
    for (let c = 0; c < ids.length; c += 97)
      expect(Math.hypot(...vectors.subarray(c * dim, (c + 1) * dim))).toBeCloseTo(1, 5);
    const stop = new Set(
      'the and for that with this from have will your you are was were not but all any can had her his him our out she they them then than there their what when which who whom why how into over also been being about after before would could should just more most some such only very here week please send best regards thanks know need like dear sent subject date page'.split(
        ' ',
      ),
    );
    const prng = createPrng(7);
    const picks = Array.from({ length: 50 }, (_, k) => Math.floor(((k + 0.5) * chunks.length) / 50));
    const queries = picks.map((ci) => {
      const words = [...new Set(chunks[ci]!.text.toLowerCase().match(/[a-z]{4,}/g) ?? [])].filter((w) => !stop.has(w));
      const n = Math.min(5 + Math.floor(prng.next() * 4), words.length);
      const chosen: string[] = [];
      while (chosen.length < n) {
        const w = words[Math.floor(prng.next() * words.length)]!;
        if (!chosen.includes(w)) chosen.push(w);
      }
      return chosen.join(' ');
    });
    const queryVectors = await embedTexts(modelDir, queries);
    let hits = 0;
    picks.forEach((ci, qi) => {
      const q = queryVectors[qi]!;
      const best = new Map<string, number>();
      for (let c = 0; c < ids.length; c++) {
        let s = 0;
        for (let d = 0; d < dim; d++) s += q[d]! * vectors[c * dim + d]!;
        const doc = docIds[c]!;
        if (s > (best.get(doc) ?? -Infinity)) best.set(doc, s);
      }
      const top = [...best]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([d]) => d);
      if (top.includes(docIds[ci]!)) hits++;
    });
    console.log(`sample-static hit@10 for 50 content-word queries: ${hits}/50`);
    expect(hits / 50).toBeGreaterThanOrEqual(0.6);
  }, 180_000);
});
