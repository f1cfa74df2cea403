/**
 * `paired <submission A> <submission B> --tasks T.jsonl`: is A really better than B on this
 * metric? The difference of the two numbers as the scorer reports them, a paired type-stratified
 * bootstrap interval and p-value, per type, wins / ties / losses. With --submissions DIR instead of
 * two folders: every pair of the submissions in DIR, with Holm's correction.
 * Exit 0 done, 1 an input is invalid (or verdicts are missing), 2 usage.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pairedComparison, pairwiseTable, type PairedFigure, type PairedResult } from '../../core/analysis/paired.ts';
import {
  PAIRED_METRICS,
  VerdictsMissingError,
  isPairedMetric,
  metricNeedsJudge,
  metricReportKey,
  systemMetric,
  type PairedMetric,
  type SystemMetric,
} from '../../core/analysis/paired-metrics.ts';
import { pyFloatRepr } from '../../core/python/json-dumps.ts';
import type { JudgeProfile, Task } from '../../core/release/types.ts';
import { openJudgeCache } from '../../adapters/node/judge-cache-fs.ts';
import { UsageError, parseArgs, refuseUnknownSwitches } from '../args.ts';
import { FileContentError, InputFileError } from '../files.ts';
import { EXIT, exitCodeOf, loadPredictions, loadProfile, loadTasks, printPredictionProblems } from './score.ts';

const USAGE = `usage: npm run cli -- paired <submission A> <submission B> --tasks <tasks.jsonl>
         [--metric ${PAIRED_METRICS.join('|')}]
         [--judge-cache FILE|DIR] [--judge-profile FILE] [--json]
       npm run cli -- paired --submissions DIR --tasks <tasks.jsonl> [same options]

Compares two submissions (folders holding predictions.jsonl, or the files themselves) task by
task on one metric (default recall@20):
  difference  A's number minus B's, each as the scorer reports it (bit for bit what recompute
              recomputes); correctness (cited, uncited) is the mean of the per-type means, the
              other metrics the mean over answerable tasks
  95% CI      paired, type-stratified bootstrap over tasks: both systems get the same resampled
              tasks; the judge profile's generator (PCG64), seed, iterations and percentiles
  p           two-sided bootstrap p-value of "no difference"
  per type    the same figures per task type, with the number of tasks; wins / ties / losses
cited and uncited need every task's judge reply in --judge-cache (nothing is judged here).
The judge profile is the one beside the release the tasks file sits in (<release>/judge-profile.json),
or --judge-profile. --submissions DIR compares every pair of the submissions in DIR and corrects
the p-values for the number of pairs (Holm); the table says which differences survive at 0.05.

exit codes: 0 done, 1 invalid predictions or missing verdicts, 2 usage
`;

interface Submission {
  slug: string;
  file: string;
}

function submissionAt(p: string): Submission {
  if (!existsSync(p)) throw new InputFileError(`${p} does not exist`);
  if (statSync(p).isDirectory()) {
    const file = path.join(p, 'predictions.jsonl');
    if (!existsSync(file)) throw new InputFileError(`${p} has no predictions.jsonl`);
    return { slug: path.basename(path.resolve(p)), file };
  }
  return { slug: path.basename(path.dirname(path.resolve(p))), file: p };
}

function submissionsIn(dir: string): Submission[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new InputFileError(`--submissions ${dir} is not a folder`);
  const found = readdirSync(dir)
    .sort()
    .map((n) => path.join(dir, n))
    .filter((p) => existsSync(path.join(p, 'predictions.jsonl')))
    .map(submissionAt);
  if (found.length < 2) throw new InputFileError(`--submissions ${dir}: fewer than two folders with predictions.jsonl`);
  return found;
}

async function profileFor(tasksFile: string, flag: string | undefined): Promise<JudgeProfile> {
  if (flag) return loadProfile(flag);
  const beside = path.join(path.dirname(path.dirname(path.resolve(tasksFile))), 'judge-profile.json');
  if (!existsSync(beside))
    throw new UsageError(
      `no judge profile beside the release of ${tasksFile} (${beside}); give --judge-profile (its bootstrap seed makes the interval reproducible)`,
    );
  return loadProfile(beside);
}

const num = (x: number): string => pyFloatRepr(x);
const fixed = (x: number): string => (x >= 0 ? ' ' : '') + x.toFixed(4);
const ci = (c: readonly [number, number]): string => `[${num(c[0])}, ${num(c[1])}]`;

function pText(p: number, iterations: number): string {
  return p === 0 ? `< ${num(1 / iterations)} (no resample of ${iterations})` : num(p);
}

function figureLine(label: string, f: PairedFigure, iterations: number, width: number): string {
  return `  ${label.padEnd(width)}  ${String(f.n).padStart(5)}  ${fixed(f.a)}  ${fixed(f.b)}  ${fixed(f.difference)}  [${fixed(f.ci95[0])}, ${fixed(f.ci95[1])}]  ${(f.p === 0 ? `< ${1 / iterations}` : f.p.toFixed(3)).padEnd(7)}  ${f.wins}/${f.ties}/${f.losses}\n`;
}

function printResult(a: string, b: string, r: PairedResult, tasksFile: string): void {
  const out = process.stdout;
  const { iterations, seed } = r.bootstrap;
  out.write(`paired ${r.metric} (${metricReportKey(r.metric)}): A = ${a}, B = ${b}\n`);
  out.write(
    `  over ${r.n} tasks of ${tasksFile} (${r.aggregate === 'macro' ? 'mean of the per-type means' : 'mean over answerable tasks'})\n\n`,
  );
  out.write(`  A            ${num(r.a)}\n  B            ${num(r.b)}\n`);
  out.write(`  difference   ${num(r.difference)}  (A − B)\n`);
  out.write(`  95% CI       ${ci(r.ci95)}\n  p            ${pText(r.p, iterations)}\n`);
  out.write(`  wins / ties / losses of A, per task: ${r.wins} / ${r.ties} / ${r.losses}\n`);
  out.write(
    `  paired, type-stratified bootstrap: ${iterations} resamples, PCG64 seed ${seed} (the judge profile's), percentiles ${r.bootstrap.percentiles.join(', ')}\n\n`,
  );
  const width = Math.max(4, ...r.perType.map((t) => t.type.length));
  out.write(
    `  ${'type'.padEnd(width)}  ${'n'.padStart(5)}  ${'A'.padEnd(7)}  ${'B'.padEnd(7)}  ${'A − B'.padEnd(7)}  95% CI              p        W/T/L\n`,
  );
  for (const t of r.perType) out.write(figureLine(t.type, t, iterations, width));
}

export async function run(args: string[]): Promise<number> {
  try {
    const { positional, flags, switches } = parseArgs(args, [
      'tasks',
      'metric',
      'judge-cache',
      'judge-profile',
      'submissions',
    ]);
    if (switches.has('help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return EXIT.ok;
    }
    refuseUnknownSwitches(switches, ['json']);
    const tasksFile = flags.get('tasks');
    if (!tasksFile) throw new UsageError('--tasks is required (the answer key both submissions answer)');
    const metricText = flags.get('metric') ?? 'recall@20';
    if (!isPairedMetric(metricText))
      throw new UsageError(`--metric must be one of ${PAIRED_METRICS.join(', ')}, found ${JSON.stringify(metricText)}`);
    const metric: PairedMetric = metricText;
    const dir = flags.get('submissions');
    if (dir !== undefined && positional.length > 0)
      throw new UsageError('give two submissions or --submissions DIR, not both');
    if (dir === undefined && positional.length !== 2) throw new UsageError('expected two submissions (A and B)');
    const cacheFile = flags.get('judge-cache');
    if (metricNeedsJudge(metric) && !cacheFile)
      throw new UsageError(`--metric ${metric} needs --judge-cache (the judge replies of both submissions)`);

    const profile = await profileFor(tasksFile, flags.get('judge-profile'));
    const tasks: Task[] = await loadTasks(tasksFile);
    const cache = cacheFile ? await openJudgeCache(cacheFile) : undefined;
    const judge = cache ? { profile, lookup: (k: string) => cache.get(k) } : undefined;
    const submissions = dir !== undefined ? submissionsIn(dir) : positional.map(submissionAt);
    const metrics: Array<{ slug: string; metric: SystemMetric }> = [];
    for (const s of submissions) {
      const predictions = await loadPredictions(s.file, tasks, { mode: 'score' });
      printPredictionProblems(s.file, predictions);
      if (!predictions.ok) return EXIT.failed;
      metrics.push({ slug: s.slug, metric: await systemMetric(metric, tasks, predictions, judge) });
    }
    const bootstrap = profile.bootstrap;

    if (dir === undefined) {
      const result = pairedComparison(metric, metrics[0]!.metric, metrics[1]!.metric, bootstrap);
      if (switches.has('json'))
        process.stdout.write(
          `${JSON.stringify({ system_a: metrics[0]!.slug, system_b: metrics[1]!.slug, ...result }, null, 2)}\n`,
        );
      else printResult(metrics[0]!.slug, metrics[1]!.slug, result, tasksFile);
      return EXIT.ok;
    }

    const table = pairwiseTable(metric, metrics, bootstrap);
    if (switches.has('json')) {
      process.stdout.write(`${JSON.stringify(table, null, 2)}\n`);
      return EXIT.ok;
    }
    const out = process.stdout;
    out.write(
      `paired ${metric}: ${table.rows.length} pairs of ${table.systems.length} submissions in ${dir}, Holm-corrected at ${table.alpha}\n`,
    );
    const w = Math.max(...table.systems.map((s) => s.length));
    out.write(`  ${'A'.padEnd(w)}  ${'B'.padEnd(w)}  A − B     95% CI                p        p (Holm)  survives\n`);
    for (const r of table.rows) {
      const res = r.result;
      out.write(
        `  ${r.a.padEnd(w)}  ${r.b.padEnd(w)}  ${fixed(res.difference)}  [${fixed(res.ci95[0])}, ${fixed(res.ci95[1])}]  ${res.p.toFixed(3).padEnd(7)}  ${r.pHolm.toFixed(3).padEnd(8)}  ${r.survives ? 'yes' : 'no'}\n`,
      );
    }
    out.write(`  (p 0.000: no resample of ${bootstrap.iterations} as extreme, i.e. p < ${1 / bootstrap.iterations})\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof VerdictsMissingError) {
      process.stderr.write(`paired: ${error.message}\n`);
      return EXIT.failed;
    }
    if (error instanceof FileContentError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.failed;
    }
    return exitCodeOf(error, USAGE);
  }
}
