/**
 * release-check on the sample release re-exported by real writers: every codec passes, and a
 * file naming a codec no reader decodes fails by file and column.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256HexSync } from '../../../src/adapters/node/sha256.ts';
import { blockPinsOf } from '../../../src/core/release/block-pins.ts';
import { cli } from '../../support/cli.ts';
import { lzoParquet, sampleReleaseWrittenBy, WRITER_VARIANTS } from '../../support/real-writers.ts';

const parent = mkdtempSync(path.join(tmpdir(), 'release-check-codecs-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('release-check', () => {
  it.each(WRITER_VARIANTS)('passes the sample re-exported by $name', async (variant) => {
    const dir = await sampleReleaseWrittenBy(variant, parent);
    const run = await cli(['release-check', dir]);
    expect(run.stdout).toContain('release-check: ok');
    expect(run.stdout).toMatch(/loaded +docs\.parquet {2}3073 rows {2}sha256 ok/);
    expect(run.stdout).toMatch(/loaded +chunks\.parquet {2}3911 rows {2}sha256 ok/);
    expect(run.stdout).toMatch(/pinned +docs\.parquet {2}\d+ block pins ok/);
    expect(run.code).toBe(0);
  });

  it('fails a docs.parquet compressed with LZO, naming the file and its columns', async () => {
    const dir = await sampleReleaseWrittenBy(WRITER_VARIANTS[0]!, path.join(parent, 'lzo'));
    const file = path.join(dir, 'docs.parquet');
    const bytes = await lzoParquet(new Uint8Array(readFileSync(file)));
    writeFileSync(file, bytes);
    const descriptor = JSON.parse(readFileSync(path.join(dir, 'release.json'), 'utf8')) as {
      sha256: Record<string, string>;
      blocks: Record<string, unknown>;
    };
    descriptor.sha256['docs.parquet'] = sha256HexSync(bytes);
    descriptor.blocks['docs.parquet'] = await blockPinsOf(bytes);
    writeFileSync(path.join(dir, 'release.json'), JSON.stringify(descriptor));
    const run = await cli(['release-check', dir]);
    expect(run.stdout).toContain(
      'INVALID docs.parquet: column doc_id (row group 0) cannot be decoded: column doc_id is compressed with LZO',
    );
    expect(run.stdout).toContain('INVALID docs.parquet: column text (row group 0) cannot be decoded');
    expect(run.stdout).toContain('release-check: FAILED');
    expect(run.code).toBe(1);
  });
});
