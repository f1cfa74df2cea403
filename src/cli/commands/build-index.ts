/** `npm run cli -- build-index <release-folder>`: BM25 + dense vectors + model manifest. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ReleaseDescriptor } from '../../core/release/types.ts';
import { parseArgs, UsageError, refuseUnknownSwitches, usageExit } from '../args.ts';
import { buildIndexes, INDEX_FILES, type ModelSpec } from '../index-build/build-indexes.ts';
import { readChunkRows } from '../model/read-chunks.ts';
import { findReleaseModel, listFolder, writeIndexFiles } from '../index-build/register.ts';
import {
  FileRefusedError,
  MAX_INPUT_FILE_BYTES,
  MAX_RELEASE_FILE_BYTES,
  pathInside,
  readRegularFileSync,
  readRegularText,
} from '../../adapters/node/regular-file.ts';

const USAGE = `usage: npm run cli -- build-index <release-folder> [--model <folder>] [--dtype fp32|q8] [--no-dense]

Builds the retrieval indexes of a release from its chunks.parquet and names them in its
release.json "indexes" (and its sha256 pins, when it keeps pins):
  index/bm25.bin    BM25 (k1 1.5, b 0.75) over every chunk, documents ranked by best chunk
  index/dense.bin   chunk vectors of the model (binary codes, int8 rows, float32 rows if small)
  index/model.json  the model manifest: how the browser embeds queries the same way

  --model <folder>  a transformers.js feature-extraction model folder inside the release
                    (default: the only folder under <release>/models/ with a config.json)
  --dtype fp32|q8   which ONNX file embeds (default fp32; the manifest records it)
  --no-dense        BM25 only
  --help            this text

Exit codes: 0 built, 1 failed (no chunks file, unreadable model), 2 usage.
`;

export async function run(args: string[]): Promise<number> {
  try {
    const parsed = parseArgs(args, ['model', 'dtype']);
    if (parsed.switches.has('help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    refuseUnknownSwitches(parsed.switches, ['no-dense']);
    if (parsed.positional.length !== 1) throw new UsageError('give exactly one release folder');
    const dtype = parsed.flags.get('dtype') ?? 'fp32';
    if (dtype !== 'fp32' && dtype !== 'q8') throw new UsageError(`--dtype must be fp32 or q8, got ${dtype}`);
    const releaseDir = path.resolve(parsed.positional[0]!);
    const noDense = parsed.switches.has('no-dense');
    if (noDense && parsed.flags.has('model')) throw new UsageError('--model and --no-dense exclude each other');
    return await build(releaseDir, noDense, parsed.flags.get('model'), dtype);
  } catch (e) {
    if (e instanceof FileRefusedError) {
      process.stderr.write(`build-index: ${e.message}\n`);
      return 1;
    }
    return usageExit(e, USAGE);
  }
}

async function build(
  releaseDir: string,
  noDense: boolean,
  modelArg: string | undefined,
  dtype: 'fp32' | 'q8',
): Promise<number> {
  const fail = (message: string): number => {
    process.stderr.write(`build-index: ${message}\n`);
    return 1;
  };
  if (!existsSync(releaseDir)) return fail(`${releaseDir} does not exist`);
  // before any work: an output that a symbolic link would take outside the folder is refused
  for (const rel of ['release.json', ...Object.values(INDEX_FILES)]) pathInside(releaseDir, rel);
  const descriptorFile = path.join(releaseDir, 'release.json');
  let chunksRel = 'chunks.parquet';
  if (existsSync(descriptorFile)) {
    const descriptor = JSON.parse(
      await readRegularText(pathInside(releaseDir, 'release.json'), MAX_INPUT_FILE_BYTES),
    ) as ReleaseDescriptor;
    chunksRel = descriptor.files?.chunks ?? chunksRel;
  }
  const chunksFile = pathInside(releaseDir, chunksRel);
  if (!existsSync(chunksFile)) return fail(`${chunksFile} does not exist: the indexes are built from the chunks file`);
  if (!chunksRel.endsWith('.parquet')) return fail(`${chunksRel}: only a parquet chunks file is supported`);

  let model: ModelSpec | undefined;
  if (!noDense) {
    const rel =
      modelArg !== undefined
        ? path.relative(releaseDir, path.resolve(modelArg)).split(path.sep).join('/')
        : findReleaseModel(releaseDir);
    if (rel !== undefined) {
      if (rel.startsWith('..') || path.isAbsolute(rel))
        return fail(`--model ${modelArg} must be inside the release folder (the browser fetches it from there)`);
      if (!existsSync(path.join(releaseDir, rel, 'config.json')))
        return fail(`${rel}: no config.json, not a transformers.js model folder`);
      model = { dir: path.join(releaseDir, rel), releasePath: rel, dtype };
    } else {
      process.stdout.write('no model folder under models/ (and no --model): building BM25 only\n');
    }
  }

  const started = performance.now();
  const step = (message: string) =>
    process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}\n`);
  step(`reading ${chunksRel}`);
  const chunks = await readChunkRows(chunksFile);
  step(`building BM25${model ? ` and embedding ${chunks.length} chunks with ${path.basename(model.dir)}` : ''}`);
  const readSeconds = (performance.now() - started) / 1000;
  const built = await buildIndexes(chunks, model);
  built.timings.readSeconds = readSeconds;
  const modelFiles = new Map<string, Uint8Array>();
  if (model) {
    for (const f of listFolder(model.dir))
      modelFiles.set(
        `${model.releasePath}/${f}`,
        readRegularFileSync(pathInside(releaseDir, `${model.releasePath}/${f}`), MAX_RELEASE_FILE_BYTES),
      );
  }
  step('writing the index files');
  const { descriptorUpdated } = writeIndexFiles(releaseDir, built.files, built.indexes, modelFiles);

  const t = built.timings;
  const out: string[] = [`read ${built.chunks} chunks from ${chunksRel} in ${t.readSeconds.toFixed(2)} s`];
  for (const [rel, bytes] of built.files)
    out.push(`  ${rel.padEnd(18)} ${(bytes.byteLength / 1024).toFixed(1).padStart(10)} KiB`);
  out.push(
    `BM25: ${built.bm25.numTerms} terms, ${built.bm25.data.postingChunk.length} postings, built in ${t.bm25Seconds.toFixed(2)} s`,
  );
  if (model)
    out.push(
      `dense: ${built.dim}-d ${path.basename(model.dir)} (${dtype}), embedded in ${t.embedSeconds!.toFixed(2)} s, indexed in ${t.denseSeconds!.toFixed(2)} s`,
    );
  out.push(
    descriptorUpdated === 'updated'
      ? 'release.json: "indexes" updated'
      : descriptorUpdated === 'unchanged'
        ? 'release.json: already names these indexes (unchanged)'
        : 'no release.json: name the files in its "indexes" yourself',
  );
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
