/**
 * Paths and parsing (audit finding 4.7): percent-encoded dot segments in release.json cannot
 * reach outside the release; a parquet file with the wrong columns is refused; an empty
 * questions file is refused with a clear message.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { loadRelease, ReleaseRefused } from '../../../../src/core/release/load.ts';
import { isSafeRelativePath } from '../../../../src/core/release/schemas/common.ts';
import { MemorySource, UrlSource } from '../../../../src/core/release/source.ts';
import { editDescriptor, miniDir, readFolder, replacePinned } from './mini-files.ts';

describe('release.json paths', () => {
  const unsafe = [
    '../secret.json',
    '%2e%2e/secret.json',
    '%2E%2e/secret.json',
    'a/%2e%2e/%2e%2e/secret.json',
    '.%2e/secret.json',
    '%252e%252e/secret.json',
    'a/%2F..%2Fb.json',
    './x.json',
    'a/%2e/b.json',
    '%zz.json',
    'x.json?y=../../z',
    'x.json#/../z',
    'a\\..\\b.json',
    'a/%5C..%5Cb.json',
  ];
  for (const path of unsafe) {
    it(`refuses ${JSON.stringify(path)}`, () => {
      expect(isSafeRelativePath(path)).toBe(false);
    });
  }
  it('accepts ordinary relative paths', () => {
    for (const path of ['leaderboard.json', 'build/pool.jsonl', 'index/bm25.bin', 'a..b/c.json', 'x%20y.json']) {
      expect(isSafeRelativePath(path)).toBe(true);
    }
  });

  it('a release.json naming %2e%2e/ is refused and nothing outside the release is fetched', async () => {
    const files = readFolder(miniDir);
    editDescriptor(files, (d) => {
      d.files.leaderboard = '%2e%2e/%2e%2e/private/leaderboard.json';
    });
    const fetched: string[] = [];
    const fetchFn = (async (input: RequestInfo | URL) => {
      const url = String(input);
      fetched.push(url);
      const rel = url.slice('https://host.example/releases/mini/'.length);
      const bytes = url.startsWith('https://host.example/releases/mini/') ? files.get(rel) : undefined;
      return bytes ? new Response(bytes as Uint8Array<ArrayBuffer>) : new Response('no', { status: 404 });
    }) as typeof fetch;
    const source = new UrlSource('https://host.example/releases/mini/', fetchFn);
    await expect(loadRelease(source)).rejects.toThrow(/release\.json is invalid.*files\.leaderboard/);
    expect(fetched.every((u) => u.startsWith('https://host.example/releases/mini/'))).toBe(true);
    expect(() => source.url('%2e%2e/%2e%2e/private/x.json')).toThrow(/outside the release/);
  });
});

function parquetOf(columns: Array<{ name: string; data: unknown[]; type: 'STRING' | 'INT32' }>): Uint8Array {
  return new Uint8Array(parquetWriteBuffer({ columnData: columns }));
}

describe('parquet columns', () => {
  const wrongDocs = () =>
    parquetOf([
      { name: 'doc_id', data: [1, 2], type: 'INT32' },
      { name: 'body', data: ['a', 'b'], type: 'STRING' },
    ]);

  it('a docs.parquet without text and with a numeric doc_id is invalid when read whole (CLI)', async () => {
    const files = readFolder(miniDir);
    replacePinned(files, 'docs.parquet', wrongDocs());
    const release = await loadRelease(new MemorySource('mini', files), { deferParquet: false });
    const report = release.files.find((f) => f.path === 'docs.parquet')!;
    expect(report.status).toBe('invalid');
    const messages = report.issues.map((i) => i.message).join('\n');
    expect(messages).toContain(
      'docs.parquet: column "doc_id" should be a string column (BYTE_ARRAY UTF8), found INT32',
    );
    expect(messages).toContain('docs.parquet: required column "text" is missing (columns: doc_id, body)');
  });

  it('a docs.parquet with wrong columns is refused when read by range (browser)', async () => {
    const files = readFolder(miniDir);
    replacePinned(files, 'docs.parquet', wrongDocs());
    const release = await loadRelease(new MemorySource('mini', files), { deferParquet: true });
    const docs = release.parquet.find((p) => p.kind === 'docs')!;
    await expect(docs.file.slice(0, 4)).rejects.toThrow(/docs\.parquet: column "doc_id" should be a string column/);
  });
});

describe('an empty questions file', () => {
  for (const [name, content] of [
    ['empty', ''],
    ['blank lines only', '\n\n  \n'],
  ] as const) {
    it(`(${name}) is refused, naming the file`, async () => {
      const files = readFolder(miniDir);
      replacePinned(files, 'full/questions.jsonl', new TextEncoder().encode(content));
      editDescriptor(files, (d) => {
        delete d.manifest;
      });
      const load = loadRelease(new MemorySource('mini', files));
      await expect(load).rejects.toBeInstanceOf(ReleaseRefused);
      await expect(load).rejects.toThrow(/full\/questions\.jsonl: the file holds no question/);
    });
  }
  it('the fixture itself loads its 12 questions', async () => {
    const release = await loadRelease(new MemorySource('mini', readFolder(miniDir)));
    expect(release.splits.full?.questions).toHaveLength(12);
  });
});
