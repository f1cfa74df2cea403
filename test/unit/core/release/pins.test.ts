/**
 * Every pin is checked (audit finding 4.2): the manifest's questions_sha256 in our layout too, and
 * docs/chunks parquet files read by range, which are hashed before any of their bytes is used.
 */
import { describe, expect, it } from 'vitest';
import { loadRelease, ReleaseRefused } from '../../../../src/core/release/load.ts';
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
