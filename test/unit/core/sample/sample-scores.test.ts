/** The sample's reference scores follow from its predictions, its judge profile and its shipped judge cache. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { run as score } from '../../../../src/cli/commands/score.ts';
import type { ReleaseDescriptor, ScoreReport } from '../../../../src/core/release/types.ts';
import { containsTokens, isRefusal, sampleJudgeReply } from '../../../../src/core/sample/sample-judge.ts';
import { REFUSAL } from '../../../../src/core/sample/submissions.ts';
import { SAMPLE_JUDGE_ARGS } from '../../../support/cli.ts';
import type { Task } from '../../../../src/core/release/types.ts';

const sample = path.resolve(__dirname, '../../../../static-data/sample');
const read = (p: string) => readFileSync(path.join(sample, p), 'utf8');

describe('the sample judge', () => {
  const task = {
    task_id: 't',
    type: 'single_hop',
    answer: 'Ostrava Holdings Ltd.',
    items: [{ item: 'Anna Kovacs' }, { item: 'Ben Ruiz' }],
    false_element: 'the 2011 yacht sale',
  } as unknown as Task;

  it('grades by normalised token containment and recognises refusals', () => {
    expect(containsTokens('It was OSTRAVA holdings, ltd', 'Ostrava Holdings Ltd.')).toBe(true);
    expect(containsTokens('Ostrava', 'Ostrava Holdings Ltd.')).toBe(false);
    expect(containsTokens('anything', '')).toBe(false);
    expect(isRefusal(REFUSAL)).toBe(true);
    expect(isRefusal('Ostrava Holdings')).toBe(false);
    expect(sampleJudgeReply({ tag: 'SCOREJUDGE' }, task, 'ostrava holdings ltd')).toBe(
      '{"correct": true, "is_refusal": false}',
    );
    expect(sampleJudgeReply({ tag: 'SCOREJUDGE' }, task, REFUSAL)).toBe('{"correct": false, "is_refusal": true}');
    expect(sampleJudgeReply({ tag: 'AGGJUDGE' }, task, 'Anna Kovacs, Carl Dunn')).toBe(
      '{"matched_items": [true, false], "extra_items": 1}',
    );
    expect(sampleJudgeReply({ tag: 'PREMISEID' }, task, 'There was no 2011 yacht sale.')).toBe('{"identified": true}');
  });
});

describe('the sample release scores', () => {
  const descriptor = JSON.parse(read('release.json')) as ReleaseDescriptor;
  const leaderboard = JSON.parse(read('leaderboard.json')) as { entries: ScoreReport[] };

  it('lists every reference submission on the leaderboard, best first, as in its scores.json', () => {
    expect(leaderboard.entries).toHaveLength(descriptor.submissions!.length);
    const values = leaderboard.entries.map((e) => e.overall_cited_correctness);
    expect([...values].sort((a, b) => b - a)).toEqual(values);
    for (const slug of descriptor.submissions!) {
      const scores = JSON.parse(read(`submissions/${slug}/scores.json`)) as ScoreReport;
      expect(leaderboard.entries.find((e) => e.system_name === scores.system_name)).toStrictEqual(scores);
      expect(scores).toMatchObject({ split: 'full', judge_model: 'sample-judge-1', n_tasks: 150, judge_errors: 0 });
    }
  });

  it('re-scores each submission offline from the shipped judge cache to the same bytes (score CLI)', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'sample-scores-'));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      for (const slug of descriptor.submissions!) {
        const meta = JSON.parse(read(`submissions/${slug}/metadata.json`)) as {
          system_name: string;
          split: string;
          dataset_version: string;
        };
        const out = path.join(tmp, `${slug}.json`);
        const code = await score([
          '--tasks',
          path.join(sample, 'full/tasks.jsonl'),
          '--predictions',
          path.join(sample, `submissions/${slug}/predictions.jsonl`),
          ...SAMPLE_JUDGE_ARGS,
          '--system-name',
          meta.system_name,
          '--split',
          meta.split,
          '--dataset-version',
          meta.dataset_version,
          '--out',
          out,
        ]);
        expect(code, slug).toBe(0);
        expect(readFileSync(out, 'utf8'), slug).toBe(read(`submissions/${slug}/scores.json`));
      }
    } finally {
      vi.restoreAllMocks();
    }
  }, 60_000);
});
