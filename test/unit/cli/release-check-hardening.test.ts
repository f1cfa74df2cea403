/**
 * release-check refuses what the explorer refuses (audit findings 4.2, 4.4, 4.7): a questions file
 * the manifest pin disagrees with, a docs.parquet with the wrong columns, duplicate task ids and
 * gold doc ids, an empty questions file.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../../src/cli/commands/release-check.ts';
import {
  bytesOf,
  editDescriptor,
  miniDir,
  readFolder,
  replacePinned,
  text,
  writeFolder,
} from '../core/release/mini-files.ts';

async function releaseCheck(folder: string): Promise<{ code: number; out: string }> {
  let out = '';
  const write = (chunk: string | Uint8Array): boolean => {
    out += String(chunk);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(write);
  vi.spyOn(process.stderr, 'write').mockImplementation(write);
  const code = await run([folder]);
  vi.restoreAllMocks();
  return { code, out };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('release-check on a damaged mini release', () => {
  it('passes the fixture', async () => {
    const { code, out } = await releaseCheck(miniDir);
    expect(out).toContain('release-check: ok');
    expect(code).toBe(0);
  });

  it('exits 1 when the manifest questions_sha256 disagrees, even with release.json re-pinned', async () => {
    const files = readFolder(miniDir);
    replacePinned(files, 'full/questions.jsonl', bytesOf(text(files.get('full/questions.jsonl')).replace('?', '!')));
    const { code, out } = await releaseCheck(writeFolder(files));
    expect(out).toMatch(/REFUSED full\/questions\.jsonl: .*manifest\.json splits\.full\.questions_sha256/);
    expect(code).toBe(1);
  });

  it('exits 1 on a docs.parquet with the wrong columns, naming them', async () => {
    const files = readFolder(miniDir);
    const wrong = parquetWriteBuffer({
      columnData: [
        { name: 'doc_id', data: [1, 2], type: 'INT32' },
        { name: 'text', data: ['a', 'b'], type: 'STRING' },
      ],
    });
    replacePinned(files, 'docs.parquet', new Uint8Array(wrong));
    const { code, out } = await releaseCheck(writeFolder(files));
    expect(out).toContain('invalid  docs.parquet');
    expect(out).toContain('docs.parquet: column "doc_id" should be a string column (BYTE_ARRAY UTF8), found INT32');
    expect(out).toContain('release-check: FAILED');
    expect(code).toBe(1);
  });

  it('exits 1 on a repeated task id and a repeated gold doc id', async () => {
    const files = readFolder(miniDir);
    const rows = text(files.get('full/tasks.jsonl')).split('\n').filter(Boolean);
    const task = JSON.parse(rows[0]!) as { gold_docs: string[] };
    task.gold_docs.push(task.gold_docs[0]!);
    rows[0] = JSON.stringify(task);
    rows.push(rows[3]!);
    replacePinned(files, 'full/tasks.jsonl', bytesOf(`${rows.join('\n')}\n`));
    const { code, out } = await releaseCheck(writeFolder(files));
    expect(out).toMatch(/full\/tasks\.jsonl, line 1, field "gold_docs": doc id "SMPL\d{8}" is listed twice/);
    expect(out).toMatch(/full\/tasks\.jsonl, line 13: task_id ".+" repeats line 4/);
    expect(code).toBe(1);
  });

  it('exits 1 on an empty questions file, saying so', async () => {
    const files = readFolder(miniDir);
    replacePinned(files, 'full/questions.jsonl', new Uint8Array());
    editDescriptor(files, (d) => {
      delete d.manifest;
    });
    const { code, out } = await releaseCheck(writeFolder(files));
    expect(out).toContain('REFUSED full/questions.jsonl: full/questions.jsonl: the file holds no question');
    expect(code).toBe(1);
  });
});
