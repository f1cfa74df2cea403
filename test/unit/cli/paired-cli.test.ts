/** `paired` run as a user runs it: the text, --json, the pairwise table and the exit codes. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/shared.ts';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'src/cli/main.ts', 'paired', ...args],
      { cwd: projectRoot, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const sample = 'static-data/sample';

/** A judge cache holding no reply. */
function emptyCache(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'paired-')), 'verdicts.json');
  writeFileSync(file, '{}');
  return file;
}
const tasks = ['--tasks', `${sample}/full/tasks.jsonl`];
const bm25 = `${sample}/submissions/bm25-top-doc-sample`;
const closedBook = `${sample}/submissions/closed-book-sample-control`;

describe('paired (CLI)', () => {
  it('--json: the difference is A minus B as the scorer reports them, with the interval, p and per type', async () => {
    const r = await cli([bm25, closedBook, ...tasks, '--metric', 'recall@5', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      system_a: string;
      system_b: string;
      metric: string;
      difference: number;
      ci95: [number, number];
      p: number;
      perType: Array<{ type: string; n: number }>;
      bootstrap: { seed: number; iterations: number };
    };
    expect([out.system_a, out.system_b, out.metric]).toEqual([
      'bm25-top-doc-sample',
      'closed-book-sample-control',
      'recall@5',
    ]);
    // closed-book retrieves nothing: the difference is bm25-top-doc-sample's committed recall@5
    const committed = JSON.parse(readFileSync(path.join(projectRoot, bm25, 'scores.json'), 'utf8')) as {
      retrieval: { 'recall@5': number };
    };
    expect(out.difference).toBe(committed.retrieval['recall@5']);
    expect(out.ci95[0]).toBeGreaterThan(0);
    expect(out.p).toBe(0);
    expect(out.bootstrap).toMatchObject({ seed: 20260705, iterations: 1000 });
    expect(out.perType.map((t) => t.type)).toEqual(['single_hop', 'aggregation', 'dossier', 'timeline']);
  });

  it('prints the figures as text, saying how the interval was drawn', async () => {
    const r = await cli([bm25, bm25, ...tasks]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/difference +0\.0 +\(A − B\)/);
    expect(r.stdout).toMatch(/95% CI +\[0\.0, 0\.0\]/);
    expect(r.stdout).toMatch(/\bp +1\.0\n/);
    expect(r.stdout).toContain('PCG64 seed 20260705');
  });

  it('--submissions DIR: every pair with Holm-corrected p-values', async () => {
    const r = await cli([
      '--submissions',
      `${sample}/submissions`,
      ...tasks,
      '--metric',
      'uncited',
      '--judge-cache',
      `${sample}/judge-cache.json`,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('3 pairs of 3 submissions');
    expect(r.stdout.match(/^ {2}\S+ +\S+ +-?\d\.\d{4} /gm)).toHaveLength(3);
  });

  it('exit 1 when the judge cache lacks verdicts, 2 on wrong usage', async () => {
    const missing = await cli([bm25, closedBook, ...tasks, '--metric', 'cited', '--judge-cache', emptyCache()]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/lacks the verdicts of \d+ of 150 tasks/);
    const noCache = await cli([bm25, closedBook, ...tasks, '--metric', 'cited']);
    expect(noCache.code).toBe(2);
    expect(noCache.stderr).toContain('needs --judge-cache');
    const badMetric = await cli([bm25, closedBook, ...tasks, '--metric', 'recall@7']);
    expect(badMetric.code).toBe(2);
    expect(badMetric.stderr).toContain('--metric must be one of');
    const one = await cli([bm25, ...tasks]);
    expect(one.code).toBe(2);
  });
});
