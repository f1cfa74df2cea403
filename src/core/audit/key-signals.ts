/**
 * Key-reading signals (issue 23.5). The answer key is public; the scorer cannot tell whether a
 * submission read it. These are traces such a submission tends to leave, each counted for the
 * submission and for every published system of the release beside it, with the tasks listed.
 * A raised signal is something to review, never a verdict.
 */
import type { Task, TaskType } from '../release/types.ts';
import { citationGold } from '../scoring/metrics.ts';
import type { PredictionsResult, ScoringPrediction } from '../scoring/predictions.ts';
import { NO_GOLD_TYPES } from '../scoring/task-score.ts';
import { collapseLower } from './normalise.ts';

export const KEY_SIGNALS = [
  'gold_cited_not_retrieved',
  'citations_equal_gold_set',
  'answer_equals_reference',
  'credit_no_published_system_gets',
] as const;
export type KeySignalId = (typeof KEY_SIGNALS)[number];

/** Free-text types: one reference answer string (the list types are judged item by item). */
const FREE_TEXT_TYPES: ReadonlySet<TaskType> = new Set(['single_hop', 'timeline']);

export const KEY_SIGNAL_RULES: Record<KeySignalId, { title: string; rule: string }> = {
  gold_cited_not_retrieved: {
    title: 'Gold documents cited that the system did not retrieve',
    rule: "answerable tasks where a citation is in the task's gold set (gold_docs and every item's doc_ids) but not in the submission's own retrieved list",
  },
  citations_equal_gold_set: {
    title: 'Citation sets exactly equal to a multi-document gold set',
    rule: "answerable tasks with two or more gold documents where the set of citations equals the set of gold_docs (or gold_docs with every item's doc_ids)",
  },
  answer_equals_reference: {
    title: 'Answers equal to the reference answer',
    rule: 'single_hop and timeline tasks where the answer equals the reference answer lowercased with whitespace runs collapsed (Python: " ".join(s.lower().split())); the scorer itself compares nothing, its judge reads the raw text',
  },
  credit_no_published_system_gets: {
    title: 'Credit on tasks no published system gets',
    rule: "of the answerable tasks on which no other published system's gate (its first gate_max_citations citations) holds a gold document, those on which the submission's gate does (the citation half of cited correctness; needs no judge)",
  },
};

export interface SignalFigure {
  /** Tasks showing the signal, in task order. */
  task_ids: string[];
  /** Tasks the signal is counted over. */
  of: number;
}

export interface KeySignal {
  id: KeySignalId;
  title: string;
  rule: string;
  submission: SignalFigure;
  /** The same figure for every published system (the submission itself left out when it is one). */
  published: Array<{ slug: string; figure: SignalFigure }>;
  /**
   * The submission's share is above 0 and above every other published system's share; with no
   * other published system to compare with, at least RAISE_ALONE_SHARE of the tasks.
   */
  raised: boolean;
  /** Why the signal could not be measured (e.g. no other published system to compare with). */
  unavailable?: string;
}

export interface KeySignalsInput {
  tasks: readonly Task[];
  submission: { slug: string; predictions: PredictionsResult };
  published: ReadonlyArray<{ slug: string; predictions: PredictionsResult }>;
  gateSize: number;
}

export interface KeySignalsReport {
  submission: string;
  published: string[];
  signals: KeySignal[];
  /** Signals raised, for a summary line. */
  raised: number;
}

type TaskTest = (task: Task, pred: ScoringPrediction) => boolean;

function figure(
  tasks: readonly Task[],
  predictions: PredictionsResult,
  applies: (t: Task) => boolean,
  test: TaskTest,
): SignalFigure {
  const task_ids: string[] = [];
  let of = 0;
  for (const task of tasks) {
    if (!applies(task)) continue;
    const pred = predictions.byTaskId.get(task.task_id);
    if (!pred) continue;
    of++;
    if (test(task, pred)) task_ids.push(task.task_id);
  }
  return { task_ids, of };
}

const answerable = (t: Task): boolean => !NO_GOLD_TYPES.has(t.type);

const goldCitedNotRetrieved: TaskTest = (task, pred) => {
  const gold = citationGold(task);
  const retrieved = new Set(pred.retrieved);
  return pred.citations.some((c) => gold.has(c) && !retrieved.has(c));
};

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

const citationsEqualGold: TaskTest = (task, pred) => {
  const cited = new Set(pred.citations);
  const gold = new Set(task.gold_docs ?? []);
  const withItems = citationGold(task);
  return (gold.size >= 2 && sameSet(cited, gold)) || (withItems.size >= 2 && sameSet(cited, withItems));
};

const answerEqualsReference: TaskTest = (task, pred) => {
  const reference = collapseLower(task.answer ?? '');
  return reference !== '' && collapseLower(pred.answer) === reference;
};

function gateHasGold(task: Task, pred: ScoringPrediction | undefined, gateSize: number): boolean {
  if (!pred) return false;
  const gold = citationGold(task);
  return pred.citations.slice(0, gateSize).some((c) => gold.has(c));
}

/** Without a published system to compare with, a signal is raised from this share of the tasks up. */
export const RAISE_ALONE_SHARE = 0.5;

function shareOf(f: SignalFigure): number {
  return f.of ? f.task_ids.length / f.of : 0;
}

function signal(
  id: KeySignalId,
  submission: SignalFigure,
  published: KeySignal['published'],
  unavailable?: string,
): KeySignal {
  const top = published.length ? Math.max(...published.map((p) => shareOf(p.figure))) : null;
  const share = shareOf(submission);
  return {
    id,
    ...KEY_SIGNAL_RULES[id],
    submission,
    published,
    raised:
      unavailable === undefined &&
      submission.task_ids.length > 0 &&
      (top === null ? share >= RAISE_ALONE_SHARE : share > top),
    ...(unavailable !== undefined ? { unavailable } : {}),
  };
}

export function keySignals(input: KeySignalsInput): KeySignalsReport {
  const { tasks, gateSize } = input;
  const others = input.published.filter((p) => p.slug !== input.submission.slug);
  const simple = (id: KeySignalId, applies: (t: Task) => boolean, test: TaskTest): KeySignal =>
    signal(
      id,
      figure(tasks, input.submission.predictions, applies, test),
      others.map((p) => ({ slug: p.slug, figure: figure(tasks, p.predictions, applies, test) })),
    );

  // Credit no one else gets: over the tasks none of the rivals gets credit on, those the system gets.
  const aloneAgainst = (predictions: PredictionsResult, rivals: ReadonlyArray<{ predictions: PredictionsResult }>) =>
    figure(
      tasks,
      predictions,
      (task) =>
        answerable(task) && rivals.every((r) => !gateHasGold(task, r.predictions.byTaskId.get(task.task_id), gateSize)),
      (task, pred) => gateHasGold(task, pred, gateSize),
    );
  const credit =
    others.length === 0
      ? signal(
          'credit_no_published_system_gets',
          { task_ids: [], of: 0 },
          [],
          'no other published system with predictions to compare with',
        )
      : signal(
          'credit_no_published_system_gets',
          aloneAgainst(input.submission.predictions, others),
          others.length < 2
            ? []
            : others.map((p) => ({
                slug: p.slug,
                figure: aloneAgainst(
                  p.predictions,
                  others.filter((o) => o !== p),
                ),
              })),
        );

  const signals = [
    simple('gold_cited_not_retrieved', answerable, goldCitedNotRetrieved),
    simple('citations_equal_gold_set', (t) => answerable(t) && citationGold(t).size >= 2, citationsEqualGold),
    simple('answer_equals_reference', (t) => FREE_TEXT_TYPES.has(t.type), answerEqualsReference),
    credit,
  ];
  return {
    submission: input.submission.slug,
    published: others.map((p) => p.slug),
    signals,
    raised: signals.filter((s) => s.raised).length,
  };
}

/** The report as lines for a terminal: figures beside the published systems', worded as signals to review. */
export function keySignalLines(report: KeySignalsReport, shownTasks = 5): string[] {
  const pct = (f: SignalFigure) =>
    `${f.task_ids.length}/${f.of}${f.of ? ` (${((100 * f.task_ids.length) / f.of).toFixed(1)}%)` : ''}`;
  const lines = [
    `key-reading signals for ${report.submission} (signals to review, not a verdict: a system may show them for honest reasons)`,
  ];
  for (const s of report.signals) {
    lines.push(
      `  ${s.raised ? 'REVIEW' : '  -   '}  ${s.title}: ${s.unavailable ? `not measured (${s.unavailable})` : pct(s.submission)}`,
    );
    lines.push(`          rule: ${s.rule}`);
    for (const p of s.published) lines.push(`          beside ${p.slug}: ${pct(p.figure)}`);
    const ids = s.submission.task_ids;
    if (ids.length)
      lines.push(
        `          tasks: ${ids.slice(0, shownTasks).join(', ')}${ids.length > shownTasks ? `, ... and ${ids.length - shownTasks} more` : ''}`,
      );
  }
  lines.push(
    `  ${report.raised} of ${report.signals.length} signals to review: above every other published system${report.published.length ? ` (${report.published.join(', ')})` : ` (none has predictions here, so a signal is raised from ${RAISE_ALONE_SHARE * 100}% of the tasks up)`}`,
  );
  return lines;
}
