import { errorMessage } from '../error-message.ts';
import { FetchTimedOut, LoadCancelled } from '../net/guarded-fetch.ts';
import { openRangeFile, type RangeFile } from '../net/range-file.ts';
import { bodyBytes } from '../net/body-bytes.ts';
import type { AsyncBuffer } from 'hyparquet';
import type { LayoutName } from './layout.ts';

/**
 * Where a release's files come from: a folder of the site or any base URL, files the user
 * picked or dropped, or (in the CLI) a folder on disk. Paths are relative to the release root
 * and use '/'.
 */
export interface ReleaseSource {
  /** Human label, e.g. the URL or the picked folder's name. */
  readonly label: string;
  /** The layout, when the source knows it (a URL cannot be listed; this saves probing requests). */
  readonly layoutHint?: LayoutName;
  /** Every file the source holds, when it can be listed (URLs cannot). */
  list(): readonly string[] | undefined;
  /** The whole file, or undefined when it does not exist. */
  read(path: string): Promise<Uint8Array | undefined>;
  /** Random access for parquet range reads, or undefined when the file does not exist. */
  open(path: string): Promise<RangeFile | undefined>;
}

/** Bytes held in memory (tests, the CLI, small uploads). */
export class MemorySource implements ReleaseSource {
  constructor(
    readonly label: string,
    private readonly files: ReadonlyMap<string, Uint8Array>,
  ) {}
  list(): readonly string[] {
    return [...this.files.keys()];
  }
  async read(path: string): Promise<Uint8Array | undefined> {
    return this.files.get(path);
  }
  async open(path: string): Promise<AsyncBuffer | undefined> {
    const bytes = this.files.get(path);
    return bytes ? bufferOf(bytes) : undefined;
  }
}

function bufferOf(bytes: Uint8Array): AsyncBuffer {
  return {
    byteLength: bytes.byteLength,
    slice: (start, end) => bytes.slice(start, end).buffer,
  };
}

/**
 * Files picked or dropped in the page. A picked folder gives paths like "v1.0/dev/x.jsonl":
 * the common first segment is stripped so that paths are relative to the release root.
 */
export class FileListSource implements ReleaseSource {
  private readonly files: Map<string, Blob>;
  constructor(
    readonly label: string,
    entries: ReadonlyArray<{ path: string; blob: Blob }>,
  ) {
    this.files = new Map(stripCommonRoot(entries.map((e) => e.path)).map((p, i) => [p, entries[i]!.blob]));
  }
  list(): readonly string[] {
    return [...this.files.keys()];
  }
  async read(path: string): Promise<Uint8Array | undefined> {
    const blob = this.files.get(path);
    return blob ? new Uint8Array(await blob.arrayBuffer()) : undefined;
  }
  async open(path: string): Promise<AsyncBuffer | undefined> {
    const blob = this.files.get(path);
    if (!blob) return undefined;
    return {
      byteLength: blob.size,
      slice: (start, end) => blob.slice(start, end).arrayBuffer(),
    };
  }
}

/** Drops the first path segment when every path shares it (a picked folder's own name). */
export function stripCommonRoot(paths: readonly string[]): string[] {
  const clean = paths.map((p) => p.replace(/\\/g, '/').replace(/^\.?\//, ''));
  const first = clean[0]?.split('/')[0];
  if (first === undefined || !clean.every((p) => p.startsWith(`${first}/`))) return clean;
  const stripped = clean.map((p) => p.slice(first.length + 1));
  // A release nested one more level (e.g. dataset/v1.0/...) is found by the layout detector.
  return stripped;
}

/** A release served over HTTP(S): the site's own static-data folder or a user-chosen URL. */
export class UrlSource implements ReleaseSource {
  readonly base: string;
  constructor(
    base: string,
    private readonly fetchFn: typeof fetch = (...args) => fetch(...args),
    readonly layoutHint?: LayoutName,
  ) {
    // Normalised as URL does, so that url() can tell a file of the release by its prefix.
    this.base = new URL(base.endsWith('/') ? base : `${base}/`).href;
  }
  get label(): string {
    return this.base;
  }
  list(): undefined {
    return undefined;
  }
  /** The URL of a file of the release; refuses a path that resolves outside the release's base. */
  url(path: string): string {
    const href = new URL(path, this.base).href;
    if (!href.startsWith(this.base))
      throw new Error(`${path}: resolves to ${href}, outside the release at ${this.base}`);
    return href;
  }
  async read(path: string): Promise<Uint8Array | undefined> {
    const response = await this.get(this.url(path));
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`${this.url(path)}: HTTP ${response.status} ${response.statusText}`);
    return bodyBytes(response, { what: this.url(path) });
  }
  /** Range reads on any static host, also one that ignores ranges or HEAD (net/range-file.ts). */
  open(path: string): Promise<RangeFile | undefined> {
    return openRangeFile(this.url(path), (url, init) => this.get(url, init));
  }

  /** A failed fetch says only "Failed to fetch": name the URL and the likely causes. */
  private async get(url: string, init?: RequestInit): Promise<Response> {
    try {
      return await this.fetchFn(url, init);
    } catch (error) {
      // A timeout names the URL itself, and a cancelled load is not an error.
      if (error instanceof FetchTimedOut || error instanceof LoadCancelled) throw error;
      throw new Error(
        `${url}: could not be read (${errorMessage(error)}). The network may be off, or the server does not allow cross-origin reads (CORS).`,
        { cause: error },
      );
    }
  }
}
