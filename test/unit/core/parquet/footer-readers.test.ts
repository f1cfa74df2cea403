/**
 * Issue 25.21: every reader of a release's parquet footers goes through the structural check
 * (checked-metadata.ts), so the attack footer (just under 16 MB of empty schema elements) is
 * refused by the check, naming the file, before hyparquet decodes it into millions of objects.
 * The message "not valid thrift metadata" is the check's: hyparquet's own decoding never says it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AsyncBuffer } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { readChunkRows } from '../../../../src/cli/model/read-chunks.ts';
import { parquetDocsProvider } from '../../../../src/core/audit/doc-text.ts';
import { ParquetDocs } from '../../../../src/core/explorer/docs-index.ts';
import { createExplorerData } from '../../../../src/core/explorer/service.ts';
import { ChunkTexts } from '../../../../src/core/search/chunk-texts.ts';
import { sampleFiles } from '../scoring/sample-files.ts';
import { junkParquetFile } from './junk-footer.ts';

const junk = junkParquetFile();
const junkBuffer: AsyncBuffer = { byteLength: junk.byteLength, slice: (s, e) => junk.slice(s, e).buffer };
const refusedBy = (file: string) =>
  new RegExp(`${file.replace('.', '\\.')}: not a readable parquet file \\(parquet footer is not valid thrift metadata`);

/** Runs a read, printing how long the refusal took (the attack took 17-21 s and 1.2 GB before). */
async function refusal(what: string, read: () => Promise<unknown>): Promise<unknown> {
  const started = performance.now();
  const error = await read().then(
    () => undefined,
    (e: unknown) => e,
  );
  console.info(`${what}: refused in ${Math.round(performance.now() - started)} ms`);
  return error;
}

const tmp = mkdtempSync(path.join(tmpdir(), 'ebx-footer-readers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('every footer reader refuses the junk footer through the structural check', () => {
  it("the explorer's docs index (docs.parquet by ranges)", async () => {
    const error = await refusal('docs index', () => ParquetDocs.open(junkBuffer, 'docs.parquet'));
    expect(String(error)).toMatch(refusedBy('docs.parquet'));
  });

  it("the search results' chunk texts (chunks.parquet)", async () => {
    const error = await refusal('chunk texts', () => new ChunkTexts(junkBuffer).texts([{ row: 0, chunkId: 'c0' }]));
    expect(String(error)).toMatch(refusedBy('chunks.parquet'));
  });

  it("the audit's document texts (docs.parquet left on its source)", async () => {
    const error = await refusal('audit doc text', () => parquetDocsProvider('docs.parquet', junkBuffer).read(['x']));
    expect(String(error)).toMatch(refusedBy('docs.parquet'));
  });

  it("a loaded release's chunks of a document (chunks.parquet, read when a document page asks)", async () => {
    const files = sampleFiles().map(({ path: at, file }) =>
      at === 'sample/chunks.parquet'
        ? { path: at, file: new Blob([junk as Uint8Array<ArrayBuffer>]) }
        : { path: at, file },
    );
    const descriptorAt = files.findIndex((f) => f.path === 'sample/release.json');
    const descriptor = JSON.parse(await files[descriptorAt]!.file.text()) as {
      sha256: Record<string, string>;
      blocks?: Record<string, unknown>;
    };
    // without its pins, so that the footer is what refuses it
    delete descriptor.sha256['chunks.parquet'];
    delete descriptor.blocks?.['chunks.parquet'];
    files[descriptorAt] = { path: 'sample/release.json', file: new Blob([JSON.stringify(descriptor)]) };
    const explorer = createExplorerData(() => Promise.reject(new Error('DuckDB is not needed here')), 'http://x/');
    const outcome = await explorer.load({ kind: 'files', label: 'sample', files }, {}, { first: 'other' });
    expect(outcome.ok).toBe(true);
    const error = await refusal('release chunks', () => explorer.chunks('SMPL00041989'));
    expect(String(error)).toMatch(refusedBy('chunks.parquet'));
  });

  it("the CLI's chunk rows (build-index, the model commands)", async () => {
    const file = path.join(tmp, 'chunks.parquet');
    writeFileSync(file, junk);
    const error = await refusal('CLI chunk rows', () => readChunkRows(file));
    expect(String(error)).toMatch(refusedBy('chunks.parquet'));
  });
});
