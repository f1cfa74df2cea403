/**
 * Evidence against the judges' excerpt (rules.ts): which gold documents ground a claim only
 * past the first JUDGE_EXCERPT_CHARS characters the pool and gauntlet judges read.
 */
import type { SplitName, TaskType } from '../release/types.ts';
import type { TaskGrounding } from './grounding.ts';
import { JUDGE_EXCERPT_CHARS } from './rules.ts';

export interface CutoffDoc {
  doc_id: string;
  /** The claim this document grounds (item index, or null for the answer). */
  item: number | null;
  claim: string;
  match: 'verbatim' | 'overlap';
  /** Passage start and end in code points. */
  start: number;
  end: number;
  chars: number;
}

export interface CutoffTask {
  split: SplitName;
  task_id: string;
  type: TaskType;
  question: string;
  /** Gold documents whose evidence starts at or after the cut-off. */
  past: CutoffDoc[];
  /** True when no gold document shows any of the task's evidence inside its excerpt. */
  nonePassed: boolean;
}

export interface CutoffSummary {
  excerptChars: number;
  /** Grounding (claim, document) pairs examined. */
  evidencePairs: number;
  /** Of those, evidence starting at or after the cut-off. */
  pastPairs: number;
  /** Pairs whose passage starts inside the excerpt but ends past it. */
  straddlingPairs: number;
  /** Tasks with at least one document flagged. */
  tasksFlagged: number;
  /** Tasks none of whose gold documents shows evidence inside the excerpt. */
  tasksAllPast: number;
  flagged: CutoffTask[];
}

export function excerptCutoffs(results: readonly TaskGrounding[], excerptChars = JUDGE_EXCERPT_CHARS): CutoffSummary {
  let evidencePairs = 0;
  let pastPairs = 0;
  let straddlingPairs = 0;
  const flagged: CutoffTask[] = [];
  for (const r of results) {
    const past: CutoffDoc[] = [];
    let insideAny = false;
    for (const c of r.claims) {
      for (const e of c.perDoc) {
        if (e.match === 'none' || !e.passage) continue;
        evidencePairs++;
        if (e.passage.start >= excerptChars) {
          pastPairs++;
          past.push({
            doc_id: e.doc_id,
            item: c.item,
            claim: c.claim,
            match: e.match,
            start: e.passage.start,
            end: e.passage.end,
            chars: e.chars,
          });
        } else {
          insideAny = true;
          if (e.passage.end > excerptChars) straddlingPairs++;
        }
      }
    }
    if (past.length > 0)
      flagged.push({
        split: r.split,
        task_id: r.task_id,
        type: r.type,
        question: r.question,
        past,
        nonePassed: !insideAny,
      });
  }
  return {
    excerptChars,
    evidencePairs,
    pastPairs,
    straddlingPairs,
    tasksFlagged: flagged.length,
    tasksAllPast: flagged.filter((f) => f.nonePassed).length,
    flagged,
  };
}
