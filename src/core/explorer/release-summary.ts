/** What the page is told about a loaded release: its files, counts, leaderboard and what it lacks. */
import type { FileReport, LoadedRelease } from '../release/load.ts';
import type { JudgeProfile, Leaderboard, ReleaseDescriptor } from '../release/types.ts';
import type { UnsubmittedEntry } from '../release/layout.ts';

export interface ReleaseSummary {
  label: string;
  layout: LoadedRelease['layout'];
  descriptor: ReleaseDescriptor;
  files: FileReport[];
  lacks: string[];
  /** Leaderboard entries whose submission folder the release does not have (known once complete). */
  unsubmitted: UnsubmittedEntry[];
  counts: Array<{ split: string; type: string; count: number }>;
  manifestCounts: Array<{ split: string; type: string; count: number; n_tasks: number }>;
  hasKey: Record<string, boolean>;
  leaderboard?: Leaderboard;
  judgeProfile?: JudgeProfile;
  datasetCard?: string;
  submissions: Array<{
    slug: string;
    system_name?: string;
    split?: string;
    has_predictions: boolean;
    has_scores: boolean;
  }>;
  loadMs: number;
  /**
   * False while only the first files are read (questions, tasks, the small ones): the rest is
   * being read and checked, and DuckDB filled, in the background.
   */
  complete: boolean;
}

export function summarise(
  release: LoadedRelease,
  counts: ReleaseSummary['counts'],
  loadMs: number,
  complete: boolean,
): ReleaseSummary {
  const manifestCounts = Object.entries(release.manifest?.splits ?? {}).flatMap(([split, s]) =>
    Object.entries(s?.by_type ?? {}).map(([type, count]) => ({
      split,
      type,
      count: count ?? 0,
      n_tasks: s?.n_tasks ?? 0,
    })),
  );
  const hasKey = Object.fromEntries(Object.entries(release.splits).map(([split, s]) => [split, Boolean(s?.tasks)]));
  return {
    label: release.label,
    layout: release.layout,
    descriptor: release.descriptor,
    files: release.files,
    // Until every file is read, what the release lacks is not known.
    lacks: complete ? release.lacks : [],
    unsubmitted: complete ? release.unsubmitted : [],
    counts,
    manifestCounts,
    hasKey,
    leaderboard: release.leaderboard,
    judgeProfile: release.judgeProfile,
    datasetCard: release.datasetCard,
    submissions: release.submissions.map((s) => ({
      slug: s.slug,
      system_name: s.metadata?.system_name ?? s.scores?.system_name,
      split: s.metadata?.split ?? s.scores?.split,
      has_predictions: s.predictionsText !== undefined,
      has_scores: s.scores !== undefined,
    })),
    loadMs,
    complete,
  };
}
