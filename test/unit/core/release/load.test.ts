import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasShared, projectRoot, sharedNote, v10Dir } from '../../../support/shared.ts';
import { detectLayout } from '../../../../src/core/release/layout.ts';
import { loadRelease, ReleaseRefused } from '../../../../src/core/release/load.ts';
import { FileListSource, MemorySource, stripCommonRoot } from '../../../../src/core/release/source.ts';
import { readFolder } from './mini-files.ts';

const v10 = v10Dir;
const mini = path.join(projectRoot, 'test/fixtures/mini-release');

describe('layout detection', () => {
  it('finds our layout by release.json, the official one by manifest + questions, the repository by dataset/<v>/, and build/ files', () => {
    expect(detectLayout(['release.json', 'full/questions.jsonl'])).toEqual({ layout: 'ours', root: '' });
    expect(detectLayout(['v1.0/manifest.json', 'v1.0/full/questions.jsonl', 'README.md'])).toEqual({
      layout: 'official',
      root: 'v1.0/',
    });
    expect(detectLayout(['dataset/v1.0/manifest.json', 'dataset/v1.0/full/questions.jsonl', 'README.md'])).toEqual({
      layout: 'repository',
      root: '',
    });
    expect(
      detectLayout(['epstein-bench/dataset/v1.0/manifest.json', 'epstein-bench/dataset/v1.0/dev/questions.jsonl']),
    ).toEqual({ layout: 'repository', root: 'epstein-bench/' });
    expect(detectLayout(['build/candidates.jsonl', 'build/rejected.jsonl'])).toEqual({
      layout: 'build',
      root: 'build/',
    });
    expect(detectLayout(['manifest.json', 'notes.txt'])).toBeUndefined();
  });

  it('strips the picked folder name shared by every path', () => {
    expect(stripCommonRoot(['v1.0/manifest.json', 'v1.0/dev/questions.jsonl'])).toEqual([
      'manifest.json',
      'dev/questions.jsonl',
    ]);
    expect(stripCommonRoot(['manifest.json', 'dev/questions.jsonl'])).toEqual(['manifest.json', 'dev/questions.jsonl']);
  });
});

describe('loading our layout (the mini fixture release)', () => {
  it('loads every file, checks every pin and reads the parquet documents', async () => {
    const release = await loadRelease(new MemorySource('mini', readFolder(mini)), { deferParquet: false });
    expect(release.layout).toBe('ours');
    expect(release.splits.full?.questions).toHaveLength(12);
    expect(release.splits.full?.tasks).toHaveLength(12);
    expect(release.docs?.length).toBe(12);
    expect(release.docs?.[0]?.doc_id).toMatch(/^SMPL\d{8}$/);
    expect(release.rejected?.length).toBe(4);
    const pinned = release.files.filter((f) => f.pin === 'ok').map((f) => f.path);
    expect(pinned).toEqual(
      expect.arrayContaining(['full/questions.jsonl', 'full/tasks.jsonl', 'docs.parquet', 'build/rejected.jsonl']),
    );
    expect(release.files.every((f) => f.status === 'loaded' || f.status === 'missing')).toBe(true);
    expect(release.lacks).toContain('pool judgements');
  });

  it('leaves parquet on the source for range reads when asked', async () => {
    const release = await loadRelease(new MemorySource('mini', readFolder(mini)), { deferParquet: true });
    expect(release.docs).toBeUndefined();
    expect(release.parquet.map((p) => p.kind)).toEqual(['docs']);
    await Promise.all(release.parquet.map((p) => p.checked));
    expect(release.files.find((f) => f.path === 'docs.parquet')?.pin).toBe('ok');
  });

  it('refuses a file whose bytes differ from its pin, naming the file and both hashes', async () => {
    const files = readFolder(mini);
    const tasks = files.get('full/tasks.jsonl')!;
    tasks[10] = tasks[10]! ^ 1;
    const load = loadRelease(new MemorySource('mini', files));
    await expect(load).rejects.toBeInstanceOf(ReleaseRefused);
    await expect(load).rejects.toThrow(/full\/tasks\.jsonl.*[0-9a-f]{64}.*[0-9a-f]{64}/);
  });

  it('reports a broken line with its number and keeps the other rows', async () => {
    const files = readFolder(mini);
    const lines = new TextDecoder().decode(files.get('build/candidates.jsonl')).split('\n');
    lines[2] = '{"task_id": ';
    files.set('build/candidates.jsonl', new TextEncoder().encode(lines.join('\n')));
    const descriptor = JSON.parse(new TextDecoder().decode(files.get('release.json'))) as {
      sha256: Record<string, string>;
    };
    delete descriptor.sha256['build/candidates.jsonl'];
    files.set('release.json', new TextEncoder().encode(JSON.stringify(descriptor)));
    const release = await loadRelease(new MemorySource('mini', files));
    const report = release.files.find((f) => f.path === 'build/candidates.jsonl')!;
    expect(report.status).toBe('invalid');
    expect(report.issues[0]?.line).toBe(3);
    expect(report.issues[0]?.message).toContain('line 3');
    expect(release.candidates).toHaveLength(3);
  });

  it('refuses a folder with no release in it, saying what it looked for', async () => {
    const source = new MemorySource('junk', new Map([['notes.txt', new Uint8Array([104, 105])]]));
    await expect(loadRelease(source)).rejects.toThrow(/release\.json.*manifest\.json/);
  });
});

describe.skipIf(!hasShared)(`loading the real v1.0 files (${sharedNote})`, () => {
  it('loads a picked folder in the official layout, lists what it ignores and pins both questions files and the submission', async () => {
    const files = readFolder(v10, 'epstein-bench-v1.0/');
    const source = new FileListSource(
      'picked',
      [...files].map(([p, bytes]) => ({ path: p, blob: new Blob([bytes as Uint8Array<ArrayBuffer>]) })),
    );
    const release = await loadRelease(source);
    expect(release.layout).toBe('official');
    expect(release.splits.full?.questions).toHaveLength(1038);
    expect(release.splits.full?.tasks).toHaveLength(1038);
    expect(release.splits.full?.tasks?.map((t) => t.task_id)).toEqual(
      release.splits.full?.questions.map((q) => q.task_id),
    );
    expect(release.splits.dev?.tasks).toHaveLength(50);
    expect(
      release.files
        .filter((f) => f.pin === 'ok')
        .map((f) => f.path)
        .sort(),
    ).toEqual(['dev/questions.jsonl', 'full/questions.jsonl', 'submissions/bm25-reference/metadata.json']);
    expect(
      release.files
        .filter((f) => f.status === 'ignored')
        .map((f) => f.path)
        .sort(),
    ).toEqual(['README.md', 'full/tasks-sample.jsonl']);
    expect(release.leaderboard?.entries).toHaveLength(7);
    expect(release.submissions.map((s) => s.slug)).toEqual(['bm25-reference', 'dense-reference']);
    expect(release.lacks).not.toContain('full answer key (tasks.jsonl)');
  });
});
