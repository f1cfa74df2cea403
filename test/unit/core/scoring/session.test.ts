/** The Score page's engine in Node, on the embedded sample release (files as Blobs, memory cache). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryJudgeCacheStore, ScoreSession } from '../../../../src/core/scoring/session/index.ts';
import { sampleDir as sample, sampleFiles } from './sample-files.ts';

describe('ScoreSession', () => {
  it('scores a reference submission from the shipped judge cache to its committed scores.json', async () => {
    const session = new ScoreSession(new MemoryJudgeCacheStore(), { baseHref: 'http://localhost/' });
    const info = await session.useRelease({ kind: 'files', label: 'sample', files: sampleFiles() });
    expect(info.splits.map((s) => s.split)).toEqual(['full', 'dev']);
    expect(info.shippedCacheEntries).toBeGreaterThan(100);
    expect(info.leaderboardEntries).toBe(3);
    const view = await session.useReleaseSubmission('primary', 'bm25-top-doc-sample');
    expect(view.ok).toBe(true);
    expect(view.deterministic?.n_tasks).toBe(150);
    const plan = await session.plan('primary');
    expect(plan.estimate.calls).toBe(0);
    // one count of judge calls: the premise checks the cached replies call for are in it, as in the scorecard's
    expect(plan.pendingPremise).toBe(0);
    expect(plan.cached).toBe(plan.calls);
    const meta = view.metadata!;
    const result = await session.score('primary', {
      extras: { system_name: meta.system_name, split: meta.split, dataset_version: meta.dataset_version },
    });
    expect(result.status).toBe('scored');
    if (result.status !== 'scored') return;
    expect(result.scorecard.scoresJson).toBe(
      readFileSync(path.join(sample, 'submissions/bm25-top-doc-sample/scores.json'), 'utf8'),
    );
    // ties share a rank: the file's 24.3% equals its own committed entry, and is listed with it
    const place = result.scorecard.leaderboard!;
    expect(place.rank).toBe(2);
    expect(place.entries.map((e) => [e.rank, e.isNew])).toEqual([
      [1, false],
      [2, true],
      [2, false],
      [4, false],
    ]);
    expect(place.entries[2]!.overall_cited_correctness).toBe(result.scorecard.report.overall_cited_correctness);
    expect(result.scorecard.rows).toHaveLength(150);
    expect(result.scorecard.callCount).toBe(plan.calls);
    expect(plan.calls).toBeGreaterThan(150);
    const detail = session.detail('primary', result.scorecard.rows[0]!.task_id);
    expect(detail?.calls[0]?.prompt).toContain('<system_answer>');
  });

  it('reports missing judge calls, empty and invalid files, and dropped inputs with file and line', async () => {
    const session = new ScoreSession(new MemoryJudgeCacheStore(), { baseHref: 'http://localhost/' });
    const tasks = readFileSync(path.join(sample, 'full/tasks.jsonl'), 'utf8');
    await session.useTasksFile('tasks.jsonl', new Blob([tasks]));
    await expect(session.useProfileFile('judge-profile.json', new Blob(['{"judge_model": 3']))).rejects.toThrow(
      /judge-profile.json: expected a JSON judge profile/,
    );
    await session.useProfileFile(
      'judge-profile.json',
      new Blob([readFileSync(path.join(sample, 'judge-profile.json'))]),
    );
    const empty = await session.setPredictions('primary', 'predictions.jsonl', new Blob([]));
    expect(empty.fatal).toMatch(/predictions.jsonl is empty/);
    const preds = readFileSync(path.join(sample, 'submissions/closed-book-sample-control/predictions.jsonl'), 'utf8');
    const ok = await session.setPredictions('primary', 'predictions.jsonl', new Blob([preds]));
    expect(ok.ok).toBe(true);
    const result = await session.score('primary');
    expect(result.status).toBe('missing');
    if (result.status === 'missing') expect(result.missing).toBeGreaterThan(0);
    await expect(session.useTasksFile('bad.jsonl', new Blob(['{"task_id": 1}\n']))).rejects.toThrow(/bad\.jsonl/);
  });

  it('a Cancel during a long bootstrap ends the scoring as cancelled with the iterations done, and the cache keeps every verdict', async () => {
    const session = new ScoreSession(new MemoryJudgeCacheStore(), { baseHref: 'http://localhost/' });
    await session.useRelease({ kind: 'files', label: 'sample', files: sampleFiles() });
    const profile = JSON.parse(readFileSync(path.join(sample, 'judge-profile.json'), 'utf8')) as {
      bootstrap: { iterations: number };
    };
    profile.bootstrap.iterations = 100_000;
    await session.useProfileFile('judge-profile.json', new Blob([JSON.stringify(profile)]));
    await session.useReleaseSubmission('primary', 'bm25-top-doc-sample');
    const seen: Array<{ done: number; total: number }> = [];
    const result = await session.score('primary', {}, undefined, (progress) => {
      seen.push(progress);
      // as the page's Cancel does: a message the worker handles between two slices
      if (seen.length === 1) setTimeout(() => session.cancel(), 0);
    });
    expect(result).toEqual({ status: 'cancelled', bootstrap: { done: 1000, total: 200_000 } });
    expect(seen).toEqual([{ done: 1000, total: 200_000 }]);
    const plan = await session.plan('primary');
    expect(plan.estimate.calls).toBe(0);
    expect(plan.cached).toBe(plan.calls);
  });
});
