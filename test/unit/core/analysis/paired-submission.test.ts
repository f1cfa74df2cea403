/**
 * The Score view's paired comparison (a picked file against a system of the release), as the
 * score worker computes it: the same numbers as the CLI's `paired --json` on the same files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pairedAgainstSystem } from '../../../../src/core/analysis/paired-submission.ts';
import { parsePredictions } from '../../../../src/core/scoring/predictions.ts';
import { parseJudgeProfile, parseTasksJsonl } from '../../../../src/core/scoring/scoring-inputs.ts';
import { PairedScoreSession } from '../../../../src/core/analysis/paired-session.ts';
import { MemoryJudgeCacheStore } from '../../../../src/core/scoring/session/index.ts';
import { samplePairedJson } from '../../../support/cli.ts';
import { sampleDir, sampleFiles } from '../scoring/sample-files.ts';

const BM25 = 'bm25-top-doc-sample';
const submissionDir = (slug: string) => path.join(sampleDir, 'submissions', slug);
const read = (file: string) => readFileSync(file, 'utf8');

async function sessionWith(slug: string): Promise<PairedScoreSession> {
  const session = new PairedScoreSession(new MemoryJudgeCacheStore(), { baseHref: 'http://localhost/' });
  await session.useRelease({ kind: 'files', label: 'sample', files: sampleFiles() });
  expect((await session.useReleaseSubmission('primary', slug)).ok).toBe(true);
  return session;
}

async function cliPaired(a: string, b: string, metric: string): Promise<Record<string, unknown>> {
  const { system_a: _a, system_b: _b, ...result } = (await samplePairedJson(a, b, metric)) as Record<string, unknown>;
  return result;
}

describe('a submission against a system of the release (score worker)', () => {
  it.each(['recall@20', 'ndcg@10', 'citation_recall', 'cited', 'uncited'] as const)(
    '%s: equals the CLI paired --json on the same files',
    async (metric) => {
      const session = await sessionWith(BM25);
      const outcome = await session.paired('closed-book-sample-control', metric);
      expect(outcome.ok, outcome.ok ? '' : outcome.why).toBe(true);
      if (!outcome.ok) return;
      expect(JSON.parse(JSON.stringify(outcome.result))).toStrictEqual(
        await cliPaired(BM25, 'closed-book-sample-control', metric),
      );
      expect(outcome.result.difference).toBe(outcome.result.a - outcome.result.b);
    },
  );

  it("cited correctness: A and B are the committed scores.json numbers, bit for bit, and B's verdicts come from the cache", async () => {
    const session = await sessionWith(BM25);
    const outcome = await session.paired('always-refuse-sample-control', 'cited');
    if (!outcome.ok) throw new Error(outcome.why);
    const scores = (slug: string) =>
      (JSON.parse(read(path.join(submissionDir(slug), 'scores.json'))) as { overall_cited_correctness: number })
        .overall_cited_correctness;
    expect(outcome.result.a).toBe(scores(BM25));
    expect(outcome.result.b).toBe(scores('always-refuse-sample-control'));
    expect(outcome.result.n).toBe(150);
  });

  it('against itself: difference 0, interval [0, 0], p = 1, every task a tie', async () => {
    const session = await sessionWith(BM25);
    const outcome = await session.paired(BM25, 'recall@5');
    if (!outcome.ok) throw new Error(outcome.why);
    const r = outcome.result;
    expect([r.difference, r.ci95, r.p, r.wins, r.losses, r.ties]).toEqual([0, [0, 0], 1, 0, 0, r.n]);
  });

  it('says why it cannot compare: no such system, no predictions yet, verdicts not cached, other tasks', async () => {
    const session = await sessionWith(BM25);
    expect(await session.paired('no-such-system', 'recall@20')).toEqual({
      ok: false,
      why: 'the release has no predictions for no-such-system',
    });
    const empty = new PairedScoreSession(new MemoryJudgeCacheStore(), { baseHref: 'http://localhost/' });
    await empty.useRelease({ kind: 'files', label: 'sample', files: sampleFiles() });
    expect(await empty.paired(BM25, 'recall@20')).toMatchObject({ ok: false, why: /predictions/ });

    const tasks = parseTasksJsonl(read(path.join(sampleDir, 'full/tasks.jsonl')));
    const profile = parseJudgeProfile(JSON.parse(read(path.join(sampleDir, 'judge-profile.json'))) as unknown);
    const text = read(path.join(submissionDir(BM25), 'predictions.jsonl'));
    const submission = parsePredictions(text, tasks, { mode: 'score' });
    const base = { tasks, profile, submission, system: { name: 'other', predictionsText: text } };
    const uncached = await pairedAgainstSystem({ ...base, metric: 'uncited', lookup: async () => undefined });
    expect(uncached).toEqual({
      ok: false,
      why: "the judge cache lacks this file's verdicts on 150 of 150 tasks; uncited correctness needs every one",
    });
    // the system answered the full split; compared on a few tasks, its other lines do not fit
    const few = tasks.slice(0, 10);
    const fewOutcome = await pairedAgainstSystem({
      ...base,
      tasks: few,
      submission: parsePredictions(text.split('\n').slice(0, 10).join('\n'), few, { mode: 'score' }),
      metric: 'recall@20',
      lookup: async () => undefined,
    });
    expect(fewOutcome).toMatchObject({ ok: false, why: /^other's predictions do not fit these tasks \(140 problem/ });
  });
});
