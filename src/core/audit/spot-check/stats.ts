/**
 * What the spot-check labels say: per question, the share of answers that find an error with a
 * Wilson 95% interval; Cohen's kappa between the reviewers and the judge, and between reviewers.
 */
import { SPOT_QUESTIONS, type SpotAnswer, type SpotLabel, type SpotQuestion } from './labels.ts';

/** The two-sided 95% normal quantile. */
export const Z95 = 1.959963984540054;

/** Wilson score interval of k successes in n trials; null for n = 0. */
export function wilson(k: number, n: number, z = Z95): [number, number] | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const den = 1 + z2 / n;
  return [Math.max(0, (centre - margin) / den), Math.min(1, (centre + margin) / den)];
}

/** Cohen's kappa of paired labels; null when chance agreement is total (one category only). */
export function cohenKappa<T>(pairs: ReadonlyArray<readonly [T, T]>): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  let agree = 0;
  const a = new Map<T, number>();
  const b = new Map<T, number>();
  for (const [x, y] of pairs) {
    if (x === y) agree++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  const po = agree / n;
  let pe = 0;
  for (const [c, na] of a) pe += (na / n) * ((b.get(c) ?? 0) / n);
  if (pe >= 1) return null;
  return (po - pe) / (1 - pe);
}

/** Which answer finds an error: "no" to every question (not standalone, wrong gold, no support, judge wrong). */
export const ERROR_ANSWER: Readonly<Record<SpotQuestion, SpotAnswer>> = {
  standalone: 'no',
  answer_right: 'no',
  docs_support: 'no',
  judge_agrees: 'no',
};

/** How one verdict per task is drawn from its reviewers' answers (the UI and README say it too). */
export const TASK_VERDICT_RULE =
  "One verdict per task: the majority of its reviewers' yes/no answers; a tie counts as an error found.";

/** Reviewer pairs get a kappa only among this many reviewers (those with the most labels). */
export const MAX_PAIR_REVIEWERS = 12;

export interface QuestionStats {
  question: SpotQuestion;
  /** Tasks with a yes/no verdict (tasks whose answers are all unsure or n/a are left out). */
  answered: number;
  /** Tasks whose verdict finds an error. */
  errors: number;
  rate: number | null;
  wilson: [number, number] | null;
}

/** How far reviewers agree on one question, over every pair of answers to the same task. */
export interface QuestionAgreement {
  question: SpotQuestion;
  /** Tasks with yes/no answers from two or more reviewers. */
  tasks: number;
  /** Of those, tasks whose reviewers did not all give the same answer. */
  split: number;
  pairs: number;
  agreeingPairs: number;
}

export interface SpotCheckStats {
  tasks: number;
  labels: number;
  /** How many reviewers, and the names of at most MAX_LISTED_REVIEWERS of them (most labels first). */
  reviewerCount: number;
  reviewers: string[];
  questions: QuestionStats[];
  agreement: QuestionAgreement[];
  /** Per task, the reviewers' verdict on the judge's (agreeing keeps it, disagreeing flips it) against the judge's. */
  judgeKappa: { n: number; agree: number; kappa: number | null } | null;
  reviewerKappa: Array<{ a: string; b: string; question: SpotQuestion; n: number; kappa: number | null }>;
  /** Reviewers left out of the pairwise kappas (their answers count everywhere else). */
  pairReviewersLeftOut: number;
}

export const MAX_LISTED_REVIEWERS = 20;

const decided = (a: SpotAnswer | null): a is 'yes' | 'no' => a === 'yes' || a === 'no';
const choose2 = (n: number) => (n * (n - 1)) / 2;

/** The task's verdict from its reviewers' yes/no answers: the majority, a tie counting as the error. */
function verdict(answers: readonly ('yes' | 'no')[], error: 'yes' | 'no'): 'yes' | 'no' | null {
  if (!answers.length) return null;
  const errors = answers.filter((a) => a === error).length;
  return errors * 2 >= answers.length ? error : error === 'no' ? 'yes' : 'no';
}

/**
 * Rates and intervals count tasks, not label sets, so reviewers who overlap never narrow an
 * interval; agreement is reported apart. Linear in the labels, except the pairwise kappas, which
 * are bounded to MAX_PAIR_REVIEWERS reviewers.
 */
export function spotCheckStats(labels: readonly SpotLabel[]): SpotCheckStats {
  const byTask = new Map<string, SpotLabel[]>();
  const perReviewer = new Map<string, number>();
  for (const l of labels) {
    const k = `${l.split}:${l.task_id}`;
    const list = byTask.get(k);
    if (list) list.push(l);
    else byTask.set(k, [l]);
    perReviewer.set(l.reviewer, (perReviewer.get(l.reviewer) ?? 0) + 1);
  }
  const ranked = [...perReviewer].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));

  const questions: QuestionStats[] = [];
  const agreement: QuestionAgreement[] = [];
  for (const question of SPOT_QUESTIONS) {
    let answered = 0;
    let errors = 0;
    const agree: QuestionAgreement = { question, tasks: 0, split: 0, pairs: 0, agreeingPairs: 0 };
    for (const list of byTask.values()) {
      const answers = list.map((l) => l.labels[question]).filter(decided);
      const v = verdict(answers, ERROR_ANSWER[question] === 'no' ? 'no' : 'yes');
      if (v === null) continue;
      answered++;
      if (v === ERROR_ANSWER[question]) errors++;
      if (answers.length > 1) {
        const yes = answers.filter((a) => a === 'yes').length;
        const no = answers.length - yes;
        agree.tasks++;
        if (yes && no) agree.split++;
        agree.pairs += choose2(answers.length);
        agree.agreeingPairs += choose2(yes) + choose2(no);
      }
    }
    questions.push({
      question,
      answered,
      errors,
      rate: answered ? errors / answered : null,
      wilson: wilson(errors, answered),
    });
    agreement.push(agree);
  }

  // One pair per task and judged submission: the judge's verdict, and the reviewers' (majority of agree/disagree).
  const judgePairs: Array<[string, string]> = [];
  for (const list of byTask.values()) {
    const bySubmission = new Map<string, { verdict: string; answers: Array<'yes' | 'no'> }>();
    for (const l of list) {
      const a = l.labels.judge_agrees;
      if (!l.judge || !decided(a)) continue;
      const k = `${l.judge.submission}\u0000${l.judge.verdict}`;
      const entry = bySubmission.get(k) ?? { verdict: l.judge.verdict, answers: [] };
      entry.answers.push(a);
      bySubmission.set(k, entry);
    }
    for (const { verdict: judge, answers } of bySubmission.values()) {
      const agrees = verdict(answers, 'no') === 'yes';
      judgePairs.push([judge, agrees ? judge : judge === 'credit' ? 'no_credit' : 'credit']);
    }
  }

  const pairReviewers = ranked
    .slice(0, MAX_PAIR_REVIEWERS)
    .map(([name]) => name)
    .sort();
  const byReviewer = new Map<string, Map<string, SpotLabel>>(pairReviewers.map((r) => [r, new Map()]));
  for (const l of labels) byReviewer.get(l.reviewer)?.set(`${l.split}:${l.task_id}`, l);
  const reviewerKappa: SpotCheckStats['reviewerKappa'] = [];
  for (let i = 0; i < pairReviewers.length; i++)
    for (let j = i + 1; j < pairReviewers.length; j++) {
      const a = byReviewer.get(pairReviewers[i]!)!;
      const b = byReviewer.get(pairReviewers[j]!)!;
      for (const question of SPOT_QUESTIONS) {
        const pairs: Array<[string, string]> = [];
        for (const [k, la] of a) {
          const x = la.labels[question];
          const y = b.get(k)?.labels[question] ?? null;
          if (decided(x) && decided(y)) pairs.push([x, y]);
        }
        if (pairs.length)
          reviewerKappa.push({
            a: pairReviewers[i]!,
            b: pairReviewers[j]!,
            question,
            n: pairs.length,
            kappa: cohenKappa(pairs),
          });
      }
    }

  return {
    tasks: byTask.size,
    labels: labels.length,
    reviewerCount: ranked.length,
    reviewers: ranked
      .slice(0, MAX_LISTED_REVIEWERS)
      .map(([name]) => name)
      .sort(),
    questions,
    agreement,
    judgeKappa: judgePairs.length
      ? { n: judgePairs.length, agree: judgePairs.filter(([x, y]) => x === y).length, kappa: cohenKappa(judgePairs) }
      : null,
    reviewerKappa,
    pairReviewersLeftOut: Math.max(0, ranked.length - MAX_PAIR_REVIEWERS),
  };
}
