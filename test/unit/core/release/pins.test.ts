/**
 * Every pin is checked (audit finding 4.2): the manifest's questions_sha256 in our layout too, and
 * docs/chunks parquet files read by range, hashed before any of their bytes is used or (the
 * explorer's first view, embeds) after the first range reads, which the check then compares.
 */
import { createHash } from 'node:crypto';
import type { AsyncBuffer } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { loadRelease, ReleaseRefused } from '../../../../src/core/release/load.ts';
import { checkedParquet } from '../../../../src/core/release/parquet-pin.ts';
import { MemorySource } from '../../../../src/core/release/source.ts';
import { bytesOf, miniDir, readFolder, replacePinned, text } from './mini-files.ts';

describe('the manifest pin of a questions file, in our layout', () => {
  it('refuses questions whose release.json pin was updated but whose manifest questions_sha256 disagrees', async () => {
    const files = readFolder(miniDir);
    const changed = text(files.get('full/questions.jsonl')).replace('"question": "', '"question": "Altered: ');
    replacePinned(files, 'full/questions.jsonl', bytesOf(changed));
    const load = loadRelease(new MemorySource('mini', files));
    await expect(load).rejects.toBeInstanceOf(ReleaseRefused);
    await expect(load).rejects.toThrow(
      /full\/questions\.jsonl: sha256 is [0-9a-f]{64} but the pin is d83e1e79.*manifest\.json splits\.full\.questions_sha256/,
    );
  });

  it('accepts the fixture as it is, with the questions pin ok', async () => {
    const release = await loadRelease(new MemorySource('mini', readFolder(miniDir)));
    expect(release.files.find((f) => f.path === 'full/questions.jsonl')?.pin).toBe('ok');
  });
});

describe('a parquet file read by range (the browser)', () => {
  it('is hashed before use: a changed byte refuses the release and every read of the file', async () => {
    const files = readFolder(miniDir);
    const parquet = files.get('docs.parquet')!;
    parquet[200] = parquet[200]! ^ 0xff;
    const release = await loadRelease(new MemorySource('mini', files), { deferParquet: true });
    const docs = release.parquet.find((p) => p.kind === 'docs')!;
    await expect(docs.file.slice(0, 4)).rejects.toBeInstanceOf(ReleaseRefused);
    await expect(docs.checked).rejects.toThrow(
      /docs\.parquet: sha256 is [0-9a-f]{64} but the pin is 95659878.*release\.json sha256/,
    );
    expect(release.files.find((f) => f.path === 'docs.parquet')?.pin).toBe('pending');
  });

  it('serves reads from the verified bytes once the pin holds', async () => {
    const files = readFolder(miniDir);
    const release = await loadRelease(new MemorySource('mini', files), { deferParquet: true });
    await Promise.all(release.parquet.map((p) => p.checked));
    expect(release.files.find((f) => f.path === 'docs.parquet')?.pin).toBe('ok');
    const docs = release.parquet.find((p) => p.kind === 'docs')!;
    expect(new Uint8Array(await docs.file.slice(0, 4))).toEqual(files.get('docs.parquet')!.slice(0, 4));
  });
});

/** A parquet file as a range source that notes every read and can serve other bytes to some. */
function rangeSource(bytes: Uint8Array, alter?: (start: number, end: number) => boolean) {
  const reads: Array<[number, number]> = [];
  const file: AsyncBuffer = {
    byteLength: bytes.byteLength,
    slice(start, end = bytes.byteLength) {
      reads.push([start, end]);
      const out = bytes.slice(start, end);
      if (alter?.(start, end)) out[0] = out[0]! ^ 0xff;
      return out.buffer;
    },
  };
  return { file, reads };
}

describe('a parquet file checked on demand (the first view, embeds)', () => {
  const bytes = readFolder(miniDir).get('docs.parquet')!;
  const pin = createHash('sha256').update(bytes).digest('hex');
  const what = { path: 'docs.parquet', kind: 'docs' as const, pin, pinSource: 'release.json sha256' };
  const whole = (r: [number, number]) => r[0] === 0 && r[1] === bytes.byteLength;

  it('reads ranges at once and never the whole file until check() is called', async () => {
    const { file, reads } = rangeSource(bytes);
    const parquet = checkedParquet(file, what, 'on-demand');
    expect(new Uint8Array(await parquet.file.slice(bytes.byteLength - 8))).toEqual(bytes.slice(-8));
    expect(reads.some(whole)).toBe(false);
    await parquet.check();
    expect(reads.filter(whole)).toHaveLength(1);
    // Later reads come from the verified bytes, not the source.
    const before = reads.length;
    expect(new Uint8Array(await parquet.file.slice(0, 4))).toEqual(bytes.slice(0, 4));
    expect(reads).toHaveLength(before);
  });

  it('refuses a changed file once checked, and every read after that', async () => {
    const changed = bytes.slice();
    changed[200] = changed[200]! ^ 0xff;
    const parquet = checkedParquet(rangeSource(changed).file, what, 'on-demand');
    await parquet.file.slice(0, 4);
    await expect(parquet.check()).rejects.toThrow(/docs\.parquet: sha256 is [0-9a-f]{64} but the pin is/);
    await expect(parquet.file.slice(0, 4)).rejects.toBeInstanceOf(ReleaseRefused);
  });

  it('refuses a source that served a range read other bytes than the ones hashed', async () => {
    const footer = bytes.byteLength - 64;
    const { file } = rangeSource(bytes, (start, end) => start === footer && end === bytes.byteLength);
    const parquet = checkedParquet(file, what, 'on-demand');
    await parquet.file.slice(footer);
    const check = parquet.check();
    await expect(check).rejects.toBeInstanceOf(ReleaseRefused);
    await expect(check).rejects.toThrow(
      new RegExp(
        `docs\\.parquet: bytes ${footer}–${bytes.byteLength} read before the check differ from the file that was hashed`,
      ),
    );
  });

  it('is started by loadRelease only when asked (parquetCheck on-demand)', async () => {
    const release = await loadRelease(new MemorySource('mini', readFolder(miniDir)), {
      deferParquet: true,
      parquetCheck: 'on-demand',
    });
    const docs = release.parquet.find((p) => p.kind === 'docs')!;
    expect(release.files.find((f) => f.path === 'docs.parquet')?.pin).toBe('pending');
    await docs.check!();
    expect(release.files.find((f) => f.path === 'docs.parquet')?.pin).toBe('ok');
  });
});
