/**
 * A stand-in judge for the v1.0 prompts (judge prompt v2), grading from the prompt alone, and the
 * judge cache it gives for a predictions file: what the official-release scoring tests score from.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parsePredictions } from '../../src/core/scoring/predictions.ts';
import { planJudgeCalls, planPremiseCalls } from '../../src/core/scoring/score.ts';
import { parseJudgeProfile, parseTasksJsonl } from '../../src/core/scoring/scoring-inputs.ts';
import { projectRoot } from './shared.ts';

export const siteProfileFile = path.join(projectRoot, 'static-data/judge-profiles/epstein-bench-v1.0.json');

/** Refusals are refusals; other answers are correct when their prompt's length is even; lists match their first item. */
export function v10Judge(prompt: string): string {
  if (prompt.startsWith('[AGGJUDGE]')) {
    const n = Number(/x (\d+)\]/.exec(prompt)?.[1] ?? 1);
    return JSON.stringify({ matched_items: Array.from({ length: n }, (_, i) => i === 0), extra_items: 1 });
  }
  if (prompt.startsWith('[PREMISEID]')) return `{"identified": ${prompt.length % 3 === 0}}`;
  const answer = prompt.slice(prompt.lastIndexOf('<system_answer>'));
  const refusal = /cannot|not (in|contain)|no information|unable|\(empty\)/i.test(answer);
  return JSON.stringify({ correct: !refusal && prompt.length % 2 === 0, is_refusal: refusal });
}

/** The judge cache (key -> reply) of every call scoring `predictionsFile` on the v1.0 tasks file needs. */
export async function v10JudgeCache(tasksFile: string, predictionsFile: string): Promise<Record<string, string>> {
  const tasks = parseTasksJsonl(readFileSync(tasksFile, 'utf8'));
  const profile = parseJudgeProfile(JSON.parse(readFileSync(siteProfileFile, 'utf8')));
  const predictions = parsePredictions(readFileSync(predictionsFile, 'utf8'), tasks, { requireAnswerKey: false });
  const phase1 = await planJudgeCalls(tasks, predictions, profile);
  const replies = new Map(phase1.map((c) => [c.key, v10Judge(c.prompt)]));
  const premise = await planPremiseCalls(tasks, predictions, profile, replies);
  for (const c of premise) replies.set(c.key, v10Judge(c.prompt));
  return Object.fromEntries(replies);
}
