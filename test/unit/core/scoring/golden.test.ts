/**
 * The port against the canonical scorer's golden outputs (../shared/golden/scoring/*):
 * prompts and keys in judge-calls.jsonl order, and scores.json to the last digit and byte.
 */
import { describe, expect, it } from 'vitest';
import type { JudgeProfile } from '../../../../src/core/release/types.ts';
import { parsePredictions } from '../../../../src/core/scoring/predictions.ts';
import {
  JudgeCallMissingError,
  planJudgeCalls,
  planPremiseCalls,
  scoreSubmission,
} from '../../../../src/core/scoring/score.ts';
import type { JudgeFn } from '../../../../src/core/scoring/score.ts';
import { parseJudgeProfile, parseTasksJsonl } from '../../../../src/core/scoring/scoring-inputs.ts';
import { goldenCases, hasShared, readShared, sharedNote } from '../../../support/shared.ts';

interface GoldenCall {
  task_id: string;
  tag: string;
  key: string;
  model: string;
  system: string;
  prompt: string;
  reply: string;
}

function loadCase(name: string) {
  const dir = ['golden', 'scoring', name];
  const tasks = parseTasksJsonl(readShared(...dir, 'tasks.jsonl'));
  const predictions = parsePredictions(readShared(...dir, 'predictions.jsonl'), tasks);
  const verdicts = JSON.parse(readShared(...dir, 'verdicts.json')) as Record<string, string>;
  const calls = readShared(...dir, 'judge-calls.jsonl')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as GoldenCall);
  const scoresText = readShared(...dir, 'scores.json');
  return { tasks, predictions, verdicts, calls, scoresText, scores: JSON.parse(scoresText) as Record<string, unknown> };
}

function cacheJudge(verdicts: Record<string, string>): JudgeFn {
  return async (call) => {
    const reply = verdicts[call.key];
    if (reply === undefined) throw new JudgeCallMissingError(call);
    return reply;
  };
}

describe.runIf(hasShared)(`golden cases of the canonical scorer${hasShared ? '' : ` (${sharedNote})`}`, () => {
  const profile: JudgeProfile | null = hasShared
    ? parseJudgeProfile(JSON.parse(readShared('epstein-bench-v1.0', 'judge-profile.json')))
    : null;

  for (const name of goldenCases) {
    describe(name, () => {
      const c = hasShared ? loadCase(name) : null;

      it('validates the predictions without a problem', () => {
        expect(c!.predictions.issues).toEqual([]);
        expect(c!.predictions.ok).toBe(true);
      });

      it('renders every prompt byte for byte, with the same keys, in the same order', async () => {
        const outcome = await scoreSubmission({
          tasks: c!.tasks,
          predictions: c!.predictions,
          profile: profile!,
          judge: cacheJudge(c!.verdicts),
        });
        expect(outcome.calls.length).toBe(c!.calls.length);
        outcome.calls.forEach((call, i) => {
          const g = c!.calls[i]!;
          expect(call.task_id).toBe(g.task_id);
          expect(call.tag).toBe(g.tag);
          expect(call.model).toBe(g.model);
          expect(call.system).toBe(g.system);
          expect(call.prompt).toBe(g.prompt);
          expect(call.key).toBe(g.key);
          expect(call.reply).toBe(g.reply);
        });
      });

      it('plans the same calls up front: phase 1, then premise-id calls from the phase-1 replies', async () => {
        const phase1 = await planJudgeCalls(c!.tasks, c!.predictions, profile!);
        const replies = new Map(phase1.map((call) => [call.key, c!.verdicts[call.key]!]));
        const phase2 = await planPremiseCalls(c!.tasks, c!.predictions, profile!, replies);
        const goldenKeys = c!.calls.map((g) => g.key);
        expect([...phase1, ...phase2].map((x) => x.key).sort()).toEqual([...goldenKeys].sort());
        expect(phase2.every((x) => x.tag === 'PREMISEID')).toBe(true);
        expect(phase1.map((x) => x.key)).toEqual(c!.calls.filter((g) => g.tag !== 'PREMISEID').map((g) => g.key));
      });

      it('reproduces scores.json: keys in order, every number identical, and the same bytes', async () => {
        const s = c!.scores;
        const outcome = await scoreSubmission({
          tasks: c!.tasks,
          predictions: c!.predictions,
          profile: profile!,
          judge: cacheJudge(c!.verdicts),
          extras: {
            system_name: s.system_name as string,
            split: s.split as string,
            dataset_version: s.dataset_version as string,
          },
        });
        expect(Object.keys(outcome.report)).toEqual(Object.keys(s));
        expect(outcome.report).toStrictEqual(s);
        expect(outcome.report.overall_cited_correctness_ci95).toEqual(s.overall_cited_correctness_ci95);
        expect(outcome.report.overall_uncited_correctness_ci95).toEqual(s.overall_uncited_correctness_ci95);
        // json.dumps writes no final newline; one golden file (dev-seed7) was saved with one
        const golden = c!.scoresText.endsWith('}\n') ? c!.scoresText.slice(0, -1) : c!.scoresText;
        expect(outcome.scoresJson).toBe(golden);
      });
    });
  }
});
