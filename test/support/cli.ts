/**
 * The one way tests run the CLI. `cli()` calls it in process (no tsx start-up per run: most of the
 * unit suite's time went there), capturing what it writes to stdout and stderr through the same
 * terminal guard as the real process, with `env` set for the run. `spawnCli()` starts a real
 * process, for tests where the process boundary is what is tested (exit codes, signals, user ids).
 * Both give the same result shape.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { runCli } from '../../src/cli/cli.ts';
import { terminalSafe } from '../../src/cli/terminal.ts';
import { projectRoot } from './shared.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Environment variables set (or, when undefined, removed) for the run. */
  env?: Record<string, string | undefined>;
}

type Write = typeof process.stdout.write;

let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `npm run cli -- ...args` in this process. Runs are queued: stdout, stderr and the
 * environment are the process's own, so two at once would mix their output.
 */
export function cli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const run = queue.then(() => runInProcess(args, options));
  queue = run.catch(() => undefined);
  return run;
}

async function runInProcess(args: readonly string[], options: CliOptions): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const capture =
    (into: string[]) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      into.push(terminalSafe(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8')));
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    };
  const saved = { out: process.stdout.write, err: process.stderr.write };
  const savedEnv = new Map(Object.keys(options.env ?? {}).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(options.env ?? {})) setEnv(k, v);
  process.stdout.write = capture(out) as Write;
  process.stderr.write = capture(err) as Write;
  try {
    const code = await runCli(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    for (const [k, v] of savedEnv) setEnv(k, v);
  }
}

function setEnv(key: string, value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}

export interface SpawnOptions {
  /** The whole environment of the child (default: this process's, with `env` added). */
  env?: Record<string, string | undefined>;
  /** Drops root to uid/gid 65534 (file permissions do not stop root). */
  asOtherUser?: boolean;
  cwd?: string;
}

/** Runs the CLI as a separate Node process (tsx from node_modules, not npx). */
export function spawnCli(args: readonly string[], options: SpawnOptions = {}): Promise<CliRun> {
  const drop = options.asOtherUser && process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(projectRoot, 'node_modules/tsx/dist/cli.mjs'), path.join(projectRoot, 'src/cli/main.ts'), ...args],
      {
        cwd: options.cwd ?? projectRoot,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, ...options.env },
        ...drop,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const sampleRelease = path.join(projectRoot, 'static-data/sample');
/** The shipped sample's judge profile and judge cache, as the scoring commands take them. */
export const SAMPLE_JUDGE_ARGS: readonly string[] = [
  '--judge-profile',
  path.join(sampleRelease, 'judge-profile.json'),
  '--judge-cache',
  path.join(sampleRelease, 'judge-cache.json'),
];

/** `paired <a> <b> --json` on two of the sample's submissions (by slug) over its full split, parsed. */
export async function samplePairedJson(a: string, b: string, metric: string): Promise<unknown> {
  const dir = (slug: string) => path.join(sampleRelease, 'submissions', slug);
  const run = await cli([
    'paired',
    dir(a),
    dir(b),
    '--tasks',
    path.join(sampleRelease, 'full/tasks.jsonl'),
    '--metric',
    metric,
    ...SAMPLE_JUDGE_ARGS,
    '--json',
  ]);
  if (run.code !== 0) throw new Error(`paired exited with ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as unknown;
}
