/**
 * `recompute <submission-folder> --tasks T.jsonl`: recomputes every number of the folder's
 * committed scores.json that needs no judge, from its predictions.jsonl and the answer key, and
 * prints each beside the committed value. Exit 0 all equal (to 1e-12), 1 one differs or the
 * predictions are invalid, 2 usage (missing folder, file or flag).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pyFloatRepr } from '../../core/python/json-dumps.ts';
import { recomputeJudgeFree, RECOMPUTE_TOLERANCE, type RecomputedNumber } from '../../core/scoring/recompute.ts';
import { UsageError, parseArgs, refuseUnknownSwitches } from '../args.ts';
import { InputFileError, readJsonFile } from '../files.ts';
import { EXIT, exitCodeOf, loadPredictions, loadTasks, printPredictionProblems } from './score.ts';

const USAGE = `usage: npm run cli -- recompute <submission-folder> --tasks <tasks.jsonl>

Reads <submission-folder>/scores.json and predictions.jsonl, recomputes with the scorer's own
code every number that needs no judge verdict (retrieval recall@5, recall@20, nDCG@10; citation
precision and recall when judge_errors is 0; n_tasks; tokens and cost telemetry; the per-type
task counts, as the order of per_type and the micro means they weigh) and prints each beside
the committed value. Correctness numbers need the judge's verdicts, which are not published.

exit codes: 0 every number equal (within ${RECOMPUTE_TOLERANCE}), 1 a number differs or the
            predictions are invalid, 2 usage
`;

const INT_KEYS = new Set(['n_tasks', 'tokens_total']);

function show(key: string, v: number | undefined): string {
  if (v === undefined) return '(absent)';
  return INT_KEYS.has(key) && Number.isInteger(v) ? String(v) : pyFloatRepr(v);
}

function verdict(n: RecomputedNumber): string {
  if (n.committed === undefined && n.recomputed === undefined) return 'equal (both absent)';
  if (n.identical) return 'equal, bit-identical';
  if (n.equal) return `equal within ${RECOMPUTE_TOLERANCE} (differs by ${Math.abs(n.committed! - n.recomputed!)})`;
  if (n.committed === undefined || n.recomputed === undefined) return 'DIFFERS (present in only one)';
  return `DIFFERS by ${Math.abs(n.committed - n.recomputed)}`;
}

export async function run(args: string[]): Promise<number> {
  try {
    const { positional, flags, switches } = parseArgs(args, ['tasks']);
    if (switches.has('help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return EXIT.ok;
    }
    refuseUnknownSwitches(switches);
    if (positional.length !== 1) throw new UsageError('expected one submission folder');
    const tasksFile = flags.get('tasks');
    if (!tasksFile)
      throw new UsageError('--tasks is required (the split the submission answers, e.g. full/tasks.jsonl)');
    const folder = positional[0]!;
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new InputFileError(`${folder} is not a folder`);
    const scoresFile = path.join(folder, 'scores.json');
    const predictionsFile = path.join(folder, 'predictions.jsonl');
    for (const file of [scoresFile, predictionsFile])
      if (!existsSync(file)) throw new InputFileError(`${folder} has no ${path.basename(file)}`);

    const committed = await readJsonFile(scoresFile, 'committed scores');
    if (typeof committed !== 'object' || committed === null || Array.isArray(committed))
      throw new InputFileError(`${scoresFile}: expected a JSON object (a scores.json report)`);
    const tasks = await loadTasks(tasksFile);
    // Read as the scorer reads it: values it coerces are scored and named in warnings.
    const predictions = await loadPredictions(predictionsFile, tasks, { mode: 'score' });
    printPredictionProblems(predictionsFile, predictions);
    if (!predictions.ok) return EXIT.failed;
    const result = recomputeJudgeFree(committed as Record<string, unknown>, tasks, predictions);

    const out = process.stdout;
    out.write(`recompute ${scoresFile}\n  from ${predictionsFile} and ${tasksFile} (${tasks.length} tasks)\n\n`);
    const rows = [...result.numbers, ...result.countChecks];
    const width = Math.max(...rows.map((n) => n.key.length));
    const valueWidth = Math.max(
      9,
      ...rows.flatMap((n) => [show(n.key, n.committed).length, show(n.key, n.recomputed).length]),
    );
    const line = (n: RecomputedNumber) =>
      `  ${n.key.padEnd(width)}  ${show(n.key, n.committed).padEnd(valueWidth)}  ${show(n.key, n.recomputed).padEnd(valueWidth)}  ${verdict(n)}${n.how ? `  [${n.how}]` : ''}\n`;
    out.write(
      `  ${'number'.padEnd(width)}  ${'committed'.padEnd(valueWidth)}  ${'recomputed'.padEnd(valueWidth)}  result\n`,
    );
    for (const n of result.numbers) out.write(line(n));
    for (const s of result.skipped) out.write(`  ${s.key.padEnd(width)}  not recomputed: ${s.why}\n`);

    out.write(
      `\n  per-type task counts in ${tasksFile}: ${result.typeCounts.map(([t, c]) => `${t} ${c}`).join(', ')}\n`,
    );
    for (const t of result.typeOrder) {
      out.write(
        `  ${t.key} lists the types in that order: ${t.equal ? 'yes' : `NO (committed: ${t.committed.join(', ') || 'nothing'})`}\n`,
      );
    }
    out.write('  the counts weigh the committed per-type means into the committed micro means:\n');
    for (const n of result.countChecks) out.write(line(n));
    out.write(`\n  need the judge's verdicts (not published), not recomputed: ${result.needJudge.join(', ')}\n\n`);

    const checked = [...result.numbers, ...result.countChecks];
    const present = checked.filter((n) => n.committed !== undefined || n.recomputed !== undefined);
    const identical = present.filter((n) => n.identical).length;
    const differing = checked.filter((n) => !n.equal).length;
    if (result.ok) {
      out.write(
        `OK: all ${result.numbers.length} judge-free numbers and ${result.countChecks.length} count checks equal the committed values (${identical} of the ${present.length} present bit-identical, ${checked.length - present.length} absent from both); per-type order agrees\n`,
      );
      return EXIT.ok;
    }
    out.write(
      `DIFFERS: ${differing} of ${checked.length} values differ${result.typeOrder.some((t) => !t.equal) ? '; the per-type order differs' : ''}\n`,
    );
    return EXIT.failed;
  } catch (error) {
    return exitCodeOf(error, USAGE);
  }
}
