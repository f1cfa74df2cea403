/**
 * Parquet shards in the schema of the Hugging Face source (doc_id, file_name, file_type,
 * online_url, text_content, plus binary media columns), made at test time from the sample
 * release's fictional documents. Half the shards are sorted by doc_id, half are not; media
 * blobs of 1-5 MB sit in some rows, among them the row groups of the documents a test reads,
 * so that a read that strays into a media column shows in the byte counts.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { chunkRange } from '../../src/core/source-docs/shard-parquet.ts';

export const projectRoot = path.resolve(import.meta.dirname, '../..');
export const MEDIA_COLUMNS = ['image', 'audio', 'video'] as const;

export interface SampleDoc {
  doc_id: string;
  text: string;
  file_name: string;
  file_type: string;
  online_url: string;
}

/** The sample release's documents (fictional), in doc_id order. */
export async function readSampleDocs(): Promise<SampleDoc[]> {
  const bytes = readFileSync(path.join(projectRoot, 'static-data/sample/docs.parquet'));
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const rows = (await parquetReadObjects({
    file,
    columns: ['doc_id', 'text', 'file_name', 'file_type', 'online_url'],
  })) as unknown as SampleDoc[];
  return rows.sort((a, b) => (a.doc_id < b.doc_id ? -1 : 1));
}

export interface SourceShards {
  /** Repository path -> parquet bytes. */
  files: Map<string, Uint8Array>;
  /** Byte ranges of media column chunks, per shard path. */
  mediaRanges: Map<string, Array<{ start: number; end: number }>>;
  /** Which shard holds each document, and whether that shard is sorted. */
  shardOf: Map<string, { path: string; sorted: boolean }>;
  /** Where each shard's footer starts (reads from there on are footer reads). */
  footerStart: Map<string, number>;
  /** Bytes of media values written. */
  mediaBytes: number;
}

export interface ShardOptions {
  shards?: number;
  rowGroupSize?: number;
  /** Documents whose row groups get a 1-5 MB media row. */
  mediaNear?: readonly string[];
  /** Bytes of each media-only row's blob (default 1-5 MB at random): small when many writers rewrite the shards. */
  mediaRowBytes?: number;
  /** text_content of media-only rows: '' (default) or null, as some exports leave it. */
  mediaText?: '' | null;
}

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

function blob(bytes: number, rand: () => number): Uint8Array {
  const out = new Uint8Array(bytes);
  const words = new Uint32Array(out.buffer, 0, Math.floor(bytes / 4));
  for (let i = 0; i < words.length; i++) words[i] = Math.floor(rand() * 2 ** 32);
  return out;
}

interface Row {
  doc_id: string;
  file_name: string | null;
  file_type: string | null;
  online_url: string | null;
  image: Uint8Array | null;
  text_content: string | null;
}

/**
 * Contiguous blocks of the sorted ids, one per shard; shards with an even index keep their rows
 * sorted, odd ones are shuffled (row groups of a shuffled shard all span its whole block).
 */
export function makeSourceShards(docs: readonly SampleDoc[], options: ShardOptions = {}): SourceShards {
  const n = options.shards ?? 6;
  const rowGroupSize = options.rowGroupSize ?? 64;
  const rand = prng(20260705);
  const near = new Set(options.mediaNear ?? []);
  const files = new Map<string, Uint8Array>();
  const mediaRanges = new Map<string, Array<{ start: number; end: number }>>();
  const shardOf = new Map<string, { path: string; sorted: boolean }>();
  const footerStart = new Map<string, number>();
  let mediaBytes = 0;
  const per = Math.ceil(docs.length / n);
  for (let s = 0; s < n; s++) {
    const block = docs.slice(s * per, (s + 1) * per);
    const sorted = s % 2 === 0;
    const shardPath = `data/train-${String(s).padStart(5, '0')}-of-${String(n).padStart(5, '0')}.parquet`;
    const rows: Row[] = block.map((d) => ({
      doc_id: d.doc_id,
      file_name: d.file_name,
      file_type: d.file_type,
      online_url: d.online_url,
      image: null,
      text_content: d.text,
    }));
    // Media-only rows (scans, photos) as the real dataset has: an id, a file, no text.
    for (let m = 0; m < 2 && block.length > 0; m++) {
      const neighbour = block[Math.floor(rand() * block.length)]!;
      rows.push({
        doc_id: `${neighbour.doc_id}-img${m}`,
        file_name: `${neighbour.file_name}.jpg`,
        file_type: 'jpg',
        online_url: null,
        image: blob(options.mediaRowBytes ?? 1_000_000 + Math.floor(rand() * 4_000_000), rand),
        text_content: options.mediaText === undefined ? '' : options.mediaText,
      });
    }
    rows.sort((a, b) => (a.doc_id < b.doc_id ? -1 : 1));
    if (!sorted) {
      for (let i = rows.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [rows[i], rows[j]] = [rows[j]!, rows[i]!];
      }
    }
    // A 1-5 MB image in the row group of each document a test reads.
    for (let i = 0; i < rows.length; i++) {
      if (!near.has(rows[i]!.doc_id)) continue;
      const group = Math.floor(i / rowGroupSize) * rowGroupSize;
      const host = rows.slice(group, group + rowGroupSize).find((r) => r.image === null && r !== rows[i]);
      if (host) host.image = blob(1_000_000 + Math.floor(rand() * 4_000_000), rand);
    }
    for (const r of rows) mediaBytes += r.image?.byteLength ?? 0;
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        rowGroupSize,
        columnData: [
          { name: 'doc_id', data: rows.map((r) => r.doc_id), type: 'STRING', nullable: false },
          { name: 'file_name', data: rows.map((r) => r.file_name), type: 'STRING' },
          { name: 'file_type', data: rows.map((r) => r.file_type), type: 'STRING' },
          { name: 'online_url', data: rows.map((r) => r.online_url), type: 'STRING' },
          // Between the text columns on purpose: reads must skip it, not coalesce over it.
          {
            name: 'image',
            data: rows.map((r) => r.image),
            type: 'BYTE_ARRAY',
            codec: 'UNCOMPRESSED',
            statistics: false,
          },
          { name: 'text_content', data: rows.map((r) => r.text_content), type: 'STRING', statistics: false },
          { name: 'audio', data: rows.map(() => null), type: 'BYTE_ARRAY', statistics: false },
          { name: 'video', data: rows.map(() => null), type: 'BYTE_ARRAY', statistics: false },
        ],
      }),
    );
    files.set(shardPath, bytes);
    const metadata = parquetMetadata(bytes);
    footerStart.set(shardPath, bytes.byteLength - metadata.metadata_length - 8);
    const ranges: Array<{ start: number; end: number }> = [];
    metadata.row_groups.forEach((_, rg) => {
      for (const c of MEDIA_COLUMNS) {
        const r = chunkRange(metadata, rg, c);
        if (r) ranges.push(r);
      }
    });
    mediaRanges.set(shardPath, ranges);
    for (const d of block) shardOf.set(d.doc_id, { path: shardPath, sorted });
  }
  return { files, mediaRanges, shardOf, footerStart, mediaBytes };
}

/** Bytes of [start, end) that fall inside media column chunks. */
export function mediaOverlap(
  ranges: ReadonlyArray<{ start: number; end: number }>,
  start: number,
  end: number,
): number {
  let n = 0;
  for (const r of ranges) n += Math.max(0, Math.min(end, r.end) - Math.max(start, r.start));
  return n;
}

/** The sample's questions and tasks in the benchmark's own layout: no corpus, no submissions. */
export function corpuslessSample(): string {
  const sampleDir = path.join(projectRoot, 'static-data/sample');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-audit-nocorpus-'));
  copyFileSync(path.join(sampleDir, 'manifest.json'), path.join(dir, 'manifest.json'));
  for (const split of ['full', 'dev']) {
    mkdirSync(path.join(dir, split));
    for (const f of ['questions.jsonl', 'tasks.jsonl'])
      copyFileSync(path.join(sampleDir, split, f), path.join(dir, split, f));
  }
  return dir;
}
