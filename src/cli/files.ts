/**
 * Reading the CLI's input files and writing its outputs with errors that say which file and
 * what is wrong with it: missing, unreadable (permission), a folder where a file was expected,
 * JSON that is invalid or nested deeper than Python's json module reads.
 */
import { errorMessage } from '../core/error-message.ts';
import { access, stat, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { PY_JSON_MAX_NESTING, PyJsonDecodeError, PyJsonLimitError, pyJsonLoads } from '../core/python/json-loads.ts';
import type { PyValue } from '../core/python/json-loads.ts';
import { FileRefusedError, MAX_INPUT_FILE_BYTES, readRegularText } from '../adapters/node/regular-file.ts';

/** A missing or unreadable input file, or an output path that cannot be written: a usage problem (exit 2). */
export class InputFileError extends Error {}

/** A file that was read but whose content is unusable (exit 1). */
export class FileContentError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

/** What a failed fs call means for the user, from its error code. */
export function fsProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'missing (no such file or folder)';
    case 'EACCES':
    case 'EPERM':
      return 'unreadable (permission denied)';
    case 'EISDIR':
      return 'a folder, not a file';
    case 'ENOTDIR':
      return 'not found (a part of the path is not a folder)';
    case 'ELOOP':
      return 'unreadable (too many symbolic links)';
    case 'EMFILE':
    case 'ENFILE':
      return 'unreadable (too many open files)';
    default:
      return `unreadable (${code ?? errorMessage(error)})`;
  }
}

export type FileState = 'file' | 'folder' | 'missing' | 'unreadable' | 'not-regular';

/** Whether path is a readable file, without throwing (and without opening it: a FIFO would block). */
export async function fileState(file: string): Promise<FileState> {
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR'
      ? 'missing'
      : 'unreadable';
  }
  if (info.isDirectory()) return 'folder';
  if (!info.isFile()) return 'not-regular';
  try {
    await access(file, constants.R_OK);
  } catch {
    return 'unreadable';
  }
  return 'file';
}

/** Throws InputFileError unless `file` is a readable file. */
export async function checkInputFile(file: string, what: string): Promise<void> {
  const state = await fileState(file);
  if (state === 'file') return;
  throw new InputFileError(`cannot read ${what} ${file}: it is ${stateWords(state)}`);
}

/** What a file state that is not 'file' means, for "<file> is ..." messages. */
export function stateWords(state: FileState): string {
  switch (state) {
    case 'folder':
      return 'a folder, not a file';
    case 'missing':
      return 'missing (no such file)';
    case 'not-regular':
      return 'not a regular file (a pipe, device or socket may never end); refused';
    default:
      return 'unreadable (permission denied)';
  }
}

/** A regular file of at most `limit` bytes as text; anything else is a clear InputFileError. */
export async function readText(file: string, what: string, limit = MAX_INPUT_FILE_BYTES): Promise<string> {
  try {
    return await readRegularText(file, limit);
  } catch (error) {
    throw inputFileError(file, what, error);
  }
}

/** The InputFileError for a failed read of `file`, refusals included. */
export function inputFileError(file: string, what: string, error: unknown): InputFileError {
  if (error instanceof FileRefusedError)
    return new InputFileError(`cannot read ${what} ${error.file}: it ${error.detail}`);
  return new InputFileError(`cannot read ${what} ${file}: it is ${fsProblem(error)}`);
}

/** A json.loads value as plain JS data (dict -> object, int -> number), for code that walks JSON. */
export function pyToPlain(v: PyValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(pyToPlain);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, pyToPlain(x)]));
  return v;
}

/**
 * A JSON file read as Python's json.load reads it (NaN and Infinity accepted, as the benchmark
 * writes them), refused with a clear message when invalid or nested deeper than Python reads
 * (the canonical scripts would stop with RecursionError; a recursive walk would overflow).
 */
export async function readJsonFile(file: string, what: string): Promise<unknown> {
  const text = await readText(file, what);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return pyToPlain(pyJsonLoads(body));
  } catch (error) {
    if (error instanceof PyJsonLimitError)
      throw new FileContentError(
        file,
        `expected ${what} as JSON, found JSON Python cannot read: ${error.pythonError.startsWith('RecursionError') ? `arrays/objects nested more than ${PY_JSON_MAX_NESTING} levels deep (json.load stops there with RecursionError)` : error.pythonError}`,
      );
    if (error instanceof PyJsonDecodeError)
      throw new FileContentError(file, `expected ${what} as JSON, found invalid JSON (${error.message})`);
    throw error;
  }
}

/** Before a long run: an output path that is a folder, or whose folder is missing, is refused at once. */
export async function checkOutputPath(file: string, what: string): Promise<void> {
  const state = await fileState(file);
  if (state === 'folder')
    throw new InputFileError(
      `cannot write ${what} to ${file}: it is a folder; give a file path such as ${path.join(file, path.basename(what))}`,
    );
  const parent = await fileState(path.dirname(path.resolve(file)));
  if (parent === 'missing' || parent === 'file')
    throw new InputFileError(`cannot write ${what} to ${file}: its folder ${path.dirname(file)} does not exist`);
}

/** Writes an output file; a folder, a missing parent folder or no permission is a clear InputFileError. */
export async function writeOutputFile(file: string, text: string, what: string): Promise<void> {
  await checkOutputPath(file, what);
  try {
    await writeFile(file, text, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? `its folder ${path.dirname(file)} does not exist`
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : fsProblem(error);
    throw new InputFileError(`cannot write ${what} to ${file}: ${why}`);
  }
}
