/**
 * Parquet files as real tools write them, made at test time: DuckDB's native Node package (every
 * codec, dictionary or plain strings, data page v1 or v2 with delta-encoded strings, any row-group
 * size) and hyparquet-writer (LZ4 in Hadoop's framing, forced dictionaries, DELTA_BYTE_ARRAY,
 * no statistics). Each variant rewrites the rows of a given file, unchanged and in order, so that
 * a test can ask every variant for the same rows.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parquetMetadata, parquetSchema, type CompressionCodec, type Encoding, type SchemaElement } from 'hyparquet';
import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer';
import { sha256HexSync } from '../../src/adapters/node/sha256.ts';
import { readParquetRows } from '../../src/core/parquet/read-rows.ts';
import { blockPinsOf, type BlockPins } from '../../src/core/release/block-pins.ts';
import { projectRoot } from './shared.ts';

/** Bump when a variant or a writer changes: files written before are then written again. */
const WRITERS_VERSION = 1;

export interface WriterVariant {
  /** Names the variant in test titles ("duckdb ZSTD v2"). */
  name: string;
  writer: 'duckdb' | 'hyparquet-writer';
  codec: CompressionCodec;
  /** DuckDB: PARQUET_VERSION v2 (data page v2, DELTA_LENGTH_BYTE_ARRAY strings). */
  pageV2?: boolean;
  /** 'plain': no dictionary for any column; 'dictionary': every string column dictionary-encoded; default: as the writer decides. */
  strings?: 'plain' | 'dictionary' | 'delta';
  rowGroupSize?: number;
  /** false: the writer keeps no min/max (some writers omit them). */
  statistics?: boolean;
}

/** Every codec parquet defines that a reader should meet, over both writers and their encodings. */
export const WRITER_VARIANTS: readonly WriterVariant[] = [
  { name: 'duckdb UNCOMPRESSED', writer: 'duckdb', codec: 'UNCOMPRESSED' },
  { name: 'duckdb SNAPPY', writer: 'duckdb', codec: 'SNAPPY' },
  { name: 'duckdb GZIP', writer: 'duckdb', codec: 'GZIP' },
  { name: 'duckdb BROTLI', writer: 'duckdb', codec: 'BROTLI' },
  { name: 'duckdb ZSTD', writer: 'duckdb', codec: 'ZSTD' },
  { name: 'duckdb LZ4_RAW', writer: 'duckdb', codec: 'LZ4_RAW' },
  { name: 'duckdb ZSTD page v2, delta strings', writer: 'duckdb', codec: 'ZSTD', pageV2: true },
  {
    name: 'duckdb GZIP plain strings, row groups of 500',
    writer: 'duckdb',
    codec: 'GZIP',
    strings: 'plain',
    rowGroupSize: 500,
  },
  { name: 'hyparquet-writer LZ4 (Hadoop framing)', writer: 'hyparquet-writer', codec: 'LZ4' },
  {
    name: 'hyparquet-writer GZIP dictionary strings',
    writer: 'hyparquet-writer',
    codec: 'GZIP',
    strings: 'dictionary',
  },
  {
    name: 'hyparquet-writer BROTLI delta strings, no statistics, row groups of 64',
    writer: 'hyparquet-writer',
    codec: 'BROTLI',
    strings: 'delta',
    statistics: false,
    rowGroupSize: 64,
  },
];

/** The variant of each codec a test names (`variantOf('ZSTD')`): the first in WRITER_VARIANTS. */
export function variantOf(codec: CompressionCodec): WriterVariant {
  const v = WRITER_VARIANTS.find((w) => w.codec === codec);
  if (!v) throw new Error(`no writer variant writes ${codec}`);
  return v;
}

/**
 * The same rows as `bytes`, written by the variant's writer. Kept in a folder of the machine's
 * temporary directory by input and variant, so that the test files and the e2e setup of one run
 * write each file once (DuckDB's Brotli takes seconds).
 */
export async function rewriteParquet(bytes: Uint8Array, variant: WriterVariant): Promise<Uint8Array> {
  const kept = path.join(CACHE, `${sha256HexSync(bytes).slice(0, 16)}-${slug(variant.name)}.parquet`);
  if (existsSync(kept)) return new Uint8Array(readFileSync(kept));
  const written =
    variant.writer === 'duckdb' ? await duckdbRewrite(bytes, variant) : await hyparquetRewrite(bytes, variant);
  mkdirSync(CACHE, { recursive: true });
  // Another process may write the same file at once: each writes its own, the rename is atomic.
  const partial = `${kept}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, written);
  renameSync(partial, kept);
  return written;
}

const CACHE = path.join(tmpdir(), `real-writers-${WRITERS_VERSION}`);

let duckdb: Promise<DuckDBConnection> | undefined;

function connection(): Promise<DuckDBConnection> {
  duckdb ??= DuckDBInstance.create(':memory:', { threads: '1' }).then((db) => db.connect());
  return duckdb;
}

async function duckdbRewrite(bytes: Uint8Array, v: WriterVariant): Promise<Uint8Array> {
  const dir = mkdtempSync(path.join(tmpdir(), 'duckdb-parquet-'));
  try {
    const input = path.join(dir, 'in.parquet');
    const output = path.join(dir, 'out.parquet');
    writeFileSync(input, bytes);
    const options = [
      'FORMAT parquet',
      `COMPRESSION ${v.codec.toLowerCase()}`,
      ...(v.pageV2 ? ['PARQUET_VERSION v2'] : []),
      ...(v.strings === 'plain' ? ['DICTIONARY_SIZE_LIMIT 1'] : []),
      ...(v.rowGroupSize ? [`ROW_GROUP_SIZE ${v.rowGroupSize}`] : []),
    ];
    const db = await connection();
    await db.run(`COPY (SELECT * FROM read_parquet('${input}')) TO '${output}' (${options.join(', ')})`);
    return new Uint8Array(readFileSync(output));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Codecs hyparquet-writer has no compressor for: Node's zlib, and LZ4 blocks of literals only (valid, uncompressed). */
const COMPRESSORS = {
  GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input)),
  BROTLI: (input: Uint8Array) =>
    new Uint8Array(brotliCompressSync(input, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })),
  LZ4: hadoopLz4,
  LZO: (input: Uint8Array) => input,
};

/** Hadoop's LZ4 framing: big-endian uncompressed and compressed lengths, then one LZ4 block. */
function hadoopLz4(input: Uint8Array): Uint8Array {
  const block = lz4LiteralBlock(input);
  const out = new Uint8Array(8 + block.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, input.byteLength);
  view.setUint32(4, block.byteLength);
  out.set(block, 8);
  return out;
}

function lz4LiteralBlock(input: Uint8Array): Uint8Array {
  const extra: number[] = [];
  if (input.byteLength >= 15) {
    let rest = input.byteLength - 15;
    while (rest >= 255) {
      extra.push(255);
      rest -= 255;
    }
    extra.push(rest);
  }
  const out = new Uint8Array(1 + extra.length + input.byteLength);
  out[0] = Math.min(15, input.byteLength) << 4;
  out.set(extra, 1);
  out.set(input, 1 + extra.length);
  return out;
}

async function hyparquetRewrite(bytes: Uint8Array, v: WriterVariant): Promise<Uint8Array> {
  const metadata = parquetMetadata(bytes.slice().buffer);
  const file = bytes.slice().buffer;
  const rows = await readParquetRows({ file, metadata }, 'input.parquet');
  const leaves = parquetSchema(metadata).children.map((c) => c.element);
  const encoding: Encoding | undefined =
    v.strings === 'dictionary' ? 'RLE_DICTIONARY' : v.strings === 'delta' ? 'DELTA_BYTE_ARRAY' : undefined;
  const columnData = leaves.map((element): ColumnSource => {
    const type = basicType(element);
    return {
      name: element.name,
      data: rows.map((r) => r[element.name] ?? null) as ColumnSource['data'],
      type,
      nullable: element.repetition_type !== 'REQUIRED',
      ...(encoding && type === 'STRING' ? { encoding } : {}),
    };
  });
  const compressor = v.codec in COMPRESSORS ? COMPRESSORS[v.codec as keyof typeof COMPRESSORS] : undefined;
  return new Uint8Array(
    parquetWriteBuffer({
      columnData,
      codec: v.codec,
      ...(compressor ? { compressors: { [v.codec]: compressor } } : {}),
      statistics: v.statistics ?? true,
      ...(v.rowGroupSize ? { rowGroupSize: v.rowGroupSize } : {}),
      createdBy: `hyparquet-writer (${v.name})`,
    }),
  );
}

function basicType(element: SchemaElement): ColumnSource['type'] {
  if (element.type === 'BYTE_ARRAY')
    return element.converted_type === 'UTF8' || element.logical_type?.type === 'STRING' ? 'STRING' : 'BYTE_ARRAY';
  if (element.type === 'INT32' || element.type === 'INT64' || element.type === 'DOUBLE' || element.type === 'FLOAT')
    return element.type;
  if (element.type === 'BOOLEAN') return 'BOOLEAN';
  throw new Error(`real-writers: column ${element.name} has type ${element.type}, not one the fixtures rewrite`);
}

/** The same file without one column, written by DuckDB (Snappy): a source whose schema lacks what the product reads. */
export async function withoutColumn(bytes: Uint8Array, column: string): Promise<Uint8Array> {
  const dir = mkdtempSync(path.join(tmpdir(), 'duckdb-parquet-'));
  try {
    const input = path.join(dir, 'in.parquet');
    const output = path.join(dir, 'out.parquet');
    writeFileSync(input, bytes);
    const db = await connection();
    await db.run(
      `COPY (SELECT * EXCLUDE (${JSON.stringify(column)}) FROM read_parquet('${input}')) TO '${output}' (FORMAT parquet)`,
    );
    return new Uint8Array(readFileSync(output));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A file that names LZO, which no reader here decodes (its pages are stored as they are: only the codec is named). */
export function lzoParquet(bytes: Uint8Array): Promise<Uint8Array> {
  return hyparquetRewrite(bytes, { name: 'hyparquet-writer LZO', writer: 'hyparquet-writer', codec: 'LZO' });
}

/**
 * A copy of the sample release whose docs.parquet and chunks.parquet the variant's writer
 * rewrote, release.json's sha256 and block pins updated (as a maintainer who re-exports them
 * would): the folder's path.
 */
export async function sampleReleaseWrittenBy(variant: WriterVariant, parent?: string): Promise<string> {
  const dir = path.join(parent ?? mkdtempSync(path.join(tmpdir(), 'real-writer-release-')), slug(variant.name));
  cpSync(path.join(projectRoot, 'static-data/sample'), dir, { recursive: true });
  const descriptorPath = path.join(dir, 'release.json');
  const descriptor = JSON.parse(readFileSync(descriptorPath, 'utf8')) as {
    sha256: Record<string, string>;
    blocks?: Record<string, BlockPins>;
  };
  for (const file of ['docs.parquet', 'chunks.parquet']) {
    const bytes = await rewriteParquet(new Uint8Array(readFileSync(path.join(dir, file))), variant);
    writeFileSync(path.join(dir, file), bytes);
    descriptor.sha256[file] = sha256HexSync(bytes);
    if (descriptor.blocks?.[file]) descriptor.blocks[file] = await blockPinsOf(bytes);
  }
  writeFileSync(descriptorPath, `${JSON.stringify(descriptor, null, 2)}\n`);
  return dir;
}

const slug = (name: string) => name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
