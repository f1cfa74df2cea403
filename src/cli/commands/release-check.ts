import { errorMessage } from '../../core/error-message.ts';
import { sha256HexSync } from '../../adapters/node/sha256.ts';
import { existsSync, statSync } from 'node:fs';
import { blockMismatch } from '../../core/release/block-pins.ts';
import type { AsyncBuffer } from 'hyparquet';
import { parseArgs, UsageError } from '../args.ts';
import { FolderSource } from '../../adapters/node/folder-source.ts';
import {
  FileRefusedError,
  MAX_RELEASE_FILE_BYTES,
  pathInside,
  readRegularFileSync,
} from '../../adapters/node/regular-file.ts';
import { fsProblem } from '../files.ts';
import { detectLayout } from '../../core/release/layout.ts';
import { checkedParquetMetadataAsync } from '../../core/parquet/checked-metadata.ts';
import { columnChunkProblems, describeColumnProblem } from '../../core/parquet/column-check.ts';
import { loadRelease, ReleaseRefused, type LoadedRelease } from '../../core/release/load.ts';
import { manifestCountsFromTasks } from '../../core/release/manifest.ts';
import { SPLITS } from '../../core/release/types.ts';

const USAGE = `usage: npm run cli -- release-check <release-folder>

Loads a release folder in either layout (ours: release.json; the benchmark's: manifest.json +
full/ and dev/), validates every file, checks every sha256 pin (also of the files the explorer
does not parse: retrieval indexes, model files, the judge cache), prints each file's status and
the task counts per split and type.
Exit: 0 intact, 1 a pin failed or a file is invalid, 2 wrong usage.
`;

export async function run(args: string[]): Promise<number> {
  let folder: string;
  try {
    const parsed = parseArgs(args, []);
    if (parsed.switches.has('help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (parsed.positional.length !== 1 || parsed.switches.size > 0) throw new UsageError('expected one release folder');
    folder = parsed.positional[0]!;
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${folder} is not a folder`);
  } catch (e) {
    process.stderr.write(`${errorMessage(e)}\n\n${USAGE}`);
    return 2;
  }

  let release: LoadedRelease;
  let source: CheckedFolderSource;
  try {
    source = new CheckedFolderSource(folder);
  } catch (e) {
    process.stdout.write(`UNREADABLE ${describeFsPath(e, folder)}: cannot list the folder (${fsProblem(e)})\n`);
    return 1;
  }
  try {
    release = await loadRelease(source, { deferParquet: false });
  } catch (e) {
    if (e instanceof ReleaseRefused) {
      process.stdout.write(`REFUSED ${e.file ?? folder}: ${e.message}\n`);
      return 1;
    }
    if (e instanceof UnreadableFileError) {
      process.stdout.write(`UNREADABLE ${e.file}: ${e.message}\n`);
      return 1;
    }
    if (e instanceof FileRefusedError) {
      process.stdout.write(`REFUSED ${e.message}\n\nrelease-check: FAILED\n`);
      return 1;
    }
    // a reader failed without saying on which file (a corrupt parquet file): find the file
    const broken = await brokenParquetFiles(source);
    for (const b of broken) process.stdout.write(`INVALID ${b.problem}\n`);
    if (broken.length === 0) process.stdout.write(`FAILED ${folder}: ${errorMessage(e)}\n`);
    process.stdout.write('\nrelease-check: FAILED\n');
    return 1;
  }

  process.stdout.write(`${release.descriptor.title} (${release.layout} layout) at ${folder}\n\nfiles:\n`);
  let failed = false;
  const undecodable = await undecodableColumns(source, release);
  for (const f of release.files) {
    if (f.status === 'missing' && !f.required) continue;
    if (f.status === 'ignored' && release.descriptor.sha256?.[f.path] !== undefined) continue;
    const pin = f.pin === 'ok' ? 'sha256 ok' : f.pin === 'pending' ? 'not hashed yet' : '';
    process.stdout.write(
      `  ${f.status.padEnd(8)} ${f.path}${f.rows !== undefined && /\.(jsonl|parquet)$/.test(f.path) ? `  ${f.rows} rows` : ''}${pin ? `  ${pin}` : ''}\n`,
    );
    if (f.status === 'invalid') {
      failed = true;
      for (const issue of f.issues) process.stdout.write(`      ${issue.message}\n`);
      if (f.issueCount > f.issues.length) process.stdout.write(`      ...and ${f.issueCount - f.issues.length} more\n`);
    }
    for (const line of undecodable.get(f.path) ?? []) {
      failed = true;
      process.stdout.write(`      ${line}\n`);
    }
  }
  for (const line of [...checkOtherPins(folder, release), ...(await checkBlockPins(folder, release))]) {
    process.stdout.write(`  ${line.status.padEnd(8)} ${line.path}  ${line.detail}\n`);
    if (line.status !== 'pinned') failed = true;
  }
  if (release.lacks.length) process.stdout.write(`\nnot in this release: ${release.lacks.join(', ')}\n`);
  if (release.unsubmitted.length) {
    process.stdout.write(`\nleaderboard entries without a submission folder:\n`);
    for (const e of release.unsubmitted) process.stdout.write(`  ${e.system_name}  (submissions/${e.slug}/)\n`);
  }

  process.stdout.write('\ntasks:\n');
  for (const split of SPLITS) {
    const s = release.splits[split];
    if (!s) continue;
    const counts = manifestCountsFromTasks(s.questions);
    const byType = Object.entries(counts.by_type)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
    process.stdout.write(
      `  ${split}: ${counts.n_tasks} tasks (${byType})${s.tasks ? `, answer key for ${s.tasks.length}` : ', no answer key'}\n`,
    );
    const expected = release.manifest?.splits[split];
    if (expected) {
      const same =
        expected.n_tasks === counts.n_tasks && JSON.stringify(expected.by_type) === JSON.stringify(counts.by_type);
      process.stdout.write(
        `    manifest: ${same ? 'counts match' : `MISMATCH (manifest ${expected.n_tasks}: ${JSON.stringify(expected.by_type)})`}\n`,
      );
      if (!same) failed = true;
    }
  }
  process.stdout.write(failed ? '\nrelease-check: FAILED\n' : '\nrelease-check: ok\n');
  return failed ? 1 : 0;
}

interface PinLine {
  status: 'pinned' | 'invalid' | 'missing' | 'unreadable' | 'refused';
  path: string;
  detail: string;
}

/**
 * The explorer leaves some pinned files to their own readers (the search worker hashes an index
 * before using it, the scorer the judge cache); release-check hashes them all here.
 */
function checkOtherPins(folder: string, release: LoadedRelease): PinLine[] {
  const pins = release.descriptor.sha256 ?? {};
  const parsed = new Set(
    release.files.filter((f) => f.status !== 'ignored' && f.status !== 'missing').map((f) => f.path),
  );
  const root = detectLayout(new FolderSource(folder).list())?.root ?? '';
  const lines: PinLine[] = [];
  for (const [file, pin] of Object.entries(pins)) {
    if (parsed.has(file)) continue;
    let bytes: Uint8Array;
    try {
      bytes = readRegularFileSync(pathInside(folder, `${root}${file}`), MAX_RELEASE_FILE_BYTES);
    } catch (error) {
      if (error instanceof FileRefusedError) lines.push({ status: 'refused', path: file, detail: error.detail });
      else if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        lines.push({ status: 'missing', path: file, detail: 'pinned in release.json but not in the folder' });
      else lines.push({ status: 'unreadable', path: file, detail: `pinned in release.json but ${fsProblem(error)}` });
      continue;
    }
    const actual = sha256HexSync(bytes);
    lines.push(
      actual === pin
        ? { status: 'pinned', path: file, detail: 'sha256 ok' }
        : { status: 'invalid', path: file, detail: `sha256 ${actual}, release.json pins ${pin}` },
    );
  }
  return lines;
}

/** release.json's block pins (embeds check the ranges they read by them) against the files. */
async function checkBlockPins(folder: string, release: LoadedRelease): Promise<PinLine[]> {
  const root = detectLayout(new FolderSource(folder).list())?.root ?? '';
  const lines: PinLine[] = [];
  for (const [file, pins] of Object.entries(release.descriptor.blocks ?? {})) {
    let bytes: Uint8Array;
    try {
      bytes = readRegularFileSync(pathInside(folder, `${root}${file}`), MAX_RELEASE_FILE_BYTES);
    } catch (error) {
      if (error instanceof FileRefusedError) lines.push({ status: 'refused', path: file, detail: error.detail });
      else if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        lines.push({
          status: 'missing',
          path: file,
          detail: 'has block pins in release.json but is not in the folder',
        });
      else
        lines.push({
          status: 'unreadable',
          path: file,
          detail: `has block pins in release.json but ${fsProblem(error)}`,
        });
      continue;
    }
    const mismatch = await blockMismatch(file, bytes, pins);
    lines.push(
      mismatch
        ? { status: 'invalid', path: file, detail: mismatch }
        : { status: 'pinned', path: file, detail: `${pins.sha256.length} block pins ok` },
    );
  }
  return lines;
}

class UnreadableFileError extends Error {
  constructor(
    readonly file: string,
    error: unknown,
  ) {
    super(`the file exists but is ${fsProblem(error)}`);
  }
}

/** FolderSource that tells a missing file (undefined) from one it cannot read (UnreadableFileError). */
class CheckedFolderSource extends FolderSource {
  override async read(rel: string): Promise<Uint8Array | undefined> {
    try {
      return await super.read(rel);
    } catch (error) {
      if (error instanceof FileRefusedError) throw error;
      throw new UnreadableFileError(rel, error);
    }
  }
  override async open(rel: string): Promise<AsyncBuffer | undefined> {
    const bytes = await this.read(rel);
    return bytes ? { byteLength: bytes.byteLength, slice: (s, e) => bytes.slice(s, e).buffer } : undefined;
  }
}

function describeFsPath(error: unknown, fallback: string): string {
  const p = (error as NodeJS.ErrnoException).path;
  return typeof p === 'string' ? p : fallback;
}

/**
 * Every .parquet file of the folder whose footer hyparquet cannot read, or with a column whose
 * first page it cannot decode (a codec, an encoding), each problem in a line naming the file.
 */
async function brokenParquetFiles(source: CheckedFolderSource): Promise<{ file: string; problem: string }[]> {
  const out: { file: string; problem: string }[] = [];
  for (const file of source.list().filter((f) => f.endsWith('.parquet'))) {
    try {
      const buffer = await source.open(file);
      if (!buffer) continue;
      const metadata = await checkedParquetMetadataAsync(buffer);
      for (const p of await columnChunkProblems(buffer, metadata, file))
        out.push({ file, problem: describeColumnProblem(file, p) });
    } catch (error) {
      out.push({ file, problem: `${file}: not a readable parquet file (${errorMessage(error)})` });
    }
  }
  return out;
}

/**
 * The loaded release's parquet files, each column's first page decoded: the reader of a view
 * may read a column (text, a row group) that loading did not, and must not meet a codec or an
 * encoding it cannot decode there first. Path -> problem lines.
 */
async function undecodableColumns(source: CheckedFolderSource, release: LoadedRelease): Promise<Map<string, string[]>> {
  const root = detectLayout(source.list())?.root ?? '';
  const out = new Map<string, string[]>();
  for (const f of release.files) {
    if (!f.path.endsWith('.parquet') || f.status === 'missing' || f.status === 'ignored') continue;
    const buffer = await source.open(`${root}${f.path}`);
    if (!buffer) continue;
    let lines: string[];
    try {
      const metadata = await checkedParquetMetadataAsync(buffer);
      lines = (await columnChunkProblems(buffer, metadata, f.path)).map((p) => describeColumnProblem(f.path, p));
    } catch (error) {
      lines = [`${f.path}: not a readable parquet file (${errorMessage(error)})`];
    }
    if (lines.length) out.set(f.path, lines);
  }
  return out;
}
