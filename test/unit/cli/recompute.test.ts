/** `recompute` run as a user runs it, and its core on hand-made reports. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.ts';
import { parsePredictions } from '../../../src/core/scoring/predictions.ts';
import { recomputeJudgeFree } from '../../../src/core/scoring/recompute.ts';
import { parseTasksJsonl } from '../../../src/core/scoring/scoring-inputs.ts';
import {
  hasShared,
  projectRoot as projectRootDir,
  sharedNote as sharedSkipReason,
  v10Dir,
} from '../../support/shared.ts';

const recompute = (args: string[]) => cli(['recompute', ...args]);

const sample = path.join(projectRootDir, 'static-data/sample');
const sampleSubmission = path.join(sample, 'submissions/bm25-top-doc-sample');
const sampleTasks = path.join(sample, 'full/tasks.jsonl');

/** A copy of a submission folder whose scores.json is changed by `edit`. */
function editedCopy(from: string, edit: (scores: Record<string, unknown>) => void): string {
  const to = path.join(mkdtempSync(path.join(tmpdir(), 'recompute-')), 'submission');
  cpSync(from, to, { recursive: true });
  const file = path.join(to, 'scores.json');
  const scores = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(scores);
  writeFileSync(file, JSON.stringify(scores, null, 2));
  return to;
}

describe('recompute (CLI)', () => {
  it.runIf(hasShared)(
    `bm25-reference of v1.0: every judge-free number equals the committed one, bit for bit (exit 0)${hasShared ? '' : ` (${sharedSkipReason})`}`,
    async () => {
      const r = await recompute([
        path.join(v10Dir, 'submissions/bm25-reference'),
        '--tasks',
        path.join(v10Dir, 'full/tasks.jsonl'),
      ]);
      expect(r.stderr).not.toMatch(/error/i);
      expect(r.code).toBe(0);
      for (const [key, value] of [
        ['n_tasks', '1038'],
        ['retrieval.recall@5', '0.27110883483610854'],
        ['retrieval.recall@20', '0.5894933149531674'],
        ['retrieval.ndcg@10', '0.4053735887641372'],
        ['citation_precision', '0.462448347107438'],
        ['citation_recall', '0.20913474121465642'],
      ] as Array<[string, string]>) {
        expect(r.stdout).toMatch(
          new RegExp(`\\n  ${key.replace(/[.@]/g, '\\$&')} +${value} +${value} +equal, bit-identical\\n`),
        );
      }
      expect(r.stdout).toContain(
        'aggregation 111, single_hop 823, timeline 27, dossier 7, unanswerable 32, false_premise 38',
      );
      expect(r.stdout).toContain(
        'OK: all 10 judge-free numbers and 2 count checks equal the committed values (8 of the 8 present bit-identical',
      );
    },
    60_000,
  );

  it('the sample submission: exit 0; one number changed by 1e-9: exit 1, naming it', async () => {
    const ok = await recompute([sampleSubmission, '--tasks', sampleTasks]);
    expect(ok.code).toBe(0);
    const changed = editedCopy(sampleSubmission, (s) => {
      const retrieval = s.retrieval as Record<string, number>;
      retrieval['recall@5'] = retrieval['recall@5']! + 1e-9;
    });
    const r = await recompute([changed, '--tasks', sampleTasks]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /retrieval\.recall@5 +0\.77246031846\d+ +0\.77246031746\d+ +DIFFERS by (9\.99\d+e-10|1\.00\d+e-9)\n/,
    );
    expect(r.stdout).toContain('DIFFERS: 1 of 12 values differ');
  }, 60_000);

  it('exit 1 when telemetry is committed but the predictions have none', async () => {
    const changed = editedCopy(sampleSubmission, (s) => {
      s.tokens_total = 1000;
    });
    const r = await recompute([changed, '--tasks', sampleTasks]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/tokens_total +1000 +\(absent\) +DIFFERS \(present in only one\)/);
  }, 60_000);

  it('exit 2 on bad usage: no --tasks, no folder, a folder without scores.json, an unknown option', async () => {
    const noTasks = await recompute([sampleSubmission]);
    expect(noTasks.code).toBe(2);
    expect(noTasks.stderr).toContain('--tasks is required');
    const noFolder = await recompute([path.join(sample, 'no-such-folder'), '--tasks', sampleTasks]);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toContain('is not a folder');
    const noScores = await recompute([path.join(sample, 'full'), '--tasks', sampleTasks]);
    expect(noScores.code).toBe(2);
    expect(noScores.stderr).toContain('has no scores.json');
    const unknown = await recompute([sampleSubmission, '--tasks', sampleTasks, '--fast']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown option --fast');
  }, 60_000);
});

describe('recomputeJudgeFree', () => {
  const tasks = parseTasksJsonl(readFileSync(sampleTasks, 'utf8'), sampleTasks);
  const predictions = parsePredictions(readFileSync(path.join(sampleSubmission, 'predictions.jsonl'), 'utf8'), tasks, {
    mode: 'score',
  });
  const committed = JSON.parse(readFileSync(path.join(sampleSubmission, 'scores.json'), 'utf8')) as Record<
    string,
    unknown
  >;

  it('leaves citation precision and recall out, saying why, when the judge failed on some tasks', () => {
    const result = recomputeJudgeFree({ ...committed, judge_errors: 2 }, tasks, predictions);
    expect(result.numbers.map((n) => n.key)).not.toContain('citation_precision');
    expect(result.skipped.map((s) => s.key)).toEqual(['citation_precision', 'citation_recall']);
    expect(result.skipped[0]!.why).toContain('judge_errors is 2');
    expect(result.ok).toBe(true);
  });

  it('fails when per_type lists the types in another order than the tasks file', () => {
    const perType = committed.per_type as Record<string, number>;
    const reversed = Object.fromEntries(Object.entries(perType).reverse());
    const result = recomputeJudgeFree({ ...committed, per_type: reversed }, tasks, predictions);
    expect(result.typeOrder[0]).toMatchObject({ key: 'per_type', equal: false });
    expect(result.ok).toBe(false);
  });
});
