/**
 * What the reliability audit found in the CLI (issue 10, point 4.9): a corrupt parquet file, an
 * --out that is a folder, unreadable files, 100k-deep JSON, and terminal control sequences from
 * untrusted input. Each is run as a user runs it, through src/cli/main.ts.
 */
import { chmodSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli as runCli, spawnCli, type CliRun } from '../../support/cli.ts';
import { terminalSafe } from '../../../src/cli/terminal.ts';
import {
  hasShared,
  projectRoot as projectRootDir,
  goldenDir,
  sharedNote as sharedSkipReason,
  v10Dir,
} from '../../support/shared.ts';

/**
 * Runs the CLI in process; `asOtherUser` spawns it as uid/gid 65534 instead (file permissions do
 * not stop root, so the process boundary is what that test needs).
 */
function cli(args: string[], options: { asOtherUser?: boolean } = {}): Promise<CliRun> {
  return options.asOtherUser ? spawnCli(args, { asOtherUser: true }) : runCli(args, { env: { EBX_DEBUG: undefined } });
}

/** A temporary folder other users can enter (mkdtemp makes 0700 folders). */
function openTmp(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

const STACK_LINE = /^\s+at .+[:(]/m;
const profile = path.join(v10Dir, 'judge-profile.json');
const golden = (name: string, file: string) => path.join(goldenDir, 'scoring', name, file);

describe('CLI: corrupt parquet, --out folders, unreadable files, deep JSON', () => {
  it('release-check names a corrupt parquet file and says what is wrong, with no stack trace', async () => {
    const dir = openTmp('ebx-parquet-');
    const release = path.join(dir, 'release');
    cpSync(path.join(projectRootDir, 'test/fixtures/mini-release'), release, { recursive: true });
    const descriptorPath = path.join(release, 'release.json');
    const descriptor = JSON.parse(readFileSync(descriptorPath, 'utf8')) as { sha256: Record<string, string> };
    delete descriptor.sha256['docs.parquet']; // unpinned, so the reader (not the pin) meets the damage
    writeFileSync(descriptorPath, JSON.stringify(descriptor, null, 2));
    writeFileSync(path.join(release, 'docs.parquet'), 'PAR1 this is not a parquet file');
    const r = await cli(['release-check', release]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'INVALID docs.parquet: not a readable parquet file (not a parquet file (no PAR1 at its end))',
    );
    expect(`${r.stdout}${r.stderr}`).not.toMatch(STACK_LINE);
  }, 60_000);

  it.runIf(hasShared)(
    `score refuses an --out that is a folder before scoring, clearly${hasShared ? '' : ` (${sharedSkipReason})`}`,
    async () => {
      const out = openTmp('ebx-out-');
      const r = await cli([
        'score',
        '--tasks',
        golden('dev-seed7', 'tasks.jsonl'),
        '--predictions',
        golden('dev-seed7', 'predictions.jsonl'),
        '--judge-profile',
        profile,
        '--judge-cache',
        golden('dev-seed7', 'verdicts.json'),
        '--out',
        out,
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`cannot write scores.json to ${out}: it is a folder`);
      expect(r.stderr).not.toMatch(STACK_LINE);
    },
    60_000,
  );

  it.runIf(hasShared)(
    `reports an unreadable file as unreadable, not missing (score, validate, compare, release-check)${hasShared ? '' : ` (${sharedSkipReason})`}`,
    async () => {
      const dir = openTmp('ebx-eacces-');
      const locked = path.join(dir, 'predictions.jsonl');
      writeFileSync(locked, readFileSync(golden('dev-seed7', 'predictions.jsonl')));
      chmodSync(locked, 0o000);
      const score = await cli(
        [
          'score',
          '--tasks',
          golden('dev-seed7', 'tasks.jsonl'),
          '--predictions',
          locked,
          '--judge-profile',
          profile,
          '--judge-cache',
          golden('dev-seed7', 'verdicts.json'),
        ],
        { asOtherUser: true },
      );
      expect(score.stderr).toContain(`cannot read predictions file ${locked}: it is unreadable (permission denied)`);
      expect(score.code).toBe(2);

      writeFileSync(path.join(dir, 'metadata.json'), '{}');
      chmodSync(path.join(dir, 'metadata.json'), 0o644);
      const validate = await cli(
        [
          'validate',
          dir,
          '--tasks',
          golden('dev-seed7', 'tasks.jsonl'),
          '--judge-profile',
          profile,
          '--judge-cache',
          golden('dev-seed7', 'verdicts.json'),
        ],
        { asOtherUser: true },
      );
      expect(validate.stderr).toContain(`${locked} is unreadable (permission denied)`);
      expect(validate.stderr).not.toContain('must contain');

      const compare = await cli(['compare', locked, golden('dev-seed7', 'scores.json')], { asOtherUser: true });
      expect(compare.stderr).toContain('it is unreadable (permission denied)');
      expect(compare.code).toBe(2);

      const release = path.join(dir, 'release');
      cpSync(path.join(projectRootDir, 'test/fixtures/mini-release'), release, { recursive: true });
      chmodSync(path.join(release, 'full', 'tasks.jsonl'), 0o000);
      const check = await cli(['release-check', release], { asOtherUser: true });
      expect(check.stdout).toContain(
        'UNREADABLE full/tasks.jsonl: the file exists but is unreadable (permission denied)',
      );
      expect(check.code).toBe(1);
      for (const r of [score, validate, compare, check]) expect(`${r.stdout}${r.stderr}`).not.toMatch(STACK_LINE);
    },
    120_000,
  );

  it('compare refuses 100k-deep JSON with a clear error instead of overflowing the stack', async () => {
    const dir = openTmp('ebx-deep-');
    const deep = path.join(dir, 'deep.json');
    writeFileSync(deep, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    const shallow = path.join(dir, 'ok.json');
    writeFileSync(shallow, '{"n_tasks": 1}');
    const r = await cli(['compare', deep, shallow]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${deep}: expected committed scores as JSON, found JSON Python cannot read`);
    expect(r.stderr).toContain('nested more than 1497 levels deep');
    expect(r.stderr).not.toContain('Maximum call stack');
    expect(r.stderr).not.toMatch(STACK_LINE);
  }, 60_000);
});

describe('CLI: control sequences from untrusted input never reach the terminal raw', () => {
  const hostile = 'evil\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202eexe.txt\r';

  it('terminalSafe shows ESC, BEL, C1, bidi overrides and a lone CR as visible escapes, keeping \\n and \\t', () => {
    expect(terminalSafe(`a\tb\n${hostile}\r\n`)).toBe(
      'a\tb\nevil\\x1b[2J\\x1b]0;pwned\\x07\\x9b31m\\u202eexe.txt\\x0d\r\n',
    );
  });

  it('check-leaderboard, compare and score print hostile names and ids neutralised', async () => {
    const dir = openTmp('ebx-esc-');
    const leaderboard = path.join(dir, 'leaderboard.json');
    writeFileSync(
      leaderboard,
      JSON.stringify({
        entries: [{ system_name: hostile, per_type: { single_hop: 1 }, overall_cited_correctness: 0.5 }],
      }),
    );
    const manifest = path.join(dir, 'manifest.json');
    writeFileSync(
      manifest,
      JSON.stringify({ version: 'v1.0', splits: { full: { n_tasks: 1, by_type: { single_hop: 1 } } } }),
    );
    const lb = await cli(['check-leaderboard', leaderboard, manifest]);
    expect(lb.stdout).toContain('evil\\x1b[2J');
    expect(lb.code).toBe(1);

    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    writeFileSync(a, JSON.stringify({ [hostile]: 1 }));
    writeFileSync(b, JSON.stringify({ [hostile]: 2 }));
    const cmp = await cli(['compare', a, b]);
    expect(cmp.code).toBe(1);
    expect(cmp.stdout).toContain('\\u202eexe.txt');

    const tasks = path.join(dir, 'tasks.jsonl');
    writeFileSync(
      tasks,
      `${JSON.stringify({ task_id: 't1', type: 'single_hop', question: 'q?', answer: 'a', gold_docs: [] })}\n`,
    );
    const preds = path.join(dir, 'predictions.jsonl');
    writeFileSync(preds, `${JSON.stringify({ task_id: hostile, answer: 'x' })}\n`);
    const sc = await cli([
      'score',
      '--tasks',
      tasks,
      '--predictions',
      preds,
      '--judge-profile',
      path.join(projectRootDir, 'static-data/sample/judge-profile.json'),
      '--judge-cache',
      a,
    ]);
    expect(sc.code).toBe(1);
    expect(sc.stderr).toContain('unknown');

    for (const r of [lb, cmp, sc]) {
      const all = `${r.stdout}${r.stderr}`;
      for (const raw of ['\u001b', '\u0007', '\u009b', '\u202e']) expect(all).not.toContain(raw);
      expect(all.replace(/\r\n/g, '')).not.toContain('\r');
    }
  }, 90_000);
});
