/**
 * Judge-free consistency of published scores (spec 5): macro = mean(per_type) and
 * micro = Σ n_t·per_type_t / N with the manifest's per-type counts, cited and uncited.
 */
import type { Leaderboard, Manifest, ScoreReport, SplitName, TaskType } from '../release/types.ts';
import { pyMean } from '../python/sum.ts';

export interface LeaderboardCheck {
  name: string;
  expected: number;
  found: number;
  ok: boolean;
}

export interface LeaderboardCheckRow {
  system_name: string;
  ok: boolean;
  checks: LeaderboardCheck[];
  problems: string[];
}

function weighted(
  perType: ScoreReport['per_type'],
  counts: Partial<Record<TaskType, number>>,
  n: number,
): number | null {
  let sum = 0;
  for (const [type, value] of Object.entries(perType) as [TaskType, number][]) {
    const count = counts[type];
    if (count === undefined) return null;
    sum += count * value;
  }
  return sum / n;
}

/** The fields the checks read, each of the right type; the names of those that are not. */
function missingFields(entry: ScoreReport): string[] {
  const e = entry as unknown as Record<string, unknown>;
  const isNumberMap = (v: unknown): boolean =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'number');
  const missing = ['per_type', 'per_type_uncited'].filter((k) => !isNumberMap(e[k]));
  for (const k of [
    'overall_cited_correctness',
    'overall_uncited_correctness',
    'overall_cited_correctness_micro',
    'overall_uncited_correctness_micro',
    'n_tasks',
  ])
    if (typeof e[k] !== 'number') missing.push(k);
  return missing;
}

export function checkLeaderboardEntry(entry: ScoreReport, manifest: Manifest, tolerance = 1e-9): LeaderboardCheckRow {
  const split = (entry.split ?? 'full') as SplitName;
  const problems: string[] = [];
  const checks: LeaderboardCheck[] = [];
  const name = typeof entry.system_name === 'string' ? entry.system_name : '(unnamed)';
  const missing = missingFields(entry);
  if (missing.length > 0) {
    problems.push(`expected numbers in ${missing.join(', ')}, found them missing or of another type`);
    return { system_name: name, ok: false, checks, problems };
  }
  const info = manifest.splits[split];
  const add = (name: string, expected: number, found: number): void => {
    checks.push({ name, expected, found, ok: Math.abs(expected - found) <= tolerance });
  };
  add(
    'overall_cited_correctness = mean(per_type)',
    pyMean(Object.values(entry.per_type)),
    entry.overall_cited_correctness,
  );
  add(
    'overall_uncited_correctness = mean(per_type_uncited)',
    pyMean(Object.values(entry.per_type_uncited)),
    entry.overall_uncited_correctness,
  );
  if (!info) {
    problems.push(`the manifest has no split ${JSON.stringify(split)}`);
  } else {
    if (entry.n_tasks !== info.n_tasks) problems.push(`n_tasks ${entry.n_tasks} != manifest ${info.n_tasks}`);
    const micro = weighted(entry.per_type, info.by_type, info.n_tasks);
    const microUncited = weighted(entry.per_type_uncited, info.by_type, info.n_tasks);
    if (micro === null || microUncited === null) problems.push('per_type names a type the manifest does not count');
    else {
      add('overall_cited_correctness_micro = Σ n_t·per_type_t / N', micro, entry.overall_cited_correctness_micro);
      add(
        'overall_uncited_correctness_micro = Σ n_t·per_type_uncited_t / N',
        microUncited,
        entry.overall_uncited_correctness_micro,
      );
    }
  }
  for (const c of checks)
    if (!c.ok)
      problems.push(
        `${c.name}: expected ${c.expected}, found ${c.found} (|diff| ${Math.abs(c.expected - c.found)} > ${tolerance})`,
      );
  return { system_name: name, ok: problems.length === 0, checks, problems };
}

export function checkLeaderboard(
  leaderboard: Leaderboard,
  manifest: Manifest,
  tolerance = 1e-9,
): LeaderboardCheckRow[] {
  return leaderboard.entries.map((e) => checkLeaderboardEntry(e, manifest, tolerance));
}
