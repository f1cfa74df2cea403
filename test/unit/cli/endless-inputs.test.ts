/**
 * Issue 25, items 19 and 20, run as the attacks were: files that never end (a link to /dev/zero,
 * FIFOs nobody writes to, a file over the size limit) and symbolic links that leave the release
 * folder, for reads and for build-index's writes. Each must be refused at once with a message that
 * names the file and the rule; without the fix these runs hang or grow without bound (the test's
 * timeout then fails them).
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_FILE_BYTES } from '../../../src/adapters/node/regular-file.ts';
import { cli, SAMPLE_JUDGE_ARGS, spawnCli } from '../../support/cli.ts';
import { projectRoot } from '../../support/shared.ts';

const sample = path.join(projectRoot, 'static-data/sample');
const submission = path.join(sample, 'submissions/bm25-top-doc-sample');
const tmp = mkdtempSync(path.join(tmpdir(), 'ebx-endless-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let made = 0;
function folder(name: string): string {
  const dir = path.join(tmp, `${++made}-${name}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function fifo(file: string): string {
  execFileSync('mkfifo', [file]);
  return file;
}

/** A copy of the mini fixture release, with `rel` replaced by what `place` puts there. */
function miniReleaseWith(rel: string, place: (file: string) => void): string {
  const release = path.join(folder('release'), 'mini');
  cpSync(path.join(projectRoot, 'test/fixtures/mini-release'), release, { recursive: true });
  rmSync(path.join(release, rel), { recursive: true });
  place(path.join(release, rel));
  return release;
}

/** A copy of the sample's submission folder with predictions.jsonl replaced by what `place` puts there. */
function submissionWith(place: (file: string) => void): string {
  const dir = path.join(folder('submission'), 'bm25-top-doc-sample');
  cpSync(submission, dir, { recursive: true });
  rmSync(path.join(dir, 'predictions.jsonl'));
  place(path.join(dir, 'predictions.jsonl'));
  return dir;
}

const tasks = path.join(sample, 'full/tasks.jsonl');
const scoreArgs = (predictions: string) => [
  'score',
  '--tasks',
  tasks,
  '--predictions',
  predictions,
  ...SAMPLE_JUDGE_ARGS,
  '--out',
  path.join(tmp, 'scores.json'),
];

describe('files that never end are refused, naming the file (issue 25.19)', () => {
  it('release-check: docs.parquet a link to /dev/zero', async () => {
    const release = miniReleaseWith('docs.parquet', (f) => symlinkSync('/dev/zero', f));
    const r = await cli(['release-check', release]);
    expect(r.code).toBe(1);
    // the link leaves the folder, which is refused before the device is opened
    expect(r.stdout).toMatch(
      /REFUSED .*docs\.parquet: .*leads outside the release folder .*\(to \/dev\/zero\); refused/,
    );
  });

  it('release-check: a FIFO in place of a JSONL file', async () => {
    const release = miniReleaseWith('full/tasks.jsonl', fifo);
    const r = await cli(['release-check', release]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/tasks\.jsonl: is a named pipe \(FIFO\), not a regular file/);
  });

  it('task-ids: a FIFO in the release folder', async () => {
    const release = miniReleaseWith('full/questions.jsonl', fifo);
    const r = await cli(['task-ids', release, '--out', path.join(tmp, 'ids.txt')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/questions\.jsonl: is a named pipe \(FIFO\)/);
  });

  it('score, validate and recompute: predictions a FIFO', async () => {
    const score = await cli(scoreArgs(fifo(path.join(folder('fifo'), 'predictions.jsonl'))));
    expect(score.code).toBe(2);
    expect(score.stderr).toMatch(/cannot read predictions file .*predictions\.jsonl: it is not a regular file/);

    const sub = submissionWith(fifo);
    const validate = await cli(['validate', sub, '--tasks', tasks, ...SAMPLE_JUDGE_ARGS]);
    expect(validate.code).not.toBe(0);
    expect(validate.stdout + validate.stderr).toMatch(/predictions\.jsonl.*not a regular file/);

    const recompute = await cli(['recompute', sub, '--tasks', tasks]);
    expect(recompute.code).not.toBe(0);
    expect(recompute.stderr).toMatch(/predictions\.jsonl.*not a regular file/);
  });

  it('score: predictions a link to /dev/zero, and a file over the size limit', async () => {
    const zero = path.join(folder('zero'), 'predictions.jsonl');
    symlinkSync('/dev/zero', zero);
    const r = await cli(scoreArgs(zero));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/predictions\.jsonl: it is not a regular file/);

    // sparse: as large as the limit says without taking the disk space
    const big = path.join(folder('big'), 'predictions.jsonl');
    writeFileSync(big, '');
    truncateSync(big, MAX_INPUT_FILE_BYTES + 1);
    const over = await cli(scoreArgs(big));
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/predictions\.jsonl: it is larger than the 256 MiB limit for this file; refused/);
  });

  it('compare, check-leaderboard, the judge profile and the judge cache: FIFOs', async () => {
    const dir = folder('fifos');
    const pipe = fifo(path.join(dir, 'pipe.json'));
    const compare = await cli(['compare', pipe, path.join(submission, 'scores.json')]);
    expect(compare.code).toBe(2);
    expect(compare.stderr).toMatch(/pipe\.json: it is a named pipe \(FIFO\), not a regular file/);

    const leaderboard = await cli(['check-leaderboard', pipe, path.join(sample, 'manifest.json')]);
    expect(leaderboard.code).not.toBe(0);
    expect(leaderboard.stderr).toMatch(/pipe\.json: it is a named pipe/);

    const profile = scoreArgs(path.join(submission, 'predictions.jsonl'));
    profile[profile.indexOf('--judge-profile') + 1] = pipe;
    const p = await cli(profile);
    expect(p.code).not.toBe(0);
    expect(p.stderr).toMatch(/judge profile .*pipe\.json: it is a named pipe/);

    const cache = scoreArgs(path.join(submission, 'predictions.jsonl'));
    cache[cache.indexOf('--judge-cache') + 1] = pipe;
    const c = await cli(cache);
    expect(c.code).not.toBe(0);
    expect(c.stderr).toMatch(/pipe\.json: is a named pipe \(FIFO\)/);
  });

  it('a real process given a FIFO exits 2 at once (the exit code crosses the process boundary)', async () => {
    const pipe = fifo(path.join(folder('process'), 'scores.json'));
    const r = await spawnCli(['compare', pipe, path.join(submission, 'scores.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/scores\.json: it is a named pipe \(FIFO\), not a regular file/);
  });

  it('audit: spot-check labels a FIFO', async () => {
    const r = await cli(['audit', sample, '--labels', fifo(path.join(folder('labels'), 'labels.jsonl'))]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/labels\.jsonl: is a named pipe \(FIFO\)/);
  });
});

describe('symbolic links that leave the release folder are refused (issue 25.20)', () => {
  it('release-check refuses a release file that is a link to a file outside', async () => {
    const outside = path.join(folder('outside'), 'secret.jsonl');
    writeFileSync(outside, readFileSync(path.join(projectRoot, 'test/fixtures/mini-release/full/tasks.jsonl')));
    const release = miniReleaseWith('full/tasks.jsonl', (f) => symlinkSync(outside, f));
    const r = await cli(['release-check', release]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/tasks\.jsonl: is a symbolic link .*leads outside the release folder/);
  });

  it('release-check refuses a folder of the release that is a link outside', async () => {
    const outside = folder('outside-build');
    cpSync(path.join(projectRoot, 'test/fixtures/mini-release/build'), outside, { recursive: true });
    const release = miniReleaseWith('build', (f) => symlinkSync(outside, f));
    const r = await cli(['release-check', release]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/build.*leads outside the release folder/);
  });

  it('a link that stays inside the folder is read as usual', async () => {
    const release = miniReleaseWith('manifest.json', (f) => symlinkSync('full/../build/../manifest.copy.json', f));
    cpSync(
      path.join(projectRoot, 'test/fixtures/mini-release/manifest.json'),
      path.join(release, 'manifest.copy.json'),
    );
    const r = await cli(['release-check', release]);
    expect(r.stdout).not.toMatch(/REFUSED/);
    expect(r.stdout).toContain('sha256 ok');
  });

  it('build-index refuses an index folder that is a link outside, and writes nothing there', async () => {
    const outside = folder('outside-index');
    const release = path.join(folder('index-release'), 'sample');
    mkdirSync(release);
    for (const f of ['release.json', 'chunks.parquet']) cpSync(path.join(sample, f), path.join(release, f));
    symlinkSync(outside, path.join(release, 'index'));
    const r = await cli(['build-index', release, '--no-dense']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/index[/\\]bm25\.bin: is a symbolic link .*leads outside the release folder/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('build-index refuses release.json a link outside, and leaves the outside file as it was', async () => {
    const outsideDescriptor = path.join(folder('outside-descriptor'), 'release.json');
    cpSync(path.join(sample, 'release.json'), outsideDescriptor);
    const before = readFileSync(outsideDescriptor, 'utf8');
    const release = path.join(folder('descriptor-release'), 'sample');
    mkdirSync(release);
    cpSync(path.join(sample, 'chunks.parquet'), path.join(release, 'chunks.parquet'));
    symlinkSync(outsideDescriptor, path.join(release, 'release.json'));
    const r = await cli(['build-index', release, '--no-dense']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/release\.json: is a symbolic link .*leads outside the release folder/);
    expect(readFileSync(outsideDescriptor, 'utf8')).toBe(before);
    expect(existsSync(path.join(release, 'index'))).toBe(false);
  });
});
