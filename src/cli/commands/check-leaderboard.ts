/**
 * `check-leaderboard <leaderboard.json> <manifest.json>`: the judge-free consistency checks of
 * every published row (macro = mean(per_type), micro = manifest-count-weighted mean).
 */
import type { Leaderboard, Manifest } from '../../core/release/types.ts';
import { checkLeaderboard } from '../../core/scoring/leaderboard-check.ts';
import { ScoringInputError } from '../../core/scoring/scoring-inputs.ts';
import { UsageError, parseArgs, refuseUnknownSwitches } from '../args.ts';
import { readJsonFile } from '../files.ts';
import { exitCodeOf } from './score.ts';

const USAGE = `usage: npm run cli -- check-leaderboard <leaderboard.json> <manifest.json> [--tolerance 1e-9]

Checks, for every entry: overall = mean(per_type) and micro = Σ n_t·per_type_t / N with the
manifest's per-type counts, for the cited and the uncited scores.

exit codes: 0 every row holds, 1 a row fails (or a file is malformed), 2 usage
`;

export async function run(args: string[]): Promise<number> {
  try {
    const { positional, switches, flags } = parseArgs(args, ['tolerance']);
    if (switches.has('help') || args.includes('-h')) {
      process.stdout.write(USAGE);
      return 0;
    }
    refuseUnknownSwitches(switches);
    if (positional.length !== 2) throw new UsageError('expected <leaderboard.json> <manifest.json>');
    const tolerance = Number(flags.get('tolerance') ?? '1e-9');
    if (!(tolerance >= 0)) throw new UsageError('--tolerance must be a non-negative number');
    const [lbPath, manifestPath] = positional as [string, string];
    const leaderboard = (await readJsonFile(lbPath, 'leaderboard')) as Leaderboard;
    const manifest = (await readJsonFile(manifestPath, 'manifest')) as Manifest;
    if (!Array.isArray(leaderboard?.entries))
      throw new ScoringInputError(lbPath, ['expected {"entries": [report, ...]}']);
    if (typeof manifest?.splits !== 'object' || manifest.splits === null)
      throw new ScoringInputError(manifestPath, ['expected {"version", "splits"}']);
    const rows = checkLeaderboard(leaderboard, manifest, tolerance);
    for (const row of rows) {
      process.stdout.write(`${row.ok ? 'ok  ' : 'FAIL'}  ${row.system_name}\n`);
      for (const p of row.problems) process.stdout.write(`      ${p}\n`);
    }
    const failed = rows.filter((r) => !r.ok).length;
    process.stdout.write(`${rows.length - failed}/${rows.length} rows consistent (tolerance ${tolerance})\n`);
    return failed ? 1 : 0;
  } catch (error) {
    return exitCodeOf(error, USAGE);
  }
}
