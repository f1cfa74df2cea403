/**
 * `score`: score predictions offline from a judge cache and write scores.json exactly as the
 * canonical scorer would. Exit codes: 0 ok, 1 invalid inputs, 2 usage, 3 a judge call is not
 * in the cache, 4 scoring aborted (too many judge errors, or a reply the canonical scorer
 * would crash on).
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { JudgeProfile, Task } from '../../core/release/types.ts';
import { parsePredictionsStream } from '../../core/scoring/predictions.ts';
import { defaultReportFields } from '../../core/scoring/report-fields.ts';
import type { PredictionsOptions, PredictionsResult } from '../../core/scoring/predictions.ts';
import { JudgeCallsMissingError, ScoringAbortedError, scoreSubmission } from '../../core/scoring/score.ts';
import type { JudgeFn, ScoringOutcome, ScoreSubmissionInput } from '../../core/scoring/score.ts';
import { ScoringInputError, parseJudgeProfile, parseTasksJsonl } from '../../core/scoring/scoring-inputs.ts';
import { UsageError, parseArgs, refuseUnknownSwitches, usageExit } from '../args.ts';
import {
  FileContentError,
  InputFileError,
  checkInputFile,
  checkOutputPath,
  fileState,
  inputFileError,
  readJsonFile,
  readText,
  writeOutputFile,
} from '../files.ts';
import { DEFAULT_BASE_URLS, normaliseBaseUrl } from '../../core/judge/endpoint.ts';
import { redactSecret, type JudgeError } from '../../core/judge/errors.ts';
import { createJudgeProvider } from '../../core/judge/providers.ts';
import { DEFAULT_JUDGE_CONCURRENCY, runJudgeCalls } from '../../core/judge/runner.ts';
import type { JudgeProgress, JudgeProviderKind } from '../../core/judge/types.ts';
import { planJudgeCalls, planPremiseCalls } from '../../core/scoring/score.ts';
import {
  JudgeCacheError,
  cacheOnlyJudge,
  openJudgeCache,
  openWritableJudgeCache,
} from '../../adapters/node/judge-cache-fs.ts';
import type { JudgeCacheReader, WritableJudgeCache } from '../../adapters/node/judge-cache-fs.ts';
import {
  FileRefusedError,
  MAX_INPUT_FILE_BYTES,
  readRegularText,
  regularFileChunks,
} from '../../adapters/node/regular-file.ts';

export const EXIT = { ok: 0, failed: 1, usage: 2, cacheMiss: 3, aborted: 4 } as const;

const USAGE = `usage: npm run cli -- score --tasks <tasks.jsonl> --predictions <predictions.jsonl>
         --judge-profile <judge-profile.json> --judge-cache <verdicts.json | cache folder>
         [--system-name NAME] [--split SPLIT] [--dataset-version V] [--out scores.json]
         [--key-env VAR [--provider openai|anthropic] [--endpoint BASE_URL] [--model M] [--concurrency N]]

Scores predictions like the benchmark's scorer (docs/benchmark-spec.md section 2) and writes
scores.json (to stdout without --out; --out creates its folder). The report fields default to the
metadata.json beside the predictions, else to where the tasks file sits (its split folder, the
release's manifest.json or release.json). --judge-cache is a {key: reply} JSON map or a folder in
the benchmark's cache format (<key[:2]>/<key>.json holding {"text": reply}).

Live judging: with --key-env, calls the cache cannot answer go to the judge endpoint, with the
API key read from environment variable VAR (never from the command line). Every new reply is
written to --judge-cache as it arrives (a folder is created when absent; a path ending in .json
is a verdicts map), so an interrupted run resumes without repeating calls.
  --provider    openai (OpenAI-compatible chat completions, default) or anthropic
  --endpoint    base URL (default https://api.openai.com/v1 or https://api.anthropic.com)
  --model       must be the judge profile's judge_model (default); cache keys depend on it
  --concurrency requests in flight at once (default 4)

exit codes: 0 ok, 1 invalid inputs, 2 usage, 3 a judge call is missing from the cache,
            4 aborted (too many judge errors, or a reply the canonical scorer would crash on)
`;

const VALUED = [
  'tasks',
  'predictions',
  'judge-profile',
  'judge-cache',
  'system-name',
  'split',
  'dataset-version',
  'out',
  'key-env',
  'endpoint',
  'provider',
  'model',
  'concurrency',
];

export async function loadTasks(file: string): Promise<Task[]> {
  return parseTasksJsonl(await readText(file, 'tasks file'), file);
}

export async function loadProfile(file: string): Promise<JudgeProfile> {
  return parseJudgeProfile(await readJsonFile(file, 'judge profile'), file);
}

export async function loadPredictions(
  file: string,
  tasks: readonly Task[],
  options: PredictionsOptions,
): Promise<PredictionsResult> {
  await checkInputFile(file, 'predictions file');
  try {
    return await parsePredictionsStream(regularFileChunks(file, MAX_INPUT_FILE_BYTES), tasks, options);
  } catch (error) {
    if (!(error instanceof FileRefusedError) && (error as NodeJS.ErrnoException).code === undefined) throw error;
    throw inputFileError(file, 'predictions file', error);
  }
}

/** Errors, then warnings (oddities the scorer reads anyway), then the canonical scorer's own summary lines. */
export function printPredictionProblems(file: string, result: PredictionsResult, shown = 50): void {
  const err = process.stderr;
  if (result.issueCount > 0) {
    err.write(`${file}: ${result.issueCount} problem(s)\n`);
    for (const issue of result.issues.slice(0, shown)) err.write(`  ${issue.message}\n`);
    if (result.issueCount > shown) err.write(`  ... and ${result.issueCount - shown} more\n`);
    for (const line of result.summary) err.write(`${line}\n`);
  }
  printPredictionWarnings(file, result, shown);
}

export function printPredictionWarnings(file: string, result: PredictionsResult, shown = 50): void {
  if (result.warningCount === 0) return;
  const err = process.stderr;
  err.write(`${file}: ${result.warningCount} warning(s), each saying how the canonical scorer reads the value\n`);
  for (const warning of result.warnings.slice(0, shown)) err.write(`  warning: ${warning.message}\n`);
  if (result.warningCount > shown) err.write(`  ... and ${result.warningCount - shown} more\n`);
}

export interface LiveJudgeFlags {
  provider: JudgeProviderKind;
  baseUrl: string;
  apiKey: string;
  model?: string;
  concurrency: number;
}

/** The live-judging flags, or null without any of them; bad or partial flags are usage errors. */
export function liveJudgeFromFlags(
  flags: Map<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): LiveJudgeFlags | null {
  const liveFlags = ['key-env', 'endpoint', 'provider', 'model', 'concurrency'];
  if (!liveFlags.some((f) => flags.has(f))) return null;
  const keyEnv = flags.get('key-env');
  if (!keyEnv) throw new UsageError('live judging needs --key-env VAR (the environment variable holding the API key)');
  const apiKey = env[keyEnv]?.trim();
  if (!apiKey) throw new UsageError(`environment variable ${keyEnv} (--key-env) is not set or empty`);
  const provider = flags.get('provider') ?? 'openai';
  if (provider !== 'openai' && provider !== 'anthropic')
    throw new UsageError(`--provider must be openai or anthropic, found ${JSON.stringify(provider)}`);
  const baseUrl = flags.get('endpoint') ?? DEFAULT_BASE_URLS[provider]!;
  try {
    normaliseBaseUrl(baseUrl);
  } catch (error) {
    throw new UsageError(`--endpoint: ${(error as Error).message}`);
  }
  const concurrencyText = flags.get('concurrency') ?? String(DEFAULT_JUDGE_CONCURRENCY);
  if (!/^\d{1,3}$/.test(concurrencyText) || Number(concurrencyText) < 1)
    throw new UsageError(`--concurrency must be a positive integer, found ${JSON.stringify(concurrencyText)}`);
  const model = flags.get('model');
  return { provider, baseUrl, apiKey, concurrency: Number(concurrencyText), ...(model ? { model } : {}) };
}

/**
 * Judges every call the cache cannot answer (answer/aggregation calls, then the premise-id calls
 * they lead to), writing each reply to the cache as it arrives. Returns the calls that failed.
 */
async function judgeLive(
  live: LiveJudgeFlags,
  input: Pick<ScoreSubmissionInput, 'tasks' | 'predictions' | 'profile'>,
  cache: WritableJudgeCache,
): Promise<Map<string, JudgeError> | { stopped: string }> {
  const { tasks, predictions, profile } = input;
  const model = live.model ?? profile.judge_model;
  if (model !== profile.judge_model) {
    throw new UsageError(
      `--model ${model} differs from the judge profile's judge_model ${profile.judge_model}; cache keys depend on it`,
    );
  }
  const provider = createJudgeProvider(
    { provider: live.provider, baseUrl: live.baseUrl, model, apiKey: live.apiKey },
    live.provider === 'openai' && profile.response_format ? { responseFormat: profile.response_format } : {},
  );
  process.stderr.write(`judging with ${model} at ${provider.targetUrl}\n`);
  let last = 0;
  const onProgress = (p: JudgeProgress): void => {
    const now = Date.now();
    if (p.done === p.total || now - last > 2000) {
      last = now;
      process.stderr.write(`  ${p.done}/${p.total} done, ${p.cached} cached, ${p.failed} failed\n`);
    }
  };
  const common = { cache, provider, concurrency: live.concurrency, onProgress };
  const first = await runJudgeCalls({ ...common, calls: await planJudgeCalls(tasks, predictions, profile) });
  if (first.stopped) return { stopped: first.stopped.message };
  const premise = await planPremiseCalls(tasks, predictions, profile, first.replies);
  const second = await runJudgeCalls({ ...common, calls: premise });
  if (second.stopped) return { stopped: second.stopped.message };
  const failures = new Map([...first.failures, ...second.failures]);
  for (const { key, message } of [...first.cacheWriteErrors, ...second.cacheWriteErrors]) {
    process.stderr.write(`warning: reply ${key} could not be written to ${cache.source}: ${message}\n`);
  }
  if (failures.size > 0) {
    process.stderr.write(`${failures.size} judge call(s) failed:\n`);
    for (const [key, error] of [...failures].slice(0, 10))
      process.stderr.write(`  ${key}  ${redactSecret(error.message, live.apiKey)}\n`);
  }
  return failures;
}

type Extras = NonNullable<ScoreSubmissionInput['extras']>;

async function readJsonIfPresent(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const value = JSON.parse(await readRegularText(file, MAX_INPUT_FILE_BYTES)) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Report fields not given on the command line: system_name, split and dataset_version of the
 * metadata.json beside the predictions; else the split folder the tasks file is in and the
 * dataset version of that release (manifest.json "version" or release.json "dataset_version").
 */
export async function defaultExtras(
  predictionsFile: string,
  tasksFile: string,
): Promise<{ extras: Extras; sources: string[] }> {
  const metaFile = path.join(path.dirname(predictionsFile), 'metadata.json');
  const meta = await readJsonIfPresent(metaFile);
  const splitDir = path.dirname(path.resolve(tasksFile));
  const root = path.dirname(splitDir);
  const manifest = await readJsonIfPresent(path.join(root, 'manifest.json'));
  const descriptor = await readJsonIfPresent(path.join(root, 'release.json'));
  const version = manifest?.version ?? descriptor?.dataset_version;
  const { fields: extras, from } = defaultReportFields(meta, {
    split: path.basename(splitDir),
    ...(typeof version === 'string' ? { datasetVersion: version } : {}),
  });
  const sources: string[] = [];
  if (Object.values(from).includes('metadata')) sources.push(metaFile);
  if (from.split === 'tasks') sources.push(`the tasks' folder (${extras.split})`);
  if (from.dataset_version === 'tasks')
    sources.push(path.join(root, manifest?.version ? 'manifest.json' : 'release.json'));
  return { extras, sources };
}

/** Reads replies from the cache; a call that failed live is a judge error, any other miss a cache miss. */
function cacheThenFailures(cache: JudgeCacheReader, failures: ReadonlyMap<string, JudgeError>): JudgeFn {
  const offline = cacheOnlyJudge(cache);
  return async (call) => {
    const failure = failures.get(call.key);
    if (failure && (await cache.get(call.key)) === undefined) throw failure;
    return offline(call);
  };
}

/** Bootstraps of more iterations than this print their progress on stderr, every tenth. */
export const LONG_BOOTSTRAP_ITERATIONS = 10_000;

function bootstrapProgress(iterations: number): ((done: number, total: number) => void) | undefined {
  if (iterations < LONG_BOOTSTRAP_ITERATIONS) return undefined;
  let shown = 0;
  return (done, total) => {
    const tenth = Math.floor((done * 10) / total);
    if (tenth <= shown) return;
    shown = tenth;
    process.stderr.write(
      `bootstrap: ${done.toLocaleString('en')}/${total.toLocaleString('en')} iterations (${tenth * 10}%)\n`,
    );
  };
}

/** Runs scoring and maps its failures to messages and exit codes; returns the outcome or an exit code. */
export async function runScoring(input: ScoreSubmissionInput, cacheSource: string): Promise<ScoringOutcome | number> {
  try {
    return await scoreSubmission({ ...input, onBootstrap: bootstrapProgress(input.profile.bootstrap.iterations) });
  } catch (error) {
    if (error instanceof JudgeCallsMissingError) {
      process.stderr.write(`${error.calls.length} judge call(s) are not in the judge cache ${cacheSource}:\n`);
      for (const call of error.calls.slice(0, 20))
        process.stderr.write(`  ${call.key}  ${call.tag}  task ${call.task_id}\n`);
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
  if (error instanceof UsageError) return usageExit(error, usage);
  if (error instanceof InputFileError) {
    process.stderr.write(`${error.message}\n(see --help for the usage)\n`);
    return EXIT.usage;
  }
  if (error instanceof ScoringInputError || error instanceof JudgeCacheError || error instanceof FileContentError) {
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
    refuseUnknownSwitches(switches);
    const live = liveJudgeFromFlags(flags);
    for (const name of ['tasks', 'predictions', 'judge-profile'])
      if (!flags.has(name)) throw new UsageError(`--${name} is required`);
    if (!flags.has('judge-cache'))
      throw new UsageError(
        live ? '--judge-cache is required: live replies are written there' : '--judge-cache is required',
      );

    const out = flags.get('out');
    // A missing output folder is made (README examples write to out/); a bad path still fails before the run.
    if (out && (await fileState(path.dirname(path.resolve(out)))) === 'missing')
      await mkdir(path.dirname(path.resolve(out)), { recursive: true });
    if (out) await checkOutputPath(out, 'scores.json');
    const tasks = await loadTasks(flags.get('tasks')!);
    const profile = await loadProfile(flags.get('judge-profile')!);
    const predictionsFile = flags.get('predictions')!;
    const predictions = await loadPredictions(predictionsFile, tasks, { mode: 'score' });
    printPredictionProblems(predictionsFile, predictions);
    if (!predictions.ok) {
      process.stderr.write(`${predictionsFile}: not scored (the canonical scorer would produce no report for it)\n`);
      return EXIT.failed;
    }
    const cacheLocation = flags.get('judge-cache')!;
    let judge: JudgeFn;
    let cacheSource: string;
    if (live) {
      const cache = await openWritableJudgeCache(cacheLocation);
      const failures = await judgeLive(live, { tasks, predictions, profile }, cache);
      if (!(failures instanceof Map)) {
        process.stderr.write(`scoring aborted: ${redactSecret(failures.stopped, live.apiKey)}\n`);
        return EXIT.aborted;
      }
      judge = cacheThenFailures(cache, failures);
      cacheSource = cache.source;
    } else {
      const cache = await openJudgeCache(cacheLocation);
      judge = cacheOnlyJudge(cache);
      cacheSource = cache.source;
    }
    const defaults = await defaultExtras(predictionsFile, flags.get('tasks')!);
    const extras: Extras = { ...defaults.extras };
    if (flags.has('system-name')) extras.system_name = flags.get('system-name')!;
    if (flags.has('split')) extras.split = flags.get('split')!;
    if (flags.has('dataset-version')) extras.dataset_version = flags.get('dataset-version')!;
    const defaulted = (['system_name', 'split', 'dataset_version'] as const).filter(
      (k) => defaults.extras[k] !== undefined && extras[k] === defaults.extras[k],
    );
    if (defaulted.length)
      process.stderr.write(
        `report fields from ${defaults.sources.join(' and ')}: ${defaulted.map((k) => `${k} ${JSON.stringify(extras[k])}`).join(', ')}\n`,
      );
    const outcome = await runScoring({ tasks, predictions, profile, judge, extras }, cacheSource);
    if (typeof outcome === 'number') return outcome;
    if (out) {
      await writeOutputFile(out, outcome.scoresJson, 'scores.json');
      process.stderr.write(
        `wrote ${out}: overall_cited_correctness ${outcome.report.overall_cited_correctness}, ${outcome.calls.length} judge calls, judge_errors ${outcome.report.judge_errors}\n`,
      );
    } else {
      process.stdout.write(`${outcome.scoresJson}\n`);
    }
    return EXIT.ok;
  } catch (error) {
    return exitCodeOf(error, USAGE);
  }
}
