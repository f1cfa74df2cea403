/**
 * Reading and writing the release's JSONL and JSON files.
 *
 * Reading follows the benchmark's Python reader: one JSON value per line, blank lines skipped.
 * It also accepts what editors and other OSes do to a file (a UTF-8 BOM, CRLF line ends). It
 * never throws: every problem becomes a ParseIssue with the file and the 1-based line number,
 * and reading goes on with the next line.
 */
import { JsonlLineSplitter } from '../python/text-lines.ts';
import { errorMessage } from '../error-message.ts';
import { IssueList, describeLocation, makeIssue, renderFound, truncate, type ParseIssue } from './issues.ts';
import { pyJsonDumps } from '../python/json-dumps.ts';
import type { Question } from './types.ts';
import type { Validator } from './validate.ts';

export { pyJsonDumps, pyJsonDumpsIndent, pyJsonString, pyFloatRepr, pyFloat, PyFloat } from '../python/json-dumps.ts';

/** io_utils.write_jsonl: each row as json.dumps(row, ensure_ascii=False) then "\n", the last line too. */
export function writeJsonl(rows: readonly unknown[]): string {
  let out = '';
  for (const row of rows) out += `${pyJsonDumps(row)}\n`;
  return out;
}

/** One questions.jsonl line for a task: its task_id, type and question in that order, then "\n". */
export function questionLine(task: Question): string {
  return `${pyJsonDumps({ task_id: task.task_id, type: task.type, question: task.question })}\n`;
}

export interface JsonlResult<T> {
  /** The valid rows, in file order. */
  rows: T[];
  /** lines[i] is the 1-based line number of rows[i]. */
  lines: number[];
  issues: IssueList;
  /** Non-blank lines seen (valid or not), i.e. the records the file claims to hold. */
  totalLines: number;
}

export interface ParseOptions {
  /** Size of a new IssueList (default 200); ignored when `issues` is given. */
  maxIssues?: number;
  /** Add issues to this list (e.g. one list shared by several steps on the same file). */
  issues?: IssueList;
}

function issueListFor(opts: ParseOptions | IssueList | undefined): IssueList {
  if (opts instanceof IssueList) return opts;
  return opts?.issues ?? new IssueList(opts?.maxIssues ?? 200);
}

const BOM = '\uFEFF';
const MESSAGE_MAX_CHARS = 200;

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0b && c !== 0x0c) return false;
  }
  return true;
}

function syntaxMessage(error: unknown): string {
  return truncate(errorMessage(error), MESSAGE_MAX_CHARS);
}

function invalidJsonIssue(file: string, line: number | undefined, text: string, error: unknown) {
  const issue = makeIssue(file, line, undefined, 'valid JSON', renderFound(text));
  issue.message = `${describeLocation(file, line)}: invalid JSON (${syntaxMessage(error)})`;
  return issue;
}

export function parseJsonl<T>(
  text: string,
  file: string,
  validator: Validator<T>,
  opts?: ParseOptions | IssueList,
): JsonlResult<T> {
  const issues = issueListFor(opts);
  const result: JsonlResult<T> = { rows: [], lines: [], issues, totalLines: 0 };
  parseLines(text.startsWith(BOM) ? text.slice(1) : text, file, validator, result, 1);
  return result;
}

/** Text of whole lines; the lines whose bytes were not UTF-8 are blank in it, their issues kept here. */
export interface DecodedLines {
  text: string;
  /** line number -> its UTF-8 issue, added to the issues when the parser reaches that line. */
  invalid?: Map<number, ParseIssue>;
}

/** Parses every line of text, numbering them from firstLine; returns the number of lines seen. */
export function parseLines<T>(
  text: string,
  file: string,
  validator: Validator<T>,
  into: JsonlResult<T>,
  firstLine: number,
  onRow?: (row: T, line: number) => void,
  invalid?: ReadonlyMap<number, ParseIssue>,
): number {
  const { issues } = into;
  let lineNo = firstLine - 1;
  // Lines end as Python's text-mode reading ends them (\n, \r\n, a lone \r), as in predictions.
  const splitter = new JsonlLineSplitter(Number.POSITIVE_INFINITY, (event) => {
    lineNo = firstLine + event.line - 1;
    const line = event.overlong === undefined ? event.text : '';
    const undecodable = invalid?.get(lineNo);
    if (undecodable) {
      into.totalLines++;
      issues.add(undecodable);
      return;
    }
    if (isBlank(line)) return;
    into.totalLines++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      issues.add(invalidJsonIssue(file, lineNo, line, error));
      return;
    }
    const row = validator(value, { file, line: lineNo }, issues);
    if (row === undefined) return;
    if (onRow) onRow(row, lineNo);
    else {
      into.rows.push(row);
      into.lines.push(lineNo);
    }
  });
  splitter.push(text);
  splitter.end();
  return lineNo - firstLine + 1;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * parseJsonl on raw bytes. Invalid UTF-8 is reported on the line that holds it (with the byte
 * offset in the file) and that line is skipped; the other lines are read as usual.
 */
export function parseJsonlBytes<T>(
  bytes: Uint8Array,
  file: string,
  validator: Validator<T>,
  opts?: ParseOptions | IssueList,
): JsonlResult<T> {
  const issues = issueListFor(opts);
  const { text, invalid } = decodeUtf8Lines(bytes, file);
  const result: JsonlResult<T> = { rows: [], lines: [], issues, totalLines: 0 };
  parseLines(text.startsWith(BOM) ? text.slice(1) : text, file, validator, result, 1, undefined, invalid);
  return result;
}

/**
 * Decodes UTF-8 text made of whole lines. When some bytes are invalid, each line is decoded on
 * its own; a line with invalid UTF-8 is left blank (so the other lines keep their numbers) and
 * its issue (line numbers from firstLine, byte offsets from byteOffset) is returned for parseLines.
 */
export function decodeUtf8Lines(bytes: Uint8Array, file: string, firstLine = 1, byteOffset = 0): DecodedLines {
  try {
    return { text: strictDecoder.decode(bytes) };
  } catch {
    return decodeLineByLine(bytes, file, firstLine, byteOffset);
  }
}

function decodeLineByLine(bytes: Uint8Array, file: string, firstLine: number, byteOffset: number): DecodedLines {
  const invalid = new Map<number, ParseIssue>();
  const parts: string[] = [];
  let start = 0;
  let lineNo = firstLine - 1;
  while (start <= bytes.length) {
    // Lines end where parseLines ends them: \n, \r\n or a lone \r.
    let end = start;
    while (end < bytes.length && bytes[end] !== 0x0a && bytes[end] !== 0x0d) end++;
    const next = bytes[end] === 0x0d && bytes[end + 1] === 0x0a ? end + 2 : end + 1;
    lineNo++;
    const lineBytes = bytes.subarray(start, end);
    try {
      parts.push(strictDecoder.decode(lineBytes));
    } catch {
      const at = start + firstInvalidUtf8(lineBytes);
      const byte = bytes[at] ?? 0;
      const found = `byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${byteOffset + at}`;
      const issue = makeIssue(file, lineNo, undefined, 'UTF-8 text', found);
      issue.message = `${file} line ${lineNo}: not valid UTF-8 (${found}); line skipped`;
      invalid.set(lineNo, issue);
      parts.push('');
    }
    start = next;
  }
  return { text: parts.join('\n'), invalid };
}

/** Index of the first byte that does not start or continue a valid UTF-8 sequence (length if none). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

/** Position of a JSON.parse error, when V8's message gives one, as a 1-based line number. */
function errorLine(text: string, error: unknown): number | undefined {
  const m = error instanceof Error ? /at position (\d+)/.exec(error.message) : null;
  if (!m) return undefined;
  const position = Math.min(Number(m[1]), text.length);
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < position; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * One JSON file (manifest.json, scores.json, ...). Returns the validated value, or undefined
 * after adding issues (a syntax error names its line when the engine tells the position).
 */
export function parseJsonFile<T>(
  text: string,
  file: string,
  validator: Validator<T>,
  opts?: ParseOptions | IssueList,
): T | undefined {
  const issues = issueListFor(opts);
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    issues.add(invalidJsonIssue(file, errorLine(body, error), body, error));
    return undefined;
  }
  return validator(value, { file }, issues);
}

/** parseJsonFile on raw bytes; invalid UTF-8 is one issue. */
export function parseJsonFileBytes<T>(
  bytes: Uint8Array,
  file: string,
  validator: Validator<T>,
  opts?: ParseOptions | IssueList,
): T | undefined {
  const issues = issueListFor(opts);
  let text: string;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    const found = `byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at byte offset ${at}`;
    const issue = makeIssue(file, undefined, undefined, 'UTF-8 text', found);
    issue.message = `${file}: not valid UTF-8 (${found})`;
    issues.add(issue);
    return undefined;
  }
  return parseJsonFile(text, file, validator, issues);
}
