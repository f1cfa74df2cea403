/**
 * `validate <submission-dir>`: what the benchmark's CI does with a submission bundle
 * (submit.validate_bundle + compare_scores.py): metadata.json fields; the questions_sha256 pin,
 * always checked three ways like validate_bundle (metadata == sha256 of the questions file of the
 * split the metadata names == the manifest's pin); predictions as `validate` reads them; a full
 * rescoring from the judge cache (judge_errors must be 0) and the comparison with the committed
 * scores.json.
 */
import { sha256HexSync } from '../../adapters/node/sha256.ts';
import { MAX_INPUT_FILE_BYTES, readRegularFile } from '../../adapters/node/regular-file.ts';
import path from 'node:path';
import type { Manifest, Task } from '../../core/release/types.ts';
import { compareScores } from '../../core/scoring/compare.ts';
import { sha256Hex } from '../../core/release/sha256.ts';
import { questionLine } from '../../core/release/jsonl.ts';
import { UsageError, parseArgs, refuseUnknownSwitches } from '../args.ts';
import { cacheOnlyJudge, openJudgeCache } from '../../adapters/node/judge-cache-fs.ts';
import { InputFileError, fileState, inputFileError, pyToPlain, readJsonFile, stateWords } from '../files.ts';
import { pyJsonLoads } from '../../core/python/json-loads.ts';
import {
  EXIT,
  exitCodeOf,
  loadPredictions,
  loadProfile,
  loadTasks,
  printPredictionProblems,
  runScoring,
} from './score.ts';

const USAGE = `usage: npm run cli -- validate <submission-dir> --tasks <tasks.jsonl>
         --judge-profile <judge-profile.json> --judge-cache <verdicts.json | cache folder>
         [--manifest manifest.json] [--questions questions.jsonl] [--dataset-version V]

Checks a submission folder like the benchmark's CI: metadata.json (system_name, split,
dataset_version, questions_sha256); the questions pin, always: the metadata's hash must equal
the sha256 of the questions file of the split metadata.json names and the manifest's pin for
that split; the tasks file must be that split's answer key; predictions.jsonl as validate reads
it (types, at most 20 citations / retrieved); a full rescoring from the judge cache (no judge
errors allowed); the committed scores.json against the recomputed one with the CI tolerances.

Without --manifest, manifest.json is looked for where releases keep it: next to the tasks'
split folder (<root>/<split>/tasks.jsonl -> <root>/manifest.json), beside the tasks file, two
levels above the bundle (<release>/submissions/<slug>) and at <repo>/dataset/<version>/ (the
benchmark's repository layout). Without --questions, the split's questions file is
<manifest folder>/<split>/questions.jsonl (or what release.json there names).

The dataset_version metadata.json must name is --dataset-version, else the --manifest's
"version", else the dataset_version of the release the bundle sits in
(<release>/submissions/<slug>, its release.json), else v1.0.

exit codes: 0 valid, 1 a check failed, 2 usage, 3 a judge call is missing from the cache,
            4 scoring aborted
`;

const META_KEYS = ['system_name', 'split', 'dataset_version', 'questions_sha256'] as const;

async function fileSha256(file: string): Promise<string> {
  try {
    return sha256HexSync(await readRegularFile(file, MAX_INPUT_FILE_BYTES));
  } catch (error) {
    throw inputFileError(file, 'questions file', error);
  }
}

/** The dataset version a submission must name when --dataset-version is not given. */
async function currentVersion(bundle: string, manifestPath: string | undefined): Promise<string> {
  const read = async (file: string): Promise<Record<string, unknown> | undefined> => {
    if ((await fileState(file)) !== 'file') return undefined;
    const value = await readJsonFile(file, 'a version source');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  };
  const manifest = manifestPath ? await read(manifestPath) : undefined;
  if (typeof manifest?.version === 'string') return manifest.version;
  const descriptor = await read(path.join(path.resolve(bundle), '..', '..', 'release.json'));
  if (typeof descriptor?.dataset_version === 'string') return descriptor.dataset_version;
  return 'v1.0';
}

/** Where a manifest may live, most specific first. */
function manifestCandidates(tasksFile: string, bundle: string, version: string): string[] {
  const tasksDir = path.dirname(path.resolve(tasksFile));
  const bundleDir = path.resolve(bundle);
  const repo = path.dirname(path.dirname(bundleDir));
  return [
    path.join(path.dirname(tasksDir), 'manifest.json'),
    path.join(tasksDir, 'manifest.json'),
    path.join(repo, 'manifest.json'),
    path.join(repo, 'dataset', version, 'manifest.json'),
  ].filter((p, i, all) => all.indexOf(p) === i);
}

async function firstFile(candidates: readonly string[]): Promise<string | undefined> {
  for (const c of candidates) if ((await fileState(c)) === 'file') return c;
  return undefined;
}

/** The questions file of `split`: release.json's path when one sits beside the manifest, else <dir>/<split>/questions.jsonl. */
async function questionsCandidates(manifestPath: string, split: string): Promise<string[]> {
  const root = path.dirname(manifestPath);
  const out: string[] = [];
  const descriptor = path.join(root, 'release.json');
  if ((await fileState(descriptor)) === 'file') {
    const named = (
      (await readJsonFile(descriptor, 'release descriptor')) as { splits?: Record<string, { questions?: unknown }> }
    )?.splits?.[split]?.questions;
    if (typeof named === 'string') out.push(path.join(root, ...named.split('/')));
  }
  out.push(path.join(root, split, 'questions.jsonl'));
  return out;
}

function derivedQuestionsSha(tasks: readonly Task[]): Promise<string> {
  return sha256Hex(tasks.map(questionLine).join(''));
}

export async function run(args: string[]): Promise<number> {
  try {
    const { positional, switches, flags } = parseArgs(args, [
      'tasks',
      'judge-profile',
      'judge-cache',
      'manifest',
      'questions',
      'dataset-version',
    ]);
    if (switches.has('help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return EXIT.ok;
    }
    refuseUnknownSwitches(switches);
    if (positional.length !== 1) throw new UsageError('expected exactly one <submission-dir>');
    for (const name of ['tasks', 'judge-profile', 'judge-cache'])
      if (!flags.has(name)) throw new UsageError(`--${name} is required`);
    const dir = positional[0]!;
    const expectedVersion = flags.get('dataset-version') ?? (await currentVersion(dir, flags.get('manifest')));
    const fail = (message: string): number => {
      process.stderr.write(`FAIL ${message}\n`);
      return EXIT.failed;
    };
    const pass = (message: string): void => {
      process.stdout.write(`ok   ${message}\n`);
    };

    const dirState = await fileState(dir);
    if (dirState !== 'folder')
      throw new InputFileError(
        `cannot read submission folder ${dir}: it is ${dirState === 'file' ? 'a file, not a folder' : dirState === 'missing' ? 'missing (no such folder)' : 'unreadable (permission denied)'}`,
      );
    const metaPath = path.join(dir, 'metadata.json');
    const predsPath = path.join(dir, 'predictions.jsonl');
    for (const file of [metaPath, predsPath]) {
      const state = await fileState(file);
      if (state === 'missing')
        return fail(`bundle must contain metadata.json and predictions.jsonl: ${file} is missing`);
      if (state !== 'file') return fail(`${file} is ${stateWords(state)}`);
    }
    const meta = (await readJsonFile(metaPath, 'metadata')) as Record<string, unknown>;
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
      return fail('metadata.json: expected a JSON object');
    for (const key of META_KEYS) {
      if (typeof meta[key] !== 'string' || meta[key] === '')
        return fail(`metadata.json missing '${key}' (expected a non-empty string)`);
    }
    const m = meta as Record<(typeof META_KEYS)[number], string>;
    if (m.dataset_version !== expectedVersion)
      return fail(`dataset_version ${m.dataset_version} != current ${expectedVersion}`);
    pass(`metadata.json: ${m.system_name}, split ${m.split}, ${m.dataset_version}`);

    const tasksPath = flags.get('tasks')!;
    const tasks = await loadTasks(tasksPath);
    const profile = await loadProfile(flags.get('judge-profile')!);

    // the questions pin, three ways (validate_bundle): metadata == questions file of the split == manifest
    let manifestPath = flags.get('manifest');
    if (!manifestPath) {
      const candidates = manifestCandidates(tasksPath, dir, expectedVersion);
      manifestPath = await firstFile(candidates);
      if (!manifestPath)
        return fail(
          `no manifest.json found to check the questions pin against (looked at ${candidates.join(', ')}); pass --manifest <manifest.json> of the release`,
        );
    }
    const manifest = (await readJsonFile(manifestPath, 'manifest')) as Manifest;
    const pinned = manifest?.splits?.[m.split as keyof Manifest['splits']]?.questions_sha256;
    if (typeof pinned !== 'string')
      return fail(`manifest ${manifestPath} has no questions_sha256 for split ${JSON.stringify(m.split)}`);
    let questionsPath = flags.get('questions');
    if (!questionsPath) {
      const candidates = await questionsCandidates(manifestPath, m.split);
      questionsPath = await firstFile(candidates);
      if (!questionsPath)
        return fail(
          `no questions file of split ${JSON.stringify(m.split)} found next to ${manifestPath} (looked at ${candidates.join(', ')}); pass --questions <questions.jsonl>`,
        );
    }
    const actualSha = await fileSha256(questionsPath);
    if (actualSha !== m.questions_sha256)
      return fail(
        `questions_sha256 does not match the released questions file ${questionsPath} (metadata ${m.questions_sha256.slice(0, 12)}…, file ${actualSha.slice(0, 12)}…)`,
      );
    if (actualSha !== pinned)
      return fail(
        `${questionsPath} (${m.split}) does not match the manifest pin ${pinned.slice(0, 12)}… of ${manifestPath}: the dataset files have been modified`,
      );
    const tasksSha = await derivedQuestionsSha(tasks);
    if (tasksSha !== actualSha)
      return fail(
        `${tasksPath} is not the answer key of split ${m.split}: its questions (task_id, type, question per line) hash to ${tasksSha.slice(0, 12)}…, ${questionsPath} to ${actualSha.slice(0, 12)}…`,
      );
    pass(
      `questions_sha256 ${actualSha.slice(0, 12)}… matches metadata, ${questionsPath} and the pin in ${manifestPath}`,
    );

    const predictions = await loadPredictions(predsPath, tasks, { mode: 'validate' });
    printPredictionProblems(predsPath, predictions);
    if (!predictions.ok) return fail(`predictions.jsonl: ${predictions.issueCount} problem(s)`);
    pass(`predictions.jsonl: ${predictions.byTaskId.size} predictions, one per task`);

    const cache = await openJudgeCache(flags.get('judge-cache')!);
    const outcome = await runScoring(
      {
        tasks,
        predictions,
        profile,
        judge: cacheOnlyJudge(cache),
        extras: { system_name: m.system_name, split: m.split, dataset_version: expectedVersion },
      },
      cache.source,
    );
    if (typeof outcome === 'number') return outcome;
    if (outcome.report.judge_errors)
      return fail(`scoring hit ${outcome.report.judge_errors} judge error(s); rerun validation`);
    pass(
      `rescored: overall_cited_correctness ${outcome.report.overall_cited_correctness} (${outcome.calls.length} judge calls)`,
    );

    const committedPath = path.join(dir, 'scores.json');
    const committedState = await fileState(committedPath);
    if (committedState === 'file') {
      const committed = await readJsonFile(committedPath, 'committed scores');
      const mismatches = compareScores(committed, pyToPlain(pyJsonLoads(outcome.scoresJson)));
      if (mismatches.length) {
        for (const mm of mismatches) process.stderr.write(`  - ${mm.message}\n`);
        return fail(`committed scores.json != recomputed scores (${mismatches.length} mismatch(es))`);
      }
      pass('committed scores.json matches the recomputed scores (within judge tolerance)');
    } else if (committedState === 'missing') {
      process.stdout.write('note no committed scores.json to compare\n');
    } else {
      return fail(`${committedPath} is ${stateWords(committedState)}`);
    }
    return EXIT.ok;
  } catch (error) {
    return exitCodeOf(error, USAGE);
  }
}
