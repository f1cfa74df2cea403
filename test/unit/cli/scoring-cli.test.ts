/** The scoring commands run as a user runs them: `npx tsx src/cli/main.ts <command> ...`. */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../support/cli.ts';
import { writeJudgeCacheEntry } from '../../../src/adapters/node/judge-cache-fs.ts';
import { goldenDir, hasShared, projectRoot, sharedNote, v10Dir } from '../../support/shared.ts';

const golden = (name: string, file: string) => path.join(goldenDir, 'scoring', name, file);
const profile = path.join(v10Dir, 'judge-profile.json');

describe.runIf(hasShared)(`scoring CLI${hasShared ? '' : ` (${sharedNote})`}`, () => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'scoring-cli-'));

  it('score writes the golden scores.json byte for byte (exit 0), from a verdicts map and from a cache folder', async () => {
    const name = 'sample-a-edge-seed9';
    const out = path.join(tmp, 'scores.json');
    const base = [
      'score',
      '--tasks',
      golden(name, 'tasks.jsonl'),
      '--predictions',
      golden(name, 'predictions.jsonl'),
      '--judge-profile',
      profile,
    ];
    const extras = ['--system-name', 'sample-a-edge', '--split', 'full', '--dataset-version', 'v1.0', '--out', out];
    const r = await cli([...base, '--judge-cache', golden(name, 'verdicts.json'), ...extras]);
    expect(r.stderr).toContain('wrote');
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(golden(name, 'scores.json'), 'utf8'));

    const folder = path.join(tmp, 'llm_cache');
    const verdicts = JSON.parse(readFileSync(golden(name, 'verdicts.json'), 'utf8')) as Record<string, string>;
    for (const [key, reply] of Object.entries(verdicts)) await writeJudgeCacheEntry(folder, key, reply);
    const out2 = path.join(tmp, 'scores2.json');
    const r2 = await cli([...base, '--judge-cache', folder, ...extras.slice(0, -1), out2]);
    expect(r2.code).toBe(0);
    expect(readFileSync(out2, 'utf8')).toBe(readFileSync(golden(name, 'scores.json'), 'utf8'));
  }, 60_000);

  it('exits 3 when a judge call is missing from the cache, listing the keys', async () => {
    const name = 'dev-seed7';
    const verdicts = JSON.parse(readFileSync(golden(name, 'verdicts.json'), 'utf8')) as Record<string, string>;
    const [dropped] = Object.keys(verdicts);
    delete verdicts[dropped!];
    const partial = path.join(tmp, 'partial.json');
    writeFileSync(partial, JSON.stringify(verdicts));
    const r = await cli([
      'score',
      '--tasks',
      golden(name, 'tasks.jsonl'),
      '--predictions',
      golden(name, 'predictions.jsonl'),
      '--judge-profile',
      profile,
      '--judge-cache',
      partial,
    ]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(dropped!);
  }, 60_000);

  it('exits 2 on bad usage, with the usage text, and on a key variable that is not set', async () => {
    const r = await cli(['score', '--tasks']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('usage: npm run cli -- score');
    const live = await cli([
      'score',
      '--tasks',
      'x',
      '--predictions',
      'y',
      '--judge-profile',
      'z',
      '--key-env',
      'EBX_UNSET_KEY_VARIABLE',
    ]);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('environment variable EBX_UNSET_KEY_VARIABLE (--key-env) is not set or empty');
    const help = await cli(['compare', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: npm run cli -- compare');
  }, 60_000);

  it('scores predictions that validate refuses, as score.py does, warning about each odd value (exit 0)', async () => {
    const name = 'odd-doc-lists';
    const dir = path.join(projectRoot, 'test', 'fixtures', 'scoring-cases', name);
    const out = path.join(tmp, 'odd.json');
    const r = await cli([
      'score',
      '--tasks',
      path.join(v10Dir, 'full', 'tasks-sample.jsonl'),
      '--predictions',
      path.join(dir, 'predictions.jsonl'),
      '--judge-profile',
      profile,
      '--judge-cache',
      path.join(dir, 'verdicts.json'),
      '--system-name',
      name,
      '--split',
      'full',
      '--dataset-version',
      'v1.0',
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning(s), each saying how the canonical scorer reads the value');
    expect(r.stderr).toContain(
      'warning: line 3, field citations[0]: expected a string, found integer 1; score.py reads it as "1" (str(entry))',
    );
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(path.join(dir, 'scores.json'), 'utf8'));
  }, 60_000);

  it('exits 1 on invalid predictions, naming file, line and field', async () => {
    const bad = path.join(tmp, 'bad.jsonl');
    writeFileSync(bad, '{"task_id": 1}\n');
    const name = 'dev-seed7';
    const r = await cli([
      'score',
      '--tasks',
      golden(name, 'tasks.jsonl'),
      '--predictions',
      bad,
      '--judge-profile',
      profile,
      '--judge-cache',
      golden(name, 'verdicts.json'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}: 51 problem(s)`);
    expect(r.stderr).toContain('line 1, field task_id: expected a string, found integer 1');
  }, 60_000);

  it('validate accepts a bundle whose committed scores follow from its predictions, compare and check-leaderboard report', async () => {
    const name = 'dev-seed7';
    const bundle = path.join(tmp, 'bundle');
    mkdirSync(bundle);
    copyFileSync(golden(name, 'predictions.jsonl'), path.join(bundle, 'predictions.jsonl'));
    copyFileSync(golden(name, 'scores.json'), path.join(bundle, 'scores.json'));
    const manifestPath = path.join(v10Dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      splits: { dev: { questions_sha256: string } };
    };
    const meta = {
      system_name: 'synthetic-dev',
      description: '',
      split: 'dev',
      dataset_version: 'v1.0',
      questions_sha256: manifest.splits.dev.questions_sha256,
    };
    writeFileSync(path.join(bundle, 'metadata.json'), JSON.stringify(meta, null, 2));
    const args = [
      'validate',
      bundle,
      '--tasks',
      golden(name, 'tasks.jsonl'),
      '--judge-profile',
      profile,
      '--judge-cache',
      golden(name, 'verdicts.json'),
      '--manifest',
      manifestPath,
    ];
    const ok = await cli(args);
    expect(ok.stderr).not.toContain('FAIL');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('committed scores.json matches');

    writeFileSync(path.join(bundle, 'metadata.json'), JSON.stringify({ ...meta, questions_sha256: 'f'.repeat(64) }));
    const tampered = await cli(args);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain('questions_sha256 does not match');
    writeFileSync(path.join(bundle, 'metadata.json'), JSON.stringify(meta, null, 2));

    // without --manifest the pin is still checked: the manifest is found two levels above a bundle in
    // <release>/submissions/<slug>, the split's questions file next to it
    const release = path.join(tmp, 'release');
    mkdirSync(path.join(release, 'dev'), { recursive: true });
    mkdirSync(path.join(release, 'submissions'));
    copyFileSync(manifestPath, path.join(release, 'manifest.json'));
    const nested = path.join(release, 'submissions', 'synthetic-dev');
    mkdirSync(nested);
    for (const f of ['predictions.jsonl', 'scores.json', 'metadata.json'])
      copyFileSync(path.join(bundle, f), path.join(nested, f));
    const noQuestions = await cli([...args.slice(0, 1), nested, ...args.slice(2, -2)]);
    expect(noQuestions.code).toBe(1);
    expect(noQuestions.stderr).toContain(
      `no questions file of split "dev" found next to ${path.join(release, 'manifest.json')}`,
    );
    copyFileSync(path.join(v10Dir, 'dev', 'questions.jsonl'), path.join(release, 'dev', 'questions.jsonl'));
    const found = await cli([...args.slice(0, 1), nested, ...args.slice(2, -2)]);
    expect(found.stderr).not.toContain('FAIL');
    expect(found.stdout).toContain(
      `matches metadata, ${path.join(release, 'dev', 'questions.jsonl')} and the pin in ${path.join(release, 'manifest.json')}`,
    );
    expect(found.code).toBe(0);
    // no manifest anywhere near: a clear failure, never a silent skip
    const lonely = await cli([...args.slice(0, -2)]);
    expect(lonely.code).toBe(1);
    expect(lonely.stderr).toContain('no manifest.json found to check the questions pin against');
    // a pinned, unmodified questions file but a tasks file of another split: not that split's answer key
    const wrongTasks = await cli([
      ...args.slice(0, 2),
      '--tasks',
      golden('sample-a-seed5', 'tasks.jsonl'),
      ...args.slice(4),
    ]);
    expect(wrongTasks.code).toBe(1);
    expect(wrongTasks.stderr).toContain('is not the answer key of split dev');

    const cmp = await cli(['compare', golden(name, 'scores.json'), golden('sample-a-seed5', 'scores.json')]);
    expect(cmp.code).toBe(1);
    expect(cmp.stdout).toContain('MISMATCH');
    const same = await cli(['compare', golden(name, 'scores.json'), golden(name, 'scores.json')]);
    expect(same.code).toBe(0);

    const lb = await cli(['check-leaderboard', path.join(v10Dir, 'leaderboard.json'), manifestPath]);
    expect(lb.code).toBe(0);
    expect(lb.stdout).toContain('7/7 rows consistent');
  }, 90_000);
});
