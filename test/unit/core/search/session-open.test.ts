/**
 * A task page's BM25 ranking waits on release.json and the index alone: opening a session reads
 * nothing else, and the tasks and chunks are read when something first needs them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AsyncBuffer } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { FolderSource } from '../../../../src/adapters/node/folder-source.ts';
import type { ReleaseSource } from '../../../../src/core/release/source.ts';
import { SearchSession } from '../../../../src/core/search/index.ts';

const sample = path.resolve(__dirname, '../../../../static-data/sample');
const question = (
  JSON.parse(readFileSync(path.join(sample, 'full/tasks.jsonl'), 'utf8').split('\n')[0]!) as { question: string }
).question;

/** The sample folder, noting every file read or opened. */
class NotingSource implements ReleaseSource {
  readonly asked: string[] = [];
  private readonly inner = new FolderSource(sample);
  readonly label = this.inner.label;
  list(): readonly string[] | undefined {
    return this.inner.list();
  }
  read(p: string): Promise<Uint8Array | undefined> {
    this.asked.push(p);
    return this.inner.read(p);
  }
  open(p: string): Promise<AsyncBuffer | undefined> {
    this.asked.push(p);
    return this.inner.open(p);
  }
}

describe('SearchSession.open', () => {
  it('reads release.json alone; a BM25 ranking adds its index; evaluation reads the tasks', async () => {
    const source = new NotingSource();
    const session = await SearchSession.open(source, { lazyPostings: true });
    expect(source.asked).toEqual(['release.json']);
    expect(session.info().indexes.bm25).toBe('index/bm25.bin');

    const ranked = await session.rank('bm25', question, 5);
    expect(ranked).toHaveLength(5);
    // What was read, each once (in whatever order the session chose).
    expect([...source.asked].sort()).toEqual(['index/bm25.bin', 'release.json']);

    const splits = await session.splits();
    expect(splits.map((s) => s.split).sort()).toEqual(['dev', 'full']);
    expect(splits.every((s) => s.tasks > 0 && s.answerable <= s.tasks)).toBe(true);
    expect(source.asked).toEqual(expect.arrayContaining(['full/tasks.jsonl', 'dev/tasks.jsonl', 'chunks.parquet']));
    // The tasks are read once, whoever asks next.
    const reads = source.asked.length;
    expect((await session.tasks('full')).length).toBe(splits.find((s) => s.split === 'full')!.tasks);
    expect(await session.task('no-such-task')).toBeUndefined();
    expect(source.asked.length).toBe(reads);
  });
});
