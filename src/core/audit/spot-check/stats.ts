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

export interface QuestionStats {
  question: SpotQuestion;
  /** Labels answering yes or no (unsure and n/a are left out). */
  answered: number;
  errors: number;
  rate: number | null;
  wilson: [number, number] | null;
}

export interface SpotCheckStats {
  tasks: number;
  labels: number;
  reviewers: string[];
  questions: QuestionStats[];
  /** Reviewer verdicts (the judge's when they agree, the other one when not) against the judge's. */
  judgeKappa: { n: number; agree: number; kappa: number | null } | null;
  reviewerKappa: Array<{ a: string; b: string; question: SpotQuestion; n: number; kappa: number | null }>;
}

const decided = (a: SpotAnswer | null): a is 'yes' | 'no' => a === 'yes' || a === 'no';

export function spotCheckStats(labels: readonly SpotLabel[]): SpotCheckStats {
  const reviewers = [...new Set(labels.map((l) => l.reviewer))].sort();
  const questions = SPOT_QUESTIONS.map((question): QuestionStats => {
    const answers = labels.map((l) => l.labels[question]).filter(decided);
    const errors = answers.filter((a) => a === ERROR_ANSWER[question]).length;
    return {
      question,
      answered: answers.length,
      errors,
      rate: answers.length ? errors / answers.length : null,
      wilson: wilson(errors, answers.length),
    };
  });

  const judgePairs: Array<[string, string]> = [];
  for (const l of labels) {
    const a = l.labels.judge_agrees;
    if (!l.judge || !decided(a)) continue;
    const other = l.judge.verdict === 'credit' ? 'no_credit' : 'credit';
    judgePairs.push([l.judge.verdict, a === 'yes' ? l.judge.verdict : other]);
  }

  const byReviewer = new Map<string, Map<string, SpotLabel>>();
  for (const l of labels) {
    const m = byReviewer.get(l.reviewer) ?? new Map<string, SpotLabel>();
    m.set(`${l.split}:${l.task_id}`, l);
    byReviewer.set(l.reviewer, m);
  }
  const reviewerKappa: SpotCheckStats['reviewerKappa'] = [];
  for (let i = 0; i < reviewers.length; i++)
    for (let j = i + 1; j < reviewers.length; j++) {
      const a = byReviewer.get(reviewers[i]!)!;
      const b = byReviewer.get(reviewers[j]!)!;
      for (const question of SPOT_QUESTIONS) {
        const pairs: Array<[string, string]> = [];
        for (const [k, la] of a) {
          const lb = b.get(k);
          const x = la.labels[question];
          const y = lb?.labels[question] ?? null;
          if (decided(x) && decided(y)) pairs.push([x, y]);
        }
        if (pairs.length)
          reviewerKappa.push({
            a: reviewers[i]!,
            b: reviewers[j]!,
            question,
            n: pairs.length,
            kappa: cohenKappa(pairs),
          });
      }
    }

  return {
    tasks: new Set(labels.map((l) => `${l.split}:${l.task_id}`)).size,
    labels: labels.length,
    reviewers,
    questions,
    judgeKappa: judgePairs.length
      ? { n: judgePairs.length, agree: judgePairs.filter(([x, y]) => x === y).length, kappa: cohenKappa(judgePairs) }
      : null,
    reviewerKappa,
  };
}
