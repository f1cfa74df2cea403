/**
 * The sample's docs.parquet and chunks.parquet rewritten by real writers (DuckDB's native package,
 * hyparquet-writer) in every codec and encoding: every reader of the explorer gets the same rows
 * from each variant, and a codec no reader decodes is named by file and column.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parquetMetadata, type AsyncBuffer } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { codecsOf, decompressorsFor, UnsupportedCodecError } from '../../../../src/core/parquet/codecs.ts';
import { columnChunkProblems, describeColumnProblem } from '../../../../src/core/parquet/column-check.ts';
import { readParquetRows } from '../../../../src/core/parquet/read-rows.ts';
import { ParquetDocs } from '../../../../src/core/explorer/docs-index.ts';
import { ChunkTexts } from '../../../../src/core/search/chunk-texts.ts';
import { lzoParquet, rewriteParquet, WRITER_VARIANTS } from '../../../support/real-writers.ts';
import { projectRoot } from '../../../support/shared.ts';

const sample = (file: string) => new Uint8Array(readFileSync(path.join(projectRoot, 'static-data/sample', file)));
const buffer = (bytes: Uint8Array): AsyncBuffer => ({
  byteLength: bytes.byteLength,
  slice: (s, e) => bytes.slice(s, e).buffer,
});
const allRows = (bytes: Uint8Array) =>
  readParquetRows({ file: buffer(bytes), metadata: parquetMetadata(bytes.slice().buffer) }, 'test.parquet');

const original = { docs: sample('docs.parquet'), chunks: sample('chunks.parquet') };
let expected: { docs: Array<Record<string, unknown>>; chunks: Array<Record<string, unknown>> };
// Documents spread over the file (first, middle, last rows), so that later row groups are read too.
let probe: string[];

beforeAll(async () => {
  expected = { docs: await allRows(original.docs), chunks: await allRows(original.chunks) };
  const ids = expected.docs.map((r) => String(r.doc_id));
  probe = [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids[ids.length - 1]!];
});

describe.each(WRITER_VARIANTS)('$name', (variant) => {
  let docs: Uint8Array;
  let chunks: Uint8Array;
  beforeAll(async () => {
    docs = await rewriteParquet(original.docs, variant);
    chunks = await rewriteParquet(original.chunks, variant);
  });

  it('is compressed with the codec asked for, in every column', () => {
    for (const bytes of [docs, chunks])
      expect([...codecsOf(parquetMetadata(bytes.slice().buffer)).keys()]).toEqual([variant.codec]);
  });

  it('gives the same rows, every column, in order', async () => {
    expect(await allRows(docs)).toEqual(expected.docs);
    expect(await allRows(chunks)).toEqual(expected.chunks);
  });

  it('decodes the first page of every column chunk (release-check)', async () => {
    for (const bytes of [docs, chunks])
      expect(await columnChunkProblems(buffer(bytes), parquetMetadata(bytes.slice().buffer), 'x.parquet')).toEqual([]);
  });

  it('the explorer finds a document, its row and its text by id, by ranges', async () => {
    const index = await ParquetDocs.open(buffer(docs));
    const reference = await ParquetDocs.open(buffer(original.docs));
    expect(await index.rows(probe)).toEqual(await reference.rows(probe));
    for (const id of probe) expect(await index.text(id)).toEqual(await reference.text(id));
  });

  it("the map's documents layer reads the first rows' text openings in one read of the text column", async () => {
    const openings = await (await ParquetDocs.open(buffer(docs))).openings(5, 120);
    expect(openings).toEqual(
      expected.docs.slice(0, 5).map((r) => ({
        doc_id: r.doc_id,
        quality: r.quality,
        file_name: r.file_name,
        text: String(r.text).slice(0, 120),
      })),
    );
    // Some of those texts are longer than the opening: the cut is tested.
    expect(expected.docs.slice(0, 5).some((r) => String(r.text).length > 120)).toBe(true);
  });

  it('retrieval reads chunk texts by row', async () => {
    const last = expected.chunks.length - 1;
    const wanted = [0, Math.floor(last / 2), last].map((row) => ({
      row,
      chunkId: String(expected.chunks[row]!.chunk_id),
    }));
    expect(await new ChunkTexts(buffer(chunks)).texts(wanted)).toEqual(wanted.map((w) => expected.chunks[w.row]!.text));
  });
});

describe('a codec no reader decodes', () => {
  let lzo: Uint8Array;
  beforeAll(async () => {
    lzo = await lzoParquet(original.docs);
  });

  it('is refused before any page is read, naming the file and the column', async () => {
    const metadata = parquetMetadata(lzo.slice().buffer);
    const refusal = decompressorsFor(metadata, 'docs.parquet', ['text']);
    await expect(refusal).rejects.toBeInstanceOf(UnsupportedCodecError);
    await expect(refusal).rejects.toThrow(
      'docs.parquet: column text is compressed with LZO, which this reader cannot decode (it reads UNCOMPRESSED, SNAPPY, GZIP, BROTLI, LZ4, ZSTD, LZ4_RAW)',
    );
  });

  it('is reported for every column by the release check', async () => {
    const problems = await columnChunkProblems(buffer(lzo), parquetMetadata(lzo.slice().buffer), 'docs.parquet');
    expect(problems.map((p) => p.column)).toEqual(Object.keys(expected.docs[0]!));
    expect(describeColumnProblem('docs.parquet', problems[0]!)).toBe(
      'docs.parquet: column doc_id (row group 0) cannot be decoded: column doc_id is compressed with LZO, which this reader cannot decode (it reads UNCOMPRESSED, SNAPPY, GZIP, BROTLI, LZ4, ZSTD, LZ4_RAW)',
    );
  });

  it('loads no decompressor for files that name only the built-in codecs', async () => {
    expect(await decompressorsFor(parquetMetadata(original.docs.slice().buffer), 'docs.parquet')).toBeUndefined();
  });
});
