/**
 * `score`: score predictions offline from a judge cache and write scores.json exactly as the
 * canonical scorer would. Exit codes: 0 ok, 1 invalid inputs, 2 usage, 3 a judge call is not
 * in the cache, 4 scoring aborted (too many judge errors, or a reply the canonical scorer
 * would crash on).
 */
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { JudgeProfile, Task } from '../../core/release/types.ts';
import { parsePredictionsStream } from '../../core/scoring/predictions.ts';
import type { PredictionsOptions, PredictionsResult } from '../../core/scoring/predictions.ts';
import { JudgeCallsMissingError, ScoringAbortedError, scoreSubmission } from '../../core/scoring/score.ts';
import type { JudgeFn, ScoringOutcome, ScoreSubmissionInput } from '../../core/scoring/score.ts';
import { ScoringInputError, parseJudgeProfile, parseTasksJsonl } from '../../core/scoring/scoring-inputs.ts';
import { UsageError, parseArgs } from '../args.ts';
import { JudgeCacheError, cacheOnlyJudge, openJudgeCache } from '../judge-cache-fs.ts';

export const EXIT = { ok: 0, failed: 1, usage: 2, cacheMiss: 3, aborted: 4 } as const;

const USAGE = `usage: npm run cli -- score --tasks <tasks.jsonl> --predictions <predictions.jsonl>
         --judge-profile <judge-profile.json> --judge-cache <verdicts.json | cache folder>
         [--system-name NAME] [--split SPLIT] [--dataset-version V] [--out scores.json]

Scores predictions like the benchmark's scorer (docs/benchmark-spec.md section 2) and writes
scores.json (to stdout without --out). --judge-cache is a {key: reply} JSON map or a folder in
the benchmark's cache format (<key[:2]>/<key>.json holding {"text": reply}).
Live judging (--key-env, --endpoint, --provider) is not available yet.

exit codes: 0 ok, 1 invalid inputs, 2 usage, 3 a judge call is missing from the cache,
            4 aborted (too many judge errors, or a reply the canonical scorer would crash on)
`;

const VALUED = ['tasks', 'predictions', 'judge-profile', 'judge-cache', 'system-name', 'split', 'dataset-version', 'out', 'key-env', 'endpoint', 'provider'];

/** Thrown for a missing or unreadable input file: a usage problem (exit 2). */
export class InputFileError extends Error {}

export async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new InputFileError(`cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export async function readJsonFile(file: string, what: string): Promise<unknown> {
  const text = await readText(file, what);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ScoringInputError(file, [`expected JSON, found invalid JSON (${(error as Error).message})`]);
  }
}

export async function loadTasks(file: string): Promise<Task[]> {
  return parseTasksJsonl(await readText(file, 'tasks file'), file);
}

export async function loadProfile(file: string): Promise<JudgeProfile> {
  return parseJudgeProfile(await readJsonFile(file, 'judge profile'), file);
}

export async function loadPredictions(file: string, tasks: readonly Task[], options: PredictionsOptions): Promise<PredictionsResult> {
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
  } catch {
    throw new InputFileError(`cannot read predictions file ${file}`);
  }
  return parsePredictionsStream(createReadStream(file), tasks, options);
}

export function printPredictionProblems(file: string, result: PredictionsResult, shown = 50): void {
  const err = process.stderr;
  err.write(`${file}: ${result.issueCount} problem(s)\n`);
  for (const issue of result.issues.slice(0, shown)) err.write(`  ${issue.message}\n`);
  if (result.issueCount > shown) err.write(`  ... and ${result.issueCount - shown} more\n`);
  for (const line of result.summary) err.write(`${line}\n`);
}

/** Seam for live judging: returns null until src/core/judge provides a client. */
function liveJudgeFromFlags(flags: Map<string, string>): JudgeFn | null {
  if (!flags.has('key-env') && !flags.has('endpoint') && !flags.has('provider')) return null;
  // LIVE-JUDGE SEAM: build the judge client of src/core/judge from these flags here
  throw new UsageError('live judging is not available yet (src/core/judge is not wired in); use --judge-cache');
}

/** Runs scoring and maps its failures to messages and exit codes; returns the outcome or an exit code. */
export async function runScoring(input: ScoreSubmissionInput, cacheSource: string): Promise<ScoringOutcome | number> {
  try {
    return await scoreSubmission(input);
  } catch (error) {
    if (error instanceof JudgeCallsMissingError) {
      process.stderr.write(`${error.calls.length} judge call(s) are not in the judge cache ${cacheSource}:\n`);
      for (const call of error.calls.slice(0, 20)) process.stderr.write(`  ${call.key}  ${call.tag}  task ${call.task_id}\n`);
      if (error.calls.length > 20) process.stderr.write(`  ... and ${error.calls.length - 20} more\n`);
      return EXIT.cacheMiss;
    }
    if (error instanceof ScoringAbortedError) {
      process.stderr.write(`scoring aborted: ${error.message}\n`);
      return EXIT.aborted;
    }
    throw error;
  }
}

/** Common error handling of the scoring commands. */
export function exitCodeOf(error: unknown, usage: string): number {
  if (error instanceof UsageError || error instanceof InputFileError) {
    process.stderr.write(`${error.message}\n\n${usage}`);
    return EXIT.usage;
  }
  if (error instanceof ScoringInputError || error instanceof JudgeCacheError) {
    process.stderr.write(`${error.message}\n`);
    return EXIT.failed;
  }
  throw error;
}

export async function run(args: string[]): Promise<number> {
  try {
    const { flags, switches, positional } = parseArgs(args, VALUED);
    if (switches.has('help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return EXIT.ok;
    }
    if (positional.length > 0) throw new UsageError(`unexpected argument: ${positional[0]}`);
    const unknown = [...switches];
    if (unknown.length) throw new UsageError(`unknown option --${unknown[0]}`);
    const live = liveJudgeFromFlags(flags);
    for (const name of ['tasks', 'predictions', 'judge-profile']) if (!flags.has(name)) throw new UsageError(`--${name} is required`);
    if (!live && !flags.has('judge-cache')) throw new UsageError('--judge-cache is required');

    const tasks = await loadTasks(flags.get('tasks')!);
    const profile = await loadProfile(flags.get('judge-profile')!);
    const predictionsFile = flags.get('predictions')!;
    const predictions = await loadPredictions(predictionsFile, tasks, { requireAnswerKey: false });
    if (!predictions.ok) {
      printPredictionProblems(predictionsFile, predictions);
      return EXIT.failed;
    }
    const cache = await openJudgeCache(flags.get('judge-cache')!);
    const extras: ScoreSubmissionInput['extras'] = {};
    if (flags.has('system-name')) extras.system_name = flags.get('system-name')!;
    if (flags.has('split')) extras.split = flags.get('split')!;
    if (flags.has('dataset-version')) extras.dataset_version = flags.get('dataset-version')!;
    const outcome = await runScoring({ tasks, predictions, profile, judge: cacheOnlyJudge(cache), extras }, cache.source);
    if (typeof outcome === 'number') return outcome;
    const out = flags.get('out');
    if (out) {
      await writeFile(out, outcome.scoresJson, 'utf8');
      process.stderr.write(`wrote ${out}: overall_cited_correctness ${outcome.report.overall_cited_correctness}, ${outcome.calls.length} judge calls, judge_errors ${outcome.report.judge_errors}\n`);
    } else {
      process.stdout.write(`${outcome.scoresJson}\n`);
    }
    return EXIT.ok;
  } catch (error) {
    return exitCodeOf(error, USAGE);
  }
}
