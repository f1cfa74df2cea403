import type { ReleaseSummary } from '../../core/explorer/service.ts';

/** A next step the landing offers: a view, and the words of its link. */
export interface NextStep {
  view: string;
  text: string;
}

type Holdings = Pick<ReleaseSummary, 'files' | 'descriptor' | 'hasKey' | 'leaderboard'>;

const BUILD_LOGS = new Set(['candidates', 'rejected', 'pool_dropped']);
const held = (s: Holdings, kinds: ReadonlySet<string>) =>
  s.files.some((f) => kinds.has(f.kind) && (f.status === 'loaded' || f.status === 'deferred'));

/**
 * The landing's next steps, from what the release holds (the first three that apply): no
 * "rejected candidates" without the gauntlet's logs, no retrieval playground without an index.
 */
export function nextSteps(summary: Holdings | undefined): NextStep[] {
  if (!summary) return [];
  const steps: Array<NextStep | false> = [
    held(summary, BUILD_LOGS) && { view: 'rejections', text: 'see the rejected candidates' },
    Boolean(summary.descriptor.indexes?.bm25) && { view: 'search', text: 'try the retrieval playground' },
    Object.values(summary.hasKey).some(Boolean) && { view: 'score', text: 'score your predictions' },
    Boolean(summary.leaderboard) && { view: 'leaderboard', text: 'compare the leaderboard’s systems' },
    { view: 'audit', text: 'audit the benchmark' },
  ];
  return steps.filter((s): s is NextStep => s !== false).slice(0, 3);
}
