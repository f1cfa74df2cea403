/** ScoreSession.cachedVerdicts: the verdicts a judge cache already holds, per system and task, for the Systems view. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pyMean } from '../../../../src/core/python/sum.ts';
import type { ScoreReport, Task } from '../../../../src/core/release/types.ts';
import { MemoryJudgeCacheStore, ScoreSession } from '../../../../src/core/scoring/session/index.ts';

const sample = path.resolve(import.meta.dirname, '../../../../static-data/sample');
const SLUGS = ['bm25-top-doc-sample', 'closed-book-sample-control', 'always-refuse-sample-control'];

function files(dir: string, prefix = '', skip?: string): Array<{ path: string; file: Blob }> {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === skip) return [];
    return statSync(full).isDirectory()
      ? files(full, `${prefix}${name}/`, skip)
      : [{ path: `sample/${prefix}${name}`, file: new Blob([readFileSync(full)]) }];
  });
}

describe('cachedVerdicts', () => {
  it("gives every sample system's per-task scores from the shipped cache; their per-type means are the committed ones", async () => {
    const session = new ScoreSession(new MemoryJudgeCacheStore());
    await session.useRelease({ kind: 'files', label: 'sample', files: files(sample) }, 'http://localhost/');
    const verdicts = await session.cachedVerdicts(SLUGS, 'full');
    expect(verdicts.profile).toBe('sample-judge-1 (prompt sample-v1)');
    const tasks = readFileSync(path.join(sample, 'full/tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Task);
    for (const slug of SLUGS) {
      const system = verdicts.systems[slug]!;
      expect(system).toMatchObject({ covered: 150, errors: 0, tasks: 150 });
      const committed = JSON.parse(
        readFileSync(path.join(sample, 'submissions', slug, 'scores.json'), 'utf8'),
      ) as ScoreReport;
      for (const [type, value] of Object.entries(committed.per_type)) {
        const cited = tasks.filter((t) => t.type === type).map((t) => system.scores[t.task_id]![0]);
        expect(pyMean(cited)).toBe(value);
      }
    }
    const one = await session.cachedVerdicts(['bm25-top-doc-sample'], 'full', [tasks[0]!.task_id]);
    expect(Object.keys(one.systems['bm25-top-doc-sample']!.scores)).toEqual([tasks[0]!.task_id]);
  });

  it('says why there are none: an empty cache, or no judge profile', async () => {
    const session = new ScoreSession(new MemoryJudgeCacheStore());
    await session.useRelease(
      { kind: 'files', label: 'sample', files: files(sample, '', 'judge-cache.json') },
      'http://localhost/',
    );
    expect(await session.cachedVerdicts(SLUGS, 'full')).toEqual({ systems: {}, reason: 'the judge cache is empty' });
    session.choose({ kind: 'release', split: 'full' }, 'file');
    expect((await session.cachedVerdicts(SLUGS, 'full')).reason).toBe('no judge profile is chosen');
  });
});
