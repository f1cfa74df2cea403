/**
 * Issue 22.1: the report fields of a browser-made scores.json follow the CLI's rule, and the
 * official release entry scores with the judge profile the site ships for it. The Score page's
 * engine (ScoreSession) and `score` of the CLI run on the same inputs and write the same bytes.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/core/release/sha256.ts';
import { defaultReportFields } from '../../../../src/core/scoring/report-fields.ts';
import { MemoryJudgeCacheStore, ScoreSession } from '../../../../src/core/scoring/session/index.ts';
import { startRepositoryMirror, type RepositoryMirror } from '../../../support/repository-mirror.ts';
import { hasShared, projectRoot, sharedNote, v10Dir } from '../../../support/shared.ts';
import { siteProfileFile, v10JudgeCache } from '../../../support/v10-judge.ts';
import { sampleDir, sampleFiles } from './sample-files.ts';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'src/cli/main.ts', ...args],
      { cwd: projectRoot, maxBuffer: 64 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function cliScores(tasks: string, predictions: string, profile: string, cache: string): Promise<string> {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'report-fields-out-')), 'scores.json');
  const r = await cli([
    'score',
    '--tasks',
    tasks,
    '--predictions',
    predictions,
    '--judge-profile',
    profile,
    '--judge-cache',
    cache,
    '--out',
    out,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(out, 'utf8');
}

const reportFields = (scoresJson: string) => {
  const r = JSON.parse(scoresJson) as Record<string, unknown>;
  return { system_name: r.system_name, split: r.split, dataset_version: r.dataset_version };
};

const siteEntry = (
  JSON.parse(readFileSync(path.join(projectRoot, 'static-data/releases.json'), 'utf8')) as {
    releases: Array<{ id: string; url?: string; judgeProfile?: { path: string; sha256: string } }>;
  }
).releases.find((r) => r.id === 'epstein-bench-v1.0')!;

describe('defaultReportFields: the CLI rule', () => {
  it('takes each non-empty string of metadata.json, else the split and dataset version of where the tasks come from', () => {
    expect(
      defaultReportFields(
        { system_name: 'x', split: '', dataset_version: 3 },
        { split: 'dev', datasetVersion: 'v1.0' },
      ),
    ).toEqual({
      fields: { system_name: 'x', split: 'dev', dataset_version: 'v1.0' },
      from: { system_name: 'metadata', split: 'tasks', dataset_version: 'tasks' },
    });
    expect(defaultReportFields(undefined, { split: 'submissions', datasetVersion: 'v1.0' }).fields).toEqual({
      dataset_version: 'v1.0',
    });
    expect(defaultReportFields(['full'], {}).fields).toEqual({});
  });
});

describe('the Score page and the CLI fill the report fields alike (sample release)', () => {
  it('predictions without metadata.json: split and dataset version from the release split, no system name', async () => {
    const lone = mkdtempSync(path.join(tmpdir(), 'report-fields-lone-'));
    const predictions = path.join(lone, 'predictions.jsonl');
    copyFileSync(path.join(sampleDir, 'submissions/bm25-top-doc-sample/predictions.jsonl'), predictions);
    const fromCli = await cliScores(
      path.join(sampleDir, 'full/tasks.jsonl'),
      predictions,
      path.join(sampleDir, 'judge-profile.json'),
      path.join(sampleDir, 'judge-cache.json'),
    );
    const session = new ScoreSession(new MemoryJudgeCacheStore(), { baseHref: 'http://localhost/' });
    await session.useRelease({ kind: 'files', label: 'sample', files: sampleFiles() });
    await session.setPredictions('primary', 'predictions.jsonl', new Blob([readFileSync(predictions)]));
    expect(session.reportFieldDefaults('primary')).toEqual({ split: 'full', dataset_version: 'v1.0-sample' });
    const result = await session.score('primary');
    expect(result.status).toBe('scored');
    if (result.status !== 'scored') return;
    expect(reportFields(result.scorecard.scoresJson)).toEqual({
      system_name: undefined,
      split: 'full',
      dataset_version: 'v1.0-sample',
    });
    expect(result.scorecard.scoresJson).toBe(fromCli);
  }, 60_000);
});

describe.runIf(hasShared)(
  `the official release entry scores with the site's judge profile${hasShared ? '' : ` (${sharedNote})`}`,
  () => {
    const profileBytes = readFileSync(siteProfileFile);
    const pinned = new URL(siteEntry.url!);
    let mirror: RepositoryMirror;
    let tmp: string;
    let cacheFile: string;
    beforeAll(async () => {
      mirror = await startRepositoryMirror(
        v10Dir,
        pinned.pathname,
        new Map([['site/judge-profile.json', new Uint8Array(profileBytes)]]),
      );
      tmp = mkdtempSync(path.join(tmpdir(), 'report-fields-v10-'));
      cacheFile = path.join(tmp, 'verdicts.json');
      const cache = await v10JudgeCache(
        path.join(v10Dir, 'full/tasks.jsonl'),
        path.join(v10Dir, 'submissions/bm25-reference/predictions.jsonl'),
      );
      writeFileSync(cacheFile, JSON.stringify(cache));
    });
    afterAll(async () => mirror?.close());

    it("is the profile of ../shared with its provenance, pinned by releases.json's sha256", async () => {
      expect(siteEntry.judgeProfile?.path).toBe('judge-profiles/epstein-bench-v1.0.json');
      expect(await sha256Hex(new Uint8Array(profileBytes))).toBe(siteEntry.judgeProfile!.sha256);
      const { provenance, ...rest } = JSON.parse(profileBytes.toString('utf8')) as Record<string, unknown>;
      expect(rest).toEqual(JSON.parse(readFileSync(path.join(v10Dir, 'judge-profile.json'), 'utf8')));
      expect(provenance).toMatchObject({ benchmark_commit: pinned.pathname.split('/')[3] });
    });

    const session = async (sha256 = siteEntry.judgeProfile!.sha256) => {
      const s = new ScoreSession(new MemoryJudgeCacheStore(), { baseHref: 'http://localhost/' });
      const info = await s.useRelease({
        kind: 'url',
        base: mirror.url,
        layout: 'repository',
        judgeProfile: { url: `${mirror.url}site/judge-profile.json`, sha256 },
      });
      return { s, info };
    };

    it('with metadata.json and without, the browser path writes the CLI bytes', async () => {
      const { s, info } = await session();
      expect(info.hasProfile).toBe(true);
      expect(info.profileSource).toContain('fcad921e');
      expect(s.inputs().profile).toMatchObject({ model: 'gpt-5.5-2026-04-23', promptVersion: 'v2' });
      expect(s.inputs().profile?.source).toContain("the site's copy");
      const imported = await s.importCache('verdicts.json', new Blob([readFileSync(cacheFile)]));
      expect(imported.imported).toBeGreaterThan(1000);

      const sub = path.join(v10Dir, 'submissions/bm25-reference');
      const fromCli = await cliScores(
        path.join(v10Dir, 'full/tasks.jsonl'),
        path.join(sub, 'predictions.jsonl'),
        siteProfileFile,
        cacheFile,
      );
      await s.useReleaseSubmission('primary', 'bm25-reference');
      const withMeta = await s.score('primary');
      expect(withMeta.status).toBe('scored');
      if (withMeta.status !== 'scored') return;
      expect(reportFields(withMeta.scorecard.scoresJson)).toEqual({
        system_name: 'bm25 (reference)',
        split: 'full',
        dataset_version: 'v1.0',
      });
      expect(withMeta.scorecard.scoresJson).toBe(fromCli);

      const lone = path.join(tmp, 'lone');
      mkdirSync(lone, { recursive: true });
      copyFileSync(path.join(sub, 'predictions.jsonl'), path.join(lone, 'predictions.jsonl'));
      const loneCli = await cliScores(
        path.join(v10Dir, 'full/tasks.jsonl'),
        path.join(lone, 'predictions.jsonl'),
        siteProfileFile,
        cacheFile,
      );
      await s.setPredictions(
        'primary',
        'predictions.jsonl',
        new Blob([readFileSync(path.join(lone, 'predictions.jsonl'))]),
      );
      const without = await s.score('primary');
      expect(without.status).toBe('scored');
      if (without.status !== 'scored') return;
      expect(reportFields(without.scorecard.scoresJson)).toEqual({
        system_name: undefined,
        split: 'full',
        dataset_version: 'v1.0',
      });
      expect(without.scorecard.scoresJson).toBe(loneCli);
    }, 120_000);

    it('a site copy that differs from its pin is refused, and the page says why', async () => {
      const { s, info } = await session('0'.repeat(64));
      expect(info.hasProfile).toBe(false);
      expect(info.profileError).toMatch(/epstein|judge-profile\.json: sha256 [0-9a-f]{64} differs from its pin/);
      expect(s.inputs().error).toBe(info.profileError);
    });
  },
);
