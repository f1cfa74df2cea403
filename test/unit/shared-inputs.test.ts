/** Parity tests may skip without ../shared on a laptop, never in CI. */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { locateShared, projectRoot } from '../support/shared.ts';

const missing = path.join(mkdtempSync(path.join(tmpdir(), 'no-shared-')), 'shared');

describe('locating ../shared', () => {
  it('fails in CI when the folder is missing, naming it', () => {
    expect(() => locateShared({ CI: 'true', SHARED_DIR: missing })).toThrow(
      `CI is set but the shared test inputs are missing: ${missing}/epstein-bench-v1.0, ${missing}/golden.`,
    );
    expect(() => locateShared({ CI: '1', SHARED_DIR: missing })).toThrow(missing);
  });

  it('outside CI, reports the folder absent so that tests skip saying so', () => {
    for (const CI of [undefined, '', 'false', '0']) {
      const shared = locateShared({ CI, SHARED_DIR: missing });
      expect(shared.present).toBe(false);
      expect(shared.skipNote).toBe(`SKIPPED: ${missing}/epstein-bench-v1.0 and ${missing}/golden absent`);
    }
  });

  it('defaults to ../shared next to the project', () => {
    expect(locateShared({}).dir).toBe(path.resolve(projectRoot, '../shared'));
  });

  it('makes a vitest run with CI=true fail, naming the folder, when it is missing', async () => {
    const vitest = path.join(projectRoot, 'node_modules/.bin/vitest');
    const run = promisify(execFile)(vitest, ['run', 'test/unit/core/scoring/golden.test.ts'], {
      cwd: projectRoot,
      env: { ...process.env, CI: 'true', SHARED_DIR: missing, NO_COLOR: '1' },
    });
    const failure = await run.then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure, 'the run should have failed').toBeDefined();
    expect(failure!.code).not.toBe(0);
    expect(failure!.stdout + failure!.stderr).toContain(
      `the shared test inputs are missing: ${missing}/epstein-bench-v1.0`,
    );
  });
});
