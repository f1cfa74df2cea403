import { describe, expect, it } from 'vitest';
import { blockBytesFor, blockMismatch, blockPinsOf, MIN_BLOCK_BYTES } from '../../../../src/core/release/block-pins.ts';
import { ReleaseRefused } from '../../../../src/core/release/loaded.ts';
import { checkedParquet } from '../../../../src/core/release/parquet-pin.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../../support/shared.ts';

const docs = new Uint8Array(readFileSync(path.join(projectRoot, 'static-data/sample/docs.parquet')));

/** A source over `bytes` that notes every range asked for. */
function source(bytes: Uint8Array) {
  const asked: Array<[number, number]> = [];
  return {
    asked,
    file: {
      byteLength: bytes.byteLength,
      slice: async (start: number, end?: number) => {
        asked.push([start, end ?? bytes.byteLength]);
        return bytes.slice(start, end).buffer;
      },
    },
  };
}

describe('block pins', () => {
  it('size blocks so that a file has at most 1024 of them, and never below the minimum', () => {
    expect(blockBytesFor(1000)).toBe(MIN_BLOCK_BYTES);
    expect(blockBytesFor(2 ** 30)).toBe(2 ** 20);
  });

  it('match the file they were made from and name the first block that differs', async () => {
    const pins = await blockPinsOf(docs);
    expect(pins.sha256).toHaveLength(Math.ceil(docs.byteLength / pins.block_bytes));
    expect(await blockMismatch('docs.parquet', docs, pins)).toBeUndefined();
    const changed = docs.slice();
    changed[pins.block_bytes * 2 + 5]! ^= 1;
    expect(await blockMismatch('docs.parquet', changed, pins)).toMatch(
      /^docs\.parquet: block 3 of \d+ \(bytes 32768–49152\)/,
    );
    expect(await blockMismatch('docs.parquet', docs.subarray(0, 1000), pins)).toMatch(/make 1 blocks .* pins \d+/);
  });

  it("checked reads ('blocks') are whole blocks, return the asked bytes, and the check reads no more", async () => {
    const pins = await blockPinsOf(docs);
    const s = source(docs);
    const checked = checkedParquet(s.file, { path: 'docs.parquet', kind: 'docs', blocks: pins }, 'blocks');
    const got = new Uint8Array(await checked.file.slice(40_000, 70_000));
    expect([...got]).toEqual([...docs.subarray(40_000, 70_000)]);
    await checked.check();
    for (const [from, to] of s.asked) {
      expect(from % pins.block_bytes).toBe(0);
      expect(to % pins.block_bytes === 0 || to === docs.byteLength).toBe(true);
    }
    const read = s.asked.reduce((n, [a, b]) => n + b - a, 0);
    expect(read).toBeLessThan(docs.byteLength / 4);
  });

  it('a changed byte in a block that is read refuses the file for good', async () => {
    const pins = await blockPinsOf(docs);
    const changed = docs.slice();
    changed[50_000]! ^= 1;
    const checked = checkedParquet(
      source(changed).file,
      { path: 'docs.parquet', kind: 'docs', blocks: pins },
      'blocks',
    );
    await expect(checked.file.slice(49_990, 50_010)).rejects.toBeInstanceOf(ReleaseRefused);
    const block = Math.floor(50_000 / pins.block_bytes) + 1;
    await expect(checked.file.slice(0, 10)).rejects.toThrow(`docs.parquet: block ${block} of`);
    await expect(checked.check()).rejects.toThrow(`block ${block} of`);
  });

  it("without block pins, 'blocks' falls back to the whole-file check", async () => {
    const s = source(docs);
    const checked = checkedParquet(s.file, { path: 'docs.parquet', kind: 'docs', pin: '0'.repeat(64) }, 'blocks');
    await checked.file.slice(0, 4);
    await expect(checked.check()).rejects.toThrow(/docs\.parquet: sha256 is [0-9a-f]{64} but the pin is 0{64}/);
    expect(s.asked.some(([a, b]) => a === 0 && b === docs.byteLength)).toBe(true);
  });
});
