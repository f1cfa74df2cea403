/**
 * `validate <submission-dir>`: what the benchmark's CI does with a submission bundle
 * (submit.validate_bundle + compare_scores.py): metadata.json fields, the questions_sha256 pin
 * (metadata, questions file, manifest), predictions, a full rescoring from the judge cache
 * (judge_errors must be 0) and the comparison with the committed scores.json.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest, SplitName, Task } from '../../core/release/types.ts';
import { compareScores } from '../../core/scoring/compare.ts';
import { sha256Hex } from '../../core/scoring/prompts.ts';
import { questionLine } from '../../core/release/jsonl.ts';
import { UsageError, parseArgs } from '../args.ts';
import { cacheOnlyJudge, openJudgeCache } from '../../adapters/node/judge-cache-fs.ts';
import {
  EXIT,
  exitCodeOf,
  loadPredictions,
  loadProfile,
  loadTasks,
  printPredictionProblems,
  readJsonFile,
  runScoring,
} from './score.ts';

const USAGE = `usage: npm run cli -- validate <submission-dir> --tasks <tasks.jsonl>
         --judge-profile <judge-profile.json> --judge-cache <verdicts.json | cache folder>
         [--manifest manifest.json] [--questions questions.jsonl] [--dataset-version V]

Checks a submission folder like the benchmark's CI: metadata.json (system_name, split,
dataset_version, questions_sha256), the questions hash against the questions file (derived
from the tasks when --questions is absent) and the manifest pin, predictions.jsonl, a full
rescoring from the judge cache (no judge errors allowed), and the committed scores.json
against the recomputed one with the CI tolerances. The expected dataset_version is
--dataset-version, else the --manifest's "version", else the dataset_version of the release
the submission sits in (<release>/submissions/<slug>, its release.json), else v1.0.

exit codes: 0 valid, 1 a check failed, 2 usage, 3 a judge call is missing from the cache,
            4 scoring aborted
`;

const META_KEYS = ['system_name', 'split', 'dataset_version', 'questions_sha256'] as const;

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The dataset version a submission must name when --dataset-version is not given. */
async function currentVersion(dir: string, manifestPath: string | undefined): Promise<string> {
  const read = async (file: string): Promise<Record<string, unknown> | undefined> => {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  const manifest = manifestPath ? await read(manifestPath) : undefined;
  if (typeof manifest?.version === 'string') return manifest.version;
  const descriptor = await read(path.join(dir, '..', '..', 'release.json'));
  if (typeof descriptor?.dataset_version === 'string') return descriptor.dataset_version;
  return 'v1.0';
}

async function questionsSha(questionsFile: string | undefined, tasks: readonly Task[]): Promise<string> {
  if (questionsFile) {
    const bytes = await readFile(questionsFile);
    const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
    return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  }
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
    if (switches.size) throw new UsageError(`unknown option --${[...switches][0]}`);
    if (positional.length !== 1) throw new UsageError('expected exactly one <submission-dir>');
    for (const name of ['tasks', 'judge-profile', 'judge-cache'])
      if (!flags.has(name)) throw new UsageError(`--${name} is required`);
    const dir = positional[0]!;
    const expectedVersion = flags.get('dataset-version') ?? (await currentVersion(dir, flags.get('manifest')));
    const failures: string[] = [];
    const fail = (message: string): number => {
      failures.push(message);
      process.stderr.write(`FAIL ${message}\n`);
      return EXIT.failed;
    };
    const pass = (message: string): void => {
      process.stdout.write(`ok   ${message}\n`);
    };

    const metaPath = path.join(dir, 'metadata.json');
    const predsPath = path.join(dir, 'predictions.jsonl');
    if (!(await exists(metaPath)) || !(await exists(predsPath)))
      return fail('bundle must contain metadata.json and predictions.jsonl');
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

    const tasks = await loadTasks(flags.get('tasks')!);
    const profile = await loadProfile(flags.get('judge-profile')!);
    const actualSha = await questionsSha(flags.get('questions'), tasks);
    if (actualSha !== m.questions_sha256) return fail('questions_sha256 does not match the released questions file');
    const manifestPath = flags.get('manifest');
    if (manifestPath) {
      const manifest = (await readJsonFile(manifestPath, 'manifest')) as Manifest;
      const pinned = manifest?.splits?.[m.split as SplitName]?.questions_sha256;
      if (typeof pinned !== 'string')
        return fail(`manifest ${manifestPath} has no questions_sha256 for split ${m.split}`);
      if (actualSha !== pinned) {
        return fail(
          `questions.jsonl (${m.split}) does not match the released manifest pin ${pinned.slice(0, 12)}… — the dataset files have been modified`,
        );
      }
    }
    pass(`questions_sha256 ${actualSha.slice(0, 12)}… matches${manifestPath ? ' metadata and manifest' : ' metadata'}`);

    const predictions = await loadPredictions(predsPath, tasks, { requireAnswerKey: true });
    if (!predictions.ok) {
      printPredictionProblems(predsPath, predictions);
      return fail(`predictions.jsonl: ${predictions.issueCount} problem(s)`);
    }
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
    if (await exists(committedPath)) {
      const committed = await readJsonFile(committedPath, 'committed scores');
      const mismatches = compareScores(committed, JSON.parse(outcome.scoresJson));
      if (mismatches.length) {
        for (const mm of mismatches) process.stderr.write(`  - ${mm.message}\n`);
        return fail(`committed scores.json != recomputed scores (${mismatches.length} mismatch(es))`);
      }
      pass('committed scores.json matches the recomputed scores (within judge tolerance)');
    } else {
      process.stdout.write('note no committed scores.json to compare\n');
    }
    return failures.length ? EXIT.failed : EXIT.ok;
  } catch (error) {
    return exitCodeOf(error, USAGE);
  }
}
