/**
 * Issue 25.21: a junk parquet footer just under the 16 MB limit cost 17-21 s and 1.2 GB before it
 * was refused. The structural check refuses it before hyparquet decodes it, and passes every real
 * footer we have (the sample's files, the mock Hub's shards) with hyparquet's own metadata.
 */
import { readFileSync, writeFileSync, mkdtempSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { checkedParquetMetadata } from '../../../../src/core/parquet/checked-metadata.ts';
import {
  checkFooterStructure,
  MAX_FOOTER_VALUES,
  ParquetFooterError,
} from '../../../../src/core/parquet/footer-structure.ts';
import { SourceError } from '../../../../src/core/source-docs/http.ts';
import { parseFooter } from '../../../../src/core/source-docs/shard-parquet.ts';
import { cli } from '../../../support/cli.ts';
import { projectRoot } from '../../../support/shared.ts';
import { makeSourceShards, readSampleDocs } from '../../../support/source-shards.ts';
import { footer, FOOTER_LIMIT, junkParquetFile, junkSchemaFooter, varint } from './junk-footer.ts';

const sampleFile = (name: string) => new Uint8Array(readFileSync(path.join(projectRoot, 'static-data/sample', name)));
const tmp = mkdtempSync(path.join(tmpdir(), 'ebx-footer-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the structural check passes real footers', () => {
  it("passes the sample's parquet files, with hyparquet's own metadata", () => {
    for (const name of ['docs.parquet', 'chunks.parquet']) {
      const bytes = sampleFile(name);
      expect(() => checkFooterStructure(bytes)).not.toThrow();
      expect(checkedParquetMetadata(bytes)).toEqual(parquetMetadata(bytes.slice().buffer));
    }
  });

  it("passes the mock Hub's shards (sorted and shuffled row groups, media columns)", async () => {
    const shards = makeSourceShards(await readSampleDocs());
    expect(shards.files.size).toBeGreaterThan(0);
    for (const [name, bytes] of shards.files)
      if (name.endsWith('.parquet')) expect(() => checkFooterStructure(bytes), name).not.toThrow();
  });
});

describe('junk footers are refused before they are decoded', () => {
  it('refuses the attack: a footer just under 16 MB of empty schema elements', () => {
    const junk = junkSchemaFooter(Math.floor((FOOTER_LIMIT - 64) / 3));
    expect(junk.byteLength).toBeLessThan(FOOTER_LIMIT);
    expect(() => checkFooterStructure(junk)).toThrow(
      new RegExp(`more than ${MAX_FOOTER_VALUES.toLocaleString('en')} values`),
    );
    // the Hugging Face source reader (16 MB footer limit) says so as bad data, naming the shard
    let error: unknown;
    try {
      parseFooter(junk, 'data/train-00000-of-00001.parquet');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).message).toMatch(
      /^data\/train-00000-of-00001\.parquet: unreadable parquet footer \(parquet footer is not valid thrift metadata: more than/,
    );
  });

  it('refuses lists and binaries that claim more than the bytes left', () => {
    // schema: a list claiming 2^31 structs in a few bytes
    expect(() =>
      checkFooterStructure(footer(new Uint8Array([0x15, 0x02, 0x19, 0xfc, ...varint(2 ** 31), 0x00]))),
    ).toThrow(/a list of 2,147,483,648 elements cannot fit/);
    // created_by (field 6) claiming 1 GB
    expect(() => checkFooterStructure(footer(new Uint8Array([0x68, ...varint(2 ** 30), 0x00])))).toThrow(
      /a binary value of 1,073,741,824 bytes is longer than the footer/,
    );
  });

  it('refuses wrong types, missing fields, deep nesting, bytes after the end and random bytes', () => {
    // version as a binary
    expect(() => checkFooterStructure(footer(new Uint8Array([0x18, 0x00, 0x00])))).toThrow(
      /field 1 is binary where i32 belongs/,
    );
    // no schema, rows or row groups
    expect(() => checkFooterStructure(footer(new Uint8Array([0x15, 0x02, 0x00])))).toThrow(
      /required field 2 is missing/,
    );
    // an unknown field (id 20) nesting lists of lists 40 deep
    const deep = [0x09 | (0 << 4), ...varint(40), ...Array<number>(40).fill(0x19), 0x00];
    expect(() => checkFooterStructure(footer(new Uint8Array(deep)))).toThrow(/nested more than 32 levels/);
    // a valid footer with a byte left over
    const sample = sampleFile('docs.parquet');
    const length = new DataView(sample.buffer, sample.byteOffset).getUint32(sample.byteLength - 8, true);
    const metadata = sample.slice(sample.byteLength - 8 - length, sample.byteLength - 8);
    expect(() => checkFooterStructure(footer(new Uint8Array([...metadata, 0x00])))).toThrow(/1 bytes after/);
    // random bytes
    let seed = 7;
    const random = new Uint8Array(1 << 20).map(() => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24) & 0xff);
    expect(() => checkFooterStructure(footer(random))).toThrow(ParquetFooterError);
  });

  it('refuses a row group whose column chunks do not match the schema', () => {
    // version 1, schema [root, one leaf], 0 rows, one row group with no column chunks
    const bytes = [
      ...[0x15, 0x02],
      ...[0x19, 0x2c, 0x48, 0x01, 0x72, 0x15, 0x02, 0x00, 0x15, 0x02, 0x38, 0x01, 0x61, 0x00],
      ...[0x16, 0x00],
      ...[0x19, 0x1c, 0x19, 0x0c, 0x16, 0x00, 0x16, 0x00, 0x00],
      0x00,
    ];
    expect(() => checkFooterStructure(footer(new Uint8Array(bytes)))).toThrow(
      /a row group with 0 column chunks where the schema has 1 leaf columns/,
    );
  });

  it('release-check names a docs.parquet with the junk footer, refused by the check', async () => {
    const release = path.join(tmp, 'mini');
    cpSync(path.join(projectRoot, 'test/fixtures/mini-release'), release, { recursive: true });
    writeFileSync(path.join(release, 'docs.parquet'), junkParquetFile());
    // without its pin, so that the footer is what refuses it
    const descriptorFile = path.join(release, 'release.json');
    const descriptor = JSON.parse(readFileSync(descriptorFile, 'utf8')) as { sha256: Record<string, string> };
    delete descriptor.sha256['docs.parquet'];
    writeFileSync(descriptorFile, JSON.stringify(descriptor));
    const r = await cli(['release-check', release]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/docs\.parquet.*parquet footer is not valid thrift metadata: more than 2,000,000 values/);
  });
});
