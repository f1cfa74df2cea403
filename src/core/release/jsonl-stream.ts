/**
 * JSONL read chunk by chunk, for files too big to hold as one string (a corpus docs.jsonl can
 * exceed the engine's string limit). Same rules and issues as parseJsonl: line numbers run
 * across chunks, invalid UTF-8 is reported on its line, nothing throws.
 */
import { IssueList, makeIssue } from './issues.ts';
import { decodeUtf8Lines, parseLines, type JsonlResult, type ParseOptions } from './jsonl.ts';
import type { Validator } from './validate.ts';

export interface JsonlStreamOptions<T> extends ParseOptions {
  /** Called for each valid row instead of collecting it in `rows` (keeps memory flat). */
  onRow?: (row: T, line: number) => void;
  /** A line longer than this is reported and skipped (default 64 MiB). */
  maxLineBytes?: number;
}

const NEWLINE = 0x0a;
const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

export class JsonlStreamParser<T> {
  private readonly result: JsonlResult<T>;
  private readonly maxLineBytes: number;
  private readonly onRow: ((row: T, line: number) => void) | undefined;
  /** Bytes of the line in progress (no newline yet). */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Inside an over-long line: drop bytes up to the next newline. */
  private skipping = false;
  private nextLine = 1;
  private bytesSeen = 0;
  private atStart = true;

  constructor(
    private readonly file: string,
    private readonly validator: Validator<T>,
    opts: JsonlStreamOptions<T> = {},
  ) {
    const issues = opts.issues ?? new IssueList(opts.maxIssues ?? 200);
    this.result = { rows: [], lines: [], issues, totalLines: 0 };
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.onRow = opts.onRow;
  }

  push(chunk: Uint8Array): void {
    let data = chunk;
    if (this.atStart) {
      if (this.pendingBytes + data.length < 3 && !data.includes(NEWLINE)) {
        this.hold(data);
        return;
      }
      data = this.takePending(data);
      this.atStart = false;
      if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) {
        data = data.subarray(3);
        this.bytesSeen += 3;
      }
    }
    const last = data.lastIndexOf(NEWLINE);
    if (last === -1) {
      this.hold(data);
      return;
    }
    if (this.skipping) {
      const first = data.indexOf(NEWLINE);
      this.bytesSeen += first + 1;
      this.nextLine++;
      this.skipping = false;
      data = data.subarray(first + 1);
      if (first === last) {
        this.hold(data);
        return;
      }
      this.parseBlock(data.subarray(0, last - first));
      this.hold(data.subarray(last - first));
      return;
    }
    const block = this.takePending(data.subarray(0, last + 1));
    this.parseBlock(block);
    this.hold(data.subarray(last + 1));
  }

  /** Parses what is left (a last line without newline) and returns the result. */
  finish(): JsonlResult<T> {
    if (!this.skipping && this.pendingBytes > 0) this.parseBlock(this.takePending(new Uint8Array()));
    this.pending = [];
    this.pendingBytes = 0;
    return this.result;
  }

  private hold(data: Uint8Array): void {
    if (data.length === 0 || this.skipping) {
      this.bytesSeen += this.skipping ? data.length : 0;
      return;
    }
    // Copied: the caller may reuse its buffer.
    this.pending.push(data.slice());
    this.pendingBytes += data.length;
    if (this.pendingBytes > this.maxLineBytes) {
      const issue = makeIssue(
        this.file,
        this.nextLine,
        undefined,
        `a line of at most ${this.maxLineBytes} bytes`,
        `more than ${this.pendingBytes} bytes`,
      );
      issue.message = `${this.file} line ${this.nextLine}: line longer than ${this.maxLineBytes} bytes; skipped`;
      this.result.issues.add(issue);
      this.bytesSeen += this.pendingBytes;
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
    }
  }

  /** The pending bytes followed by data, as one array. */
  private takePending(data: Uint8Array): Uint8Array {
    if (this.pendingBytes === 0) return data;
    const out = new Uint8Array(this.pendingBytes + data.length);
    let at = 0;
    for (const part of this.pending) {
      out.set(part, at);
      at += part.length;
    }
    out.set(data, at);
    this.pending = [];
    this.pendingBytes = 0;
    return out;
  }

  private parseBlock(block: Uint8Array): void {
    const { text, invalid } = decodeUtf8Lines(block, this.file, this.nextLine, this.bytesSeen);
    this.nextLine += parseLines(text, this.file, this.validator, this.result, this.nextLine, this.onRow, invalid);
    this.bytesSeen += block.length;
  }
}

/** Reads a whole stream (fetch body, file stream) through JsonlStreamParser. */
export async function parseJsonlStream<T>(
  chunks: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
  file: string,
  validator: Validator<T>,
  opts: JsonlStreamOptions<T> = {},
): Promise<JsonlResult<T>> {
  const parser = new JsonlStreamParser(file, validator, opts);
  if (isReadableStream(chunks)) {
    const reader = chunks.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
  } else {
    for await (const chunk of chunks) parser.push(chunk);
  }
  return parser.finish();
}

function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof (value as { getReader?: unknown }).getReader === 'function';
}
