import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as buildIndex } from '../../../src/cli/commands/build-index.ts';
import { run as runCmd } from '../../../src/cli/commands/run.ts';
import { FolderSource } from '../../../src/adapters/node/folder-source.ts';
import type { ReleaseDescriptor } from '../../../src/core/release/types.ts';
import { parseRun } from '../../../src/core/retrieval/index.ts';
import { SearchSession } from '../../../src/core/search/index.ts';

const root = path.resolve(__dirname, '../../..');
let dir = '';
let release = '';

function quiet(): () => void {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return () => {
    out.mockRestore();
    err.mockRestore();
  };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'index-cli-'));
  release = path.join(dir, 'sample');
  cpSync(path.join(root, 'static-data/sample'), release, {
    recursive: true,
    filter: (p) => !p.includes(`${path.sep}models`),
  });
  rmSync(path.join(release, 'index'), { recursive: true, force: true });
  const restore = quiet();
  try {
    expect(await buildIndex([release, '--no-dense'])).toBe(0);
  } finally {
    restore();
  }
}, 60_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('build-index', () => {
  it('writes the BM25 file and names it in release.json', () => {
    const d = JSON.parse(readFileSync(path.join(release, 'release.json'), 'utf8')) as ReleaseDescriptor;
    expect(d.indexes).toEqual({ bm25: 'index/bm25.bin' });
    expect(readFileSync(path.join(release, 'index/bm25.bin')).subarray(0, 6).toString('latin1')).toBe('EBBM25');
  });

  it('exits 2 on bad usage and 1 on a folder without chunks', async () => {
    const restore = quiet();
    try {
      expect(await buildIndex([])).toBe(2);
      expect(await buildIndex([release, '--dtype', 'int4'])).toBe(2);
      expect(await buildIndex([release, '--bogus'])).toBe(2);
      expect(await buildIndex([path.join(dir, 'nowhere')])).toBe(1);
      expect(await buildIndex(['--help'])).toBe(0);
    } finally {
      restore();
    }
  });
});

describe('run', () => {
  it('writes one TREC line per ranked document for every task, tag ebx-bm25', async () => {
    const out = path.join(dir, 'bm25.run');
    const restore = quiet();
    try {
      expect(await runCmd([release, '--method', 'bm25', '--k', '20', '--out', out])).toBe(0);
    } finally {
      restore();
    }
    const text = readFileSync(out, 'utf8');
    const lines = text.trim().split('\n');
    for (const line of lines) expect(line).toMatch(/^\S+ Q0 SMPL\d{8} \d+ [0-9.e+-]+ ebx-bm25$/);
    const tasks = readFileSync(path.join(release, 'full/tasks.jsonl'), 'utf8').trim().split('\n');
    const parsed = parseRun(text);
    expect(parsed.queries.size).toBe(tasks.length);
    for (const entries of parsed.queries.values()) {
      expect(entries.length).toBeLessThanOrEqual(20);
      expect(entries.map((e) => e.rank)).toEqual(entries.map((_, i) => i + 1));
    }
  });

  it('writes predictions whose retrieved lists are the ranking, and the same numbers as evaluate()', async () => {
    const out = path.join(dir, 'dev.jsonl');
    const restore = quiet();
    try {
      expect(
        await runCmd([release, '--method', 'bm25', '--split', 'dev', '--format', 'predictions', '--out', out]),
      ).toBe(0);
    } finally {
      restore();
    }
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { task_id: string; answer: string; citations: string[]; retrieved: string[] });
    const session = await SearchSession.open(new FolderSource(release));
    const devTasks = await session.tasks('dev');
    expect(rows.map((r) => r.task_id)).toEqual(devTasks.map((t) => t.task_id));
    for (const r of rows) {
      expect(r.answer).toBe('');
      expect(r.citations).toEqual([]);
      const ranked = await session.rank('bm25', devTasks.find((t) => t.task_id === r.task_id)!.question, 20);
      expect(r.retrieved).toEqual(ranked.map((d) => d.doc_id));
    }
  });

  it('exits 2 on bad usage and 1 when the method has no index', async () => {
    const restore = quiet();
    try {
      expect(await runCmd([release, '--method', 'sparse', '--out', 'x'])).toBe(2);
      expect(await runCmd([release, '--method', 'bm25'])).toBe(2);
      expect(await runCmd([release, '--method', 'bm25', '--out', 'x', '--k', '0'])).toBe(2);
      expect(await runCmd([release, '--method', 'dense', '--out', path.join(dir, 'd.run')])).toBe(1);
    } finally {
      restore();
    }
  });
});
