/**
 * Issue 25.22: a release's judge profile with bootstrap.iterations of 3·10^7 kept scoring busy
 * for minutes. Both readers of a profile (the scorer's and the release loader's) bound its values
 * and say which limit was broken; a long bootstrap prints its progress on stderr.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IssueList } from '../../../src/core/release/issues.ts';
import { MAX_BOOTSTRAP_ITERATIONS } from '../../../src/core/release/profile-limits.ts';
import { judgeProfileValidator } from '../../../src/core/release/schemas.ts';
import { LONG_BOOTSTRAP_ITERATIONS } from '../../../src/cli/commands/score.ts';
import { cli } from '../../support/cli.ts';
import { projectRoot } from '../../support/shared.ts';

const sample = path.join(projectRoot, 'static-data/sample');
const profile = JSON.parse(readFileSync(path.join(sample, 'judge-profile.json'), 'utf8')) as {
  gate_max_citations: number;
  bootstrap: { iterations: number };
};
const tmp = mkdtempSync(path.join(tmpdir(), 'ebx-profile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function profileWith(name: string, edit: (p: typeof profile) => void): string {
  const copy = structuredClone(profile);
  edit(copy);
  const file = path.join(tmp, `${name}.json`);
  writeFileSync(file, JSON.stringify(copy));
  return file;
}

const scoreArgs = (profileFile: string, out: string) => [
  'score',
  '--tasks',
  path.join(sample, 'full/tasks.jsonl'),
  '--predictions',
  path.join(sample, 'submissions/bm25-top-doc-sample/predictions.jsonl'),
  '--judge-profile',
  profileFile,
  '--judge-cache',
  path.join(sample, 'judge-cache.json'),
  '--out',
  out,
];

describe('judge profile bounds', () => {
  it('score refuses 3·10^7 bootstrap iterations at once, naming the field and the limit', async () => {
    const out = path.join(tmp, 'never.json');
    const r = await cli(
      scoreArgs(
        profileWith('huge', (p) => (p.bootstrap.iterations = 3e7)),
        out,
      ),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'field bootstrap.iterations: 30000000 is too many (the limit on bootstrap iterations is 100,000; the benchmark uses 1,000)',
    );
    expect(() => readFileSync(out)).toThrow();
  });

  it('score refuses a citation gate over its limit', async () => {
    const r = await cli(
      scoreArgs(
        profileWith('gate', (p) => (p.gate_max_citations = 1e9)),
        path.join(tmp, 'g.json'),
      ),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'field gate_max_citations: 1000000000 is too large (the limit on the citation gate is 100',
    );
  });

  it("the release loader's validator says which limit a profile breaks", () => {
    const issues = new IssueList();
    const huge = structuredClone(profile);
    huge.bootstrap.iterations = 3e7;
    expect(judgeProfileValidator(huge, { file: 'judge-profile.json' }, issues)).toBeUndefined();
    expect(issues.items.map((i) => [i.field, i.message])).toEqual([
      ['bootstrap.iterations', expect.stringContaining(`an integer between 1 and ${MAX_BOOTSTRAP_ITERATIONS}`)],
    ]);
    const ok = structuredClone(profile);
    ok.bootstrap.iterations = MAX_BOOTSTRAP_ITERATIONS;
    expect(judgeProfileValidator(ok, { file: 'judge-profile.json' }, new IssueList())).toBeDefined();
  });

  it('a long bootstrap prints its progress on stderr; the usual one stays quiet', async () => {
    const long = await cli(
      scoreArgs(
        profileWith('long', (p) => (p.bootstrap.iterations = LONG_BOOTSTRAP_ITERATIONS)),
        path.join(tmp, 'long.json'),
      ),
    );
    expect(long.code).toBe(0);
    const lines = long.stderr.split('\n').filter((l) => l.startsWith('bootstrap: '));
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('bootstrap: 2,000/20,000 iterations (10%)');
    expect(lines.at(-1)).toBe('bootstrap: 20,000/20,000 iterations (100%)');

    const usual = await cli(scoreArgs(path.join(sample, 'judge-profile.json'), path.join(tmp, 'usual.json')));
    expect(usual.code).toBe(0);
    expect(usual.stderr).not.toContain('bootstrap: ');
  });
});
