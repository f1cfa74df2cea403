/**
 * `compare <committed.json> <recomputed.json>`: scripts/compare_scores.py with the CI
 * tolerances of docs/benchmark-spec.md 2.6. Exit 0 when they agree, 1 on a mismatch or invalid
 * JSON, 2 usage or a file that is missing or unreadable (as every command of this CLI).
 */
import { compareScores } from '../../core/scoring/compare.ts';
import { UsageError, parseArgs, refuseUnknownSwitches } from '../args.ts';
import { readJsonFile } from '../files.ts';
import { exitCodeOf } from './score.ts';

const USAGE = `usage: npm run cli -- compare <committed.json> <recomputed.json>

Walks both scores.json trees and reports every difference beyond the benchmark CI's
tolerances (0.15 per-type and premise_id_rate, 0.02 overall/micro/CI, 1e-6 otherwise;
judge_errors ignored).

exit codes: 0 the scores agree, 1 mismatch (or invalid JSON), 2 usage (or a missing or unreadable file)
`;

export async function run(args: string[]): Promise<number> {
  try {
    const { positional, switches } = parseArgs(args, []);
    if (switches.has('help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return 0;
    }
    refuseUnknownSwitches(switches);
    if (positional.length !== 2) throw new UsageError('expected exactly two files: <committed.json> <recomputed.json>');
    const [committedPath, recomputedPath] = positional as [string, string];
    const committed = await readJsonFile(committedPath, 'committed scores');
    const recomputed = await readJsonFile(recomputedPath, 'recomputed scores');
    const mismatches = compareScores(committed, recomputed);
    if (mismatches.length) {
      process.stdout.write(`MISMATCH: committed ${committedPath} != recomputed scores:\n`);
      for (const m of mismatches) process.stdout.write(`  - ${m.message}\n`);
      return 1;
    }
    process.stdout.write('scores match (within judge tolerance)\n');
    return 0;
  } catch (error) {
    return exitCodeOf(error, USAGE);
  }
}
