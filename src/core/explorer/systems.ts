/**
 * The release's submissions side by side: each system's predictions parsed once (in the data
 * worker) and, per task, the judge-free numbers the scorer computes for it, with the scorer's
 * own per-task functions (recall@5/20, nDCG@10, citation precision and recall), so that every
 * number shown equals the one the scorer averages.
 */
import type { LoadedSubmission } from '../release/loaded.ts';
import type { SplitName, Task, TaskType } from '../release/types.ts';
import { citationGold, citationPrecisionRecall, ndcgAtK, recallAtK } from '../scoring/metrics.ts';
import { parsePredictions, type PredictionsResult, type ScoringPrediction } from '../scoring/predictions.ts';
import { NO_GOLD_TYPES } from '../scoring/task-score.ts';

/** An answer longer than this is cut for display (the whole length is reported). */
export const SHOWN_ANSWER_CHARS = 20_000;

export interface SystemInfo {
  slug: string;
  name: string;
  split: SplitName;
  /** Valid predictions, and the problems of the file (the first one in words). */
  predictions: number;
  issues: number;
  firstIssue?: string;
}

/** One system's numbers on one task; the retrieval and citation numbers are null for the no-gold types. */
export interface SystemTaskNumbers {
  answered: boolean;
  recall5: number | null;
  recall20: number | null;
  ndcg10: number | null;
  /** Citations given (duplicates count, as in precision) and how many distinct ones are gold. */
  citations: number;
  citedGold: number;
  citationPrecision: number | null;
  citationRecall: number | null;
  /** Gold documents in the (deduplicated, capped) retrieved list. */
  retrievedGold: number;
  /** Distinct cited documents outside the citation gold (pool bias), and of those, the ones in the gate. */
  citedOutside: number;
  gateOutside: number;
}

export interface SystemsTask {
  task_id: string;
  type: TaskType;
  question: string;
  /** Number of gold documents (retrieval gold). */
  gold: number;
}

export interface SystemsMatrix {
  split: SplitName;
  systems: SystemInfo[];
  tasks: SystemsTask[];
  /** cells[t][s]: task t, system s; null when the system has no valid prediction for it. */
  cells: Array<Array<SystemTaskNumbers | null>>;
  /** Submissions left out, and why (no predictions, another split, no answer key). */
  leftOut: Array<{ slug: string; why: string }>;
  /** Time spent parsing the predictions files (once per release). */
  parseMs: number;
}

export interface TaskSystem {
  slug: string;
  name: string;
  numbers: SystemTaskNumbers | null;
  answer: string;
  answerChars: number;
  /** In the order given; gold = in the scorer's citation gold (gold_docs and item docs); gate = counts for correctness. */
  citations: Array<{ doc_id: string; gold: boolean; gate: boolean }>;
  /** Where each gold document is in the retrieved list (1-based), or null when absent. */
  goldRanks: Array<{ doc_id: string; rank: number | null }>;
  retrieved: Array<{ doc_id: string; gold: boolean }>;
}

interface Parsed {
  info: SystemInfo;
  result: PredictionsResult;
}

export function numbersFor(task: Task, p: ScoringPrediction, gate = 3): SystemTaskNumbers {
  const gold = task.gold_docs ?? [];
  const citeGold = citationGold(task);
  const retrieved = new Set(p.retrieved);
  const noGold = NO_GOLD_TYPES.has(task.type);
  const cit = noGold ? null : citationPrecisionRecall(p.citations, citeGold);
  return {
    answered: p.answer !== '',
    recall5: noGold ? null : recallAtK(p.retrieved, gold, 5),
    recall20: noGold ? null : recallAtK(p.retrieved, gold, 20),
    ndcg10: noGold ? null : ndcgAtK(p.retrieved, gold, 10),
    citations: p.citations.length,
    citedGold: new Set(p.citations.filter((c) => citeGold.has(c))).size,
    citationPrecision: cit?.precision ?? null,
    citationRecall: cit?.recall ?? null,
    retrievedGold: gold.filter((g) => retrieved.has(g)).length,
    citedOutside: noGold ? 0 : new Set(p.citations.filter((c) => !citeGold.has(c))).size,
    gateOutside: noGold ? 0 : new Set(p.citations.slice(0, gate).filter((c) => !citeGold.has(c))).size,
  };
}

/** Parses each submission's predictions once; answers the Systems view and the task page. */
export class SystemsIndex {
  private readonly parsed = new Map<SplitName, Parsed[]>();
  private readonly leftOut = new Map<SplitName, SystemsMatrix['leftOut']>();
  private readonly matrices = new Map<SplitName, SystemsMatrix>();
  private parseMs = 0;

  constructor(
    private readonly tasksOf: (split: SplitName) => Task[] | undefined,
    private readonly submissions: readonly LoadedSubmission[],
    /** Citations that count for correctness (the judge profile's gate_max_citations). */
    private readonly gate = 3,
    private readonly now: () => number = () => performance.now(),
  ) {}

  private systems(split: SplitName): Parsed[] {
    let out = this.parsed.get(split);
    if (out) return out;
    out = [];
    const leftOut: SystemsMatrix['leftOut'] = [];
    const tasks = this.tasksOf(split);
    const started = this.now();
    for (const s of this.submissions) {
      const name = s.metadata?.system_name ?? s.scores?.system_name ?? s.slug;
      const subSplit = (s.metadata?.split ?? s.scores?.split ?? 'full') as SplitName;
      if (subSplit !== split) continue;
      if (s.predictionsText === undefined) {
        leftOut.push({ slug: s.slug, why: `${name}: the release has no predictions.jsonl for it` });
        continue;
      }
      if (!tasks) {
        leftOut.push({ slug: s.slug, why: `${name}: the ${split} answer key is not in the release` });
        continue;
      }
      const result = parsePredictions(s.predictionsText, tasks, { mode: 'score', maxIssues: 1 });
      out.push({
        info: {
          slug: s.slug,
          name,
          split,
          predictions: result.byTaskId.size,
          issues: result.issueCount,
          ...(result.issues[0] ? { firstIssue: result.issues[0].message } : {}),
        },
        result,
      });
    }
    this.parseMs += this.now() - started;
    this.parsed.set(split, out);
    this.leftOut.set(split, leftOut);
    return out;
  }

  /** Tasks × systems with the judge-free numbers (built once per split). */
  matrix(split: SplitName): SystemsMatrix {
    const cached = this.matrices.get(split);
    if (cached) return cached;
    const systems = this.systems(split);
    const tasks = this.tasksOf(split) ?? [];
    const matrix: SystemsMatrix = {
      split,
      systems: systems.map((s) => s.info),
      tasks: tasks.map((t) => ({
        task_id: t.task_id,
        type: t.type,
        question: t.question,
        gold: t.gold_docs?.length ?? 0,
      })),
      cells: tasks.map((t) =>
        systems.map((s) => {
          const p = s.result.byTaskId.get(t.task_id);
          return p ? numbersFor(t, p, this.gate) : null;
        }),
      ),
      leftOut: this.leftOut.get(split) ?? [],
      parseMs: this.parseMs,
    };
    this.matrices.set(split, matrix);
    return matrix;
  }

  /** Every system's answer to one task, its citations and where the gold documents fall in its retrieved list. */
  task(taskId: string, split: SplitName): TaskSystem[] {
    const task = this.tasksOf(split)?.find((t) => t.task_id === taskId);
    if (!task) return [];
    const gold = new Set(task.gold_docs ?? []);
    const citeGold = citationGold(task);
    return this.systems(split).map(({ info, result }) => {
      const p = result.byTaskId.get(taskId);
      if (!p) {
        return {
          slug: info.slug,
          name: info.name,
          numbers: null,
          answer: '',
          answerChars: 0,
          citations: [],
          goldRanks: [],
          retrieved: [],
        };
      }
      return {
        slug: info.slug,
        name: info.name,
        numbers: numbersFor(task, p, this.gate),
        answer: p.answer.slice(0, SHOWN_ANSWER_CHARS),
        answerChars: p.answer.length,
        citations: p.citations.map((doc_id, i) => ({ doc_id, gold: citeGold.has(doc_id), gate: i < this.gate })),
        goldRanks: (task.gold_docs ?? []).map((doc_id) => {
          const at = p.retrieved.indexOf(doc_id);
          return { doc_id, rank: at < 0 ? null : at + 1 };
        }),
        retrieved: p.retrieved.map((doc_id) => ({ doc_id, gold: gold.has(doc_id) })),
      };
    });
  }
}
