/**
 * What the map colours a task by when it shows the systems: each system's outcome on it, and how
 * many of the systems got it right. With the judge's verdicts (a judge cache that covers every
 * task the system answered) the outcome is the judge's; without them, what the judge-free
 * numbers tell: whether the citations reached the gold set.
 */
import type { SystemTaskNumbers } from '../explorer/systems.ts';

export const JUDGED_OUTCOMES = ['correct and cited', 'correct, citations not credited', 'wrong', 'no answer'] as const;
export const CITATION_OUTCOMES = [
  'cited gold',
  'cited outside the gold only',
  'cited no gold',
  'no gold to cite',
  'no answer',
] as const;
export type JudgedOutcome = (typeof JUDGED_OUTCOMES)[number];
export type CitationOutcome = (typeof CITATION_OUTCOMES)[number];
export type Outcome = JudgedOutcome | CitationOutcome;

/** Verdict-based scores of one task: [cited, uncited], as the judge cache gives them. */
export type TaskVerdict = readonly [number, number];

export function judgedOutcome(cell: SystemTaskNumbers | null, verdict: TaskVerdict | undefined): JudgedOutcome {
  if (!cell?.answered || !verdict) return 'no answer';
  const [cited, uncited] = verdict;
  if (cited > 0) return 'correct and cited';
  return uncited > 0 ? 'correct, citations not credited' : 'wrong';
}

export function citationOutcome(cell: SystemTaskNumbers | null): CitationOutcome {
  if (!cell?.answered) return 'no answer';
  // The no-gold types (unanswerable, false premise) have no citation gold to reach.
  if (cell.citationPrecision === null) return 'no gold to cite';
  if (cell.citedGold > 0) return 'cited gold';
  return cell.citedOutside > 0 ? 'cited outside the gold only' : 'cited no gold';
}

/** A system is judged on the map when the cache holds a verdict for every task it answered. */
export function judgedThroughout(
  cells: ReadonlyArray<SystemTaskNumbers | null>,
  taskIds: readonly string[],
  verdicts: Readonly<Record<string, TaskVerdict>> | undefined,
): boolean {
  if (!verdicts) return false;
  return cells.every((c, t) => !c?.answered || verdicts[taskIds[t]!] !== undefined);
}

/** Whether an outcome counts as the system getting the task right, for the agreement count. */
export const isRight = (o: Outcome): boolean => o === 'correct and cited' || o === 'cited gold';
