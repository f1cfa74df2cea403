/**
 * Duplicates are reported by validation (audit finding 4.4): a task id twice, a doc id twice in
 * gold_docs, a pool row twice. The rows stay loaded (the views must survive them).
 */
import { describe, expect, it } from 'vitest';
import { loadRelease } from '../../../../src/core/release/load.ts';
import { MemorySource } from '../../../../src/core/release/source.ts';
import { bytesOf, editDescriptor, miniDir, readFolder, replacePinned, text } from './mini-files.ts';

function lines(files: Map<string, Uint8Array>, file: string): string[] {
  return text(files.get(file)).split('\n').filter(Boolean);
}

describe('duplicates in release files', () => {
  it('a repeated gold doc id and a repeated task id make tasks.jsonl invalid, naming lines and fields', async () => {
    const files = readFolder(miniDir);
    const rows = lines(files, 'full/tasks.jsonl');
    const first = JSON.parse(rows[0]!) as { gold_docs: string[] };
    first.gold_docs = [...first.gold_docs, first.gold_docs[0]!];
    rows[0] = JSON.stringify(first);
    rows.push(rows[1]!);
    replacePinned(files, 'full/tasks.jsonl', bytesOf(`${rows.join('\n')}\n`));
    const release = await loadRelease(new MemorySource('mini', files));
    const report = release.files.find((f) => f.path === 'full/tasks.jsonl')!;
    expect(report.status).toBe('invalid');
    const messages = report.issues.map((i) => i.message);
    expect(messages).toContainEqual(
      expect.stringMatching(/^full\/tasks\.jsonl, line 1, field "gold_docs": doc id "SMPL\d{8}" is listed twice$/),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/^full\/tasks\.jsonl, line 13: task_id ".+" repeats line 2$/),
    );
    expect(release.splits.full?.tasks).toHaveLength(13);
  });

  it('a duplicated pool row makes the pool file invalid', async () => {
    const files = readFolder(miniDir);
    const task = JSON.parse(lines(files, 'full/tasks.jsonl')[0]!) as { task_id: string; gold_docs: string[] };
    const row = JSON.stringify({
      task_id: task.task_id,
      doc_id: task.gold_docs[0],
      judgement: 'supports',
      from: ['bm25'],
    });
    files.set('build/pool.jsonl', bytesOf(`${row}\n${row}\n`));
    editDescriptor(files, (d) => {
      d.files.pool = 'build/pool.jsonl';
    });
    const release = await loadRelease(new MemorySource('mini', files));
    const report = release.files.find((f) => f.path === 'build/pool.jsonl')!;
    expect(report.issues.map((i) => i.message)).toContainEqual(
      expect.stringMatching(/^build\/pool\.jsonl, line 2: task_id and doc_id ".+" repeats line 1$/),
    );
    expect(report.status).toBe('invalid');
  });

  it('the fixture has none', async () => {
    const release = await loadRelease(new MemorySource('mini', readFolder(miniDir)));
    expect(release.files.filter((f) => f.status === 'invalid')).toEqual([]);
  });
});
