import { sha256HexSync } from '../../adapters/node/sha256.ts';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { runSamplePipeline, type SamplePipelineResult } from '../../core/sample/pipeline.ts';
import { buildIndexes } from '../index-build/build-indexes.ts';
import { listFolder, withIndexes } from '../index-build/register.ts';
import {
  SAMPLE_MODEL_NAME,
  trainSampleModel,
  writeSampleModel,
  type TrainedSampleModel,
} from '../model/build-model.ts';
import { realPoolRetrievers } from '../index-build/pool-retrievers.ts';
import { pyJsonDumpsIndent } from '../../core/python/json-dumps.ts';
import { blockPinsOf, type BlockPins } from '../../core/release/block-pins.ts';
import {
  PATHS,
  renderSampleFiles,
  SAMPLE_RELEASE_ID,
  sampleDescriptor,
  type SampleTables,
} from '../../core/sample/release-files.ts';

export const DEFAULT_SEED = 20260705;
const SAMPLE_MODEL_PATH = `models/${SAMPLE_MODEL_NAME}`;
const PARQUET_ROW_GROUP = 500;
const CREATED_BY = 'epstein-bench-explorer sample generator (hyparquet-writer)';

export interface WriteSampleResult {
  outDir: string;
  files: Array<{ path: string; bytes: number; sha256: string }>;
  pipeline: SamplePipelineResult;
  millis: number;
}

function parquet(columns: Record<string, string[]>): Uint8Array {
  const buffer = parquetWriteBuffer({
    columnData: Object.entries(columns).map(([name, data]) => ({
      name,
      data,
      type: 'STRING' as const,
      nullable: false,
    })),
    rowGroupSize: PARQUET_ROW_GROUP,
    createdBy: CREATED_BY,
  });
  return new Uint8Array(buffer);
}

export function parquetTables(tables: SampleTables): Map<string, Uint8Array> {
  return new Map([
    [PATHS.docs, parquet(tables.docs)],
    [PATHS.chunks, parquet(tables.chunks)],
  ]);
}

/** Refuses to wipe a folder that is not empty and not a previous sample release. */
function prepareOutDir(outDir: string): void {
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    const descriptor = path.join(outDir, PATHS.descriptor);
    let id: unknown;
    try {
      id = (JSON.parse(readFileSync(descriptor, 'utf8')) as { id?: unknown }).id;
    } catch {
      id = undefined;
    }
    if (id !== SAMPLE_RELEASE_ID) {
      throw new Error(
        `${outDir} is not empty and holds no sample release (${PATHS.descriptor} with id "${SAMPLE_RELEASE_ID}"); refusing to overwrite it`,
      );
    }
    rmSync(outDir, { recursive: true });
  }
  mkdirSync(outDir, { recursive: true });
}

export async function writeSampleRelease(
  outDir: string,
  seed = DEFAULT_SEED,
  onStep: (message: string) => void = () => undefined,
): Promise<WriteSampleResult> {
  const started = Date.now();
  // The model is trained once, from the chunks the pipeline cuts (= chunks.parquet), and serves
  // both the pool's dense retriever and the shipped model files.
  const trained: { model?: TrainedSampleModel } = {};
  const pipeline = runSamplePipeline(seed, {
    onStep,
    retrievers: (chunks) => {
      onStep(`training the embedding model on ${chunks.length} chunks`);
      trained.model = trainSampleModel(chunks.map((c) => c.text));
      return realPoolRetrievers(chunks, trained.model.embeddings, SAMPLE_MODEL_NAME);
    },
  });
  const { model } = trained;
  if (!model) throw new Error('the sample pipeline asked for no pool retrievers');
  onStep('rendering the release files');
  const rendered = await renderSampleFiles(pipeline);
  const bytes = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  for (const [p, text] of rendered.text) bytes.set(p, encoder.encode(text));
  for (const [p, data] of parquetTables(rendered.tables)) bytes.set(p, data);
  // The retrieval indexes, over the chunks in chunks.parquet row order.
  const { chunk_id, doc_id, text } = rendered.tables.chunks;
  // The model files are written to a scratch folder, from which transformers.js embeds the chunks.
  const work = mkdtempSync(path.join(tmpdir(), 'sample-model-'));
  let built: Awaited<ReturnType<typeof buildIndexes>>;
  try {
    const modelDir = path.join(work, SAMPLE_MODEL_PATH);
    await writeSampleModel(model, modelDir);
    for (const f of listFolder(modelDir))
      bytes.set(`${SAMPLE_MODEL_PATH}/${f}`, new Uint8Array(readFileSync(path.join(modelDir, f))));
    onStep(`building the retrieval indexes over ${chunk_id.length} chunks`);
    built = await buildIndexes(
      chunk_id.map((id, i) => ({ chunk_id: id, doc_id: doc_id[i]!, text: text[i]! })),
      { dir: modelDir, releasePath: SAMPLE_MODEL_PATH, dtype: 'fp32' },
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  for (const [p, data] of built.files) bytes.set(p, data);
  const pins: Record<string, string> = {};
  for (const [p, data] of bytes) pins[p] = sha256HexSync(data);
  const blocks: Record<string, BlockPins> = {};
  for (const p of [PATHS.docs, PATHS.chunks]) blocks[p] = await blockPinsOf(bytes.get(p)!);
  bytes.set(
    PATHS.descriptor,
    encoder.encode(
      pyJsonDumpsIndent(
        withIndexes(
          sampleDescriptor(
            pins,
            rendered.submissions.map((s) => s.slug),
            blocks,
          ),
          built.indexes,
        ),
        2,
      ),
    ),
  );

  onStep(`writing ${bytes.size} files`);
  prepareOutDir(outDir);
  const files: WriteSampleResult['files'] = [];
  for (const p of [...bytes.keys()].sort()) {
    const data = bytes.get(p)!;
    const target = path.join(outDir, ...p.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, data);
    files.push({ path: p, bytes: data.length, sha256: sha256HexSync(data) });
  }
  return { outDir, files, pipeline, millis: Date.now() - started };
}
