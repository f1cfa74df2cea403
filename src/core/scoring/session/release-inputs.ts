/**
 * What the scorer needs from a loaded release: each split's tasks, the judge profile, the
 * reference submissions, the leaderboard and the judge cache the release may ship
 * (`judge-cache.json` next to release.json, a verdicts.json map, pinned in release.json's sha256).
 */
import { errorMessage } from '../../error-message.ts';
import { parseVerdictsJson } from '../../judge/cache.ts';
import { detectLayout } from '../../release/layout.ts';
import { loadRelease, type LoadedSubmission } from '../../release/load.ts';
import { sha256Hex } from '../../release/sha256.ts';
import type { ReleaseSource } from '../../release/source.ts';
import type { JudgeProfile, Leaderboard, SplitName, Task } from '../../release/types.ts';
import { SPLITS } from '../../release/types.ts';

/** The file name of a shipped judge cache, relative to the release root. */
export const SHIPPED_JUDGE_CACHE = 'judge-cache.json';

export interface ReleaseScoringInputs {
  label: string;
  datasetVersion: string;
  tasks: Partial<Record<SplitName, Task[]>>;
  profile?: JudgeProfile;
  /** Where the profile comes from when it is not the release's own file (the site's copy). */
  profileSource?: string;
  /** Why the site's copy of the profile was refused. */
  profileError?: string;
  leaderboard?: Leaderboard;
  submissions: LoadedSubmission[];
  /** Replies the release ships, by cache key (empty when it ships none). */
  shippedCache: Map<string, string>;
  /** Why a shipped cache was not used, if one was refused. */
  shippedCacheError?: string;
}

export async function readShippedCache(
  source: ReleaseSource,
  pins: Record<string, string> | undefined,
): Promise<{ map: Map<string, string>; error?: string }> {
  const listed = source.list();
  const root = listed ? (detectLayout(listed)?.root ?? '') : '';
  if (listed && !listed.includes(`${root}${SHIPPED_JUDGE_CACHE}`)) return { map: new Map() };
  let bytes: Uint8Array | undefined;
  try {
    bytes = await source.read(`${root}${SHIPPED_JUDGE_CACHE}`);
  } catch (error) {
    return {
      map: new Map(),
      error: `${SHIPPED_JUDGE_CACHE}: ${errorMessage(error)}`,
    };
  }
  if (!bytes) return { map: new Map() };
  const pin = pins?.[SHIPPED_JUDGE_CACHE];
  if (pin !== undefined && (await sha256Hex(bytes)) !== pin) {
    return { map: new Map(), error: `${SHIPPED_JUDGE_CACHE}: sha256 differs from its pin in release.json; not used` };
  }
  try {
    return { map: parseVerdictsJson(new TextDecoder('utf-8').decode(bytes), SHIPPED_JUDGE_CACHE) };
  } catch (error) {
    return { map: new Map(), error: errorMessage(error) };
  }
}

/** Files the scorer never reads (corpus, indexes, pipeline logs): the loader sees them as absent. */
const NOT_FOR_SCORING =
  /(^|\/)(docs\.jsonl|chunks\.jsonl|entities\.json|targets\.json|candidates\.jsonl|verified\.jsonl|pooled\.jsonl|rejected\.jsonl|rejection-details\.jsonl|pool_dropped\.jsonl|pool\.jsonl|DATASET_CARD\.md|[^/]+\.parquet)$/;

/** The source as the scorer needs it: only tasks, profile, leaderboard and submissions are read. */
export function scoringView(source: ReleaseSource): ReleaseSource {
  return {
    label: source.label,
    layoutHint: source.layoutHint,
    list: () => source.list(),
    read: async (path) => (NOT_FOR_SCORING.test(path) ? undefined : source.read(path)),
    open: async (path) => (NOT_FOR_SCORING.test(path) ? undefined : source.open(path)),
  };
}

export async function loadReleaseScoringInputs(full: ReleaseSource): Promise<ReleaseScoringInputs> {
  const source = scoringView(full);
  const release = await loadRelease(source, { deferParquet: true, maxIssuesPerFile: 20 });
  const tasks: ReleaseScoringInputs['tasks'] = {};
  for (const split of SPLITS) {
    const splitTasks = release.splits[split]?.tasks;
    if (splitTasks && splitTasks.length > 0) tasks[split] = splitTasks;
  }
  const shipped = await readShippedCache(source, release.descriptor.sha256);
  return {
    label: release.descriptor.title || release.label,
    datasetVersion: release.descriptor.dataset_version,
    tasks,
    ...(release.judgeProfile ? { profile: release.judgeProfile } : {}),
    ...(release.leaderboard ? { leaderboard: release.leaderboard } : {}),
    submissions: release.submissions.filter((s) => s.predictionsText !== undefined),
    shippedCache: shipped.map,
    ...(shipped.error ? { shippedCacheError: shipped.error } : {}),
  };
}
