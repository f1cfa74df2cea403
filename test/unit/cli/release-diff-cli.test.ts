/** `release-diff` run as a user runs it: the report, --json, the shared-tasks files, usage errors. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/shared.ts';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'src/cli/main.ts', 'release-diff', ...args],
      { cwd: projectRoot, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const sample = 'static-data/sample';
const predictions = `${sample}/submissions/bm25-top-doc-sample/predictions.jsonl`;

describe('release-diff CLI', () => {
  it('reports a release against itself as unchanged and writes its shared tasks and predictions', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'release-diff-cli-'));
    const tasksOut = path.join(out, 'tasks.jsonl');
    const predictionsOut = path.join(out, 'predictions.jsonl');
    const r = await cli([
      sample,
      sample,
      '--shared-tasks',
      tasksOut,
      '--predictions',
      predictions,
      '--shared-predictions',
      predictionsOut,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/full: A 150 tasks, B 150 tasks \(same questions file\)/);
    expect(r.stdout).toMatch(/added 0, removed 0, kept 150 \(unchanged 150, changed 0; answer keys compared on 150\)/);
    expect(r.stdout).not.toMatch(/WARNING/);
    expect(readFileSync(tasksOut, 'utf8')).toBe(
      readFileSync(path.join(projectRoot, sample, 'full/tasks.jsonl'), 'utf8'),
    );
    expect(readFileSync(predictionsOut, 'utf8').trim().split('\n').length).toBe(150);
  });

  it('--json gives the whole diff', async () => {
    const r = await cli([sample, sample, '--json']);
    expect(r.code).toBe(0);
    const diff = JSON.parse(r.stdout) as { a: { version: string }; splits: { split: string; kept: string[] }[] };
    expect(diff.a.version).toBe('v1.0-sample');
    expect(diff.splits.map((s) => [s.split, s.kept.length])).toEqual([
      ['full', 150],
      ['dev', 25],
    ]);
  });

  it('usage errors exit 2 and say what is wrong', async () => {
    const one = await cli([sample]);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/expected two release folders/);
    const lone = await cli([sample, sample, '--predictions', predictions]);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toMatch(/--predictions and --shared-predictions go together/);
  });
});
