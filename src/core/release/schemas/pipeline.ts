/** The gauntlet's logs: rejected.jsonl, pool_dropped.jsonl, and our pool / rejection-detail files (spec 1.8). */
import type { IssueList } from '../issues.ts';
import {
  ADJUDICATION_CATEGORIES,
  type PoolDropped,
  type PoolEntry,
  type Rejected,
  type RejectionDetail,
  type RejectionStage,
  type TaskType,
} from '../types.ts';
import { anyString, arrayOf, docId, object, oneOf, refine, report, uuid, type Validator } from '../validate.ts';
import { ANSWERABLE_TYPES, taskType } from './common.ts';

export const REJECTION_STAGES: readonly RejectionStage[] = [
  'standalone',
  'answerability',
  'necessity',
  'adjudication',
  'error',
];
export const REJECTION_REASON_GRAMMAR =
  'standalone | answerability | necessity | adjudication:<category> | error:<message>';

export interface ParsedRejectionReason {
  stage: RejectionStage;
  category?: string;
  message?: string;
}

const CATEGORY_RE = /^[a-z_]+$/;

/** Reads a rejected.jsonl reason; undefined when it does not follow the grammar. */
export function parseRejectionReason(reason: string): ParsedRejectionReason | undefined {
  if (reason === 'standalone' || reason === 'answerability' || reason === 'necessity') return { stage: reason };
  if (reason.startsWith('adjudication:')) {
    const category = reason.slice('adjudication:'.length);
    return CATEGORY_RE.test(category) ? { stage: 'adjudication', category } : undefined;
  }
  if (reason.startsWith('error:')) return { stage: 'error', message: reason.slice('error:'.length) };
  return undefined;
}

/** The adjudicator's categories for a task type (answerable, unanswerable and false_premise differ). */
export function adjudicationCategoriesFor(type: TaskType): readonly string[] {
  if (ANSWERABLE_TYPES.has(type)) return ADJUDICATION_CATEGORIES.answerable;
  return type === 'unanswerable' ? ADJUDICATION_CATEGORIES.unanswerable : ADJUDICATION_CATEGORIES.false_premise;
}

/** Checks a reason against the grammar and, for adjudication, the categories of the type. */
function checkReason(
  reason: string,
  type: TaskType | undefined,
  ctx: Parameters<Validator<unknown>>[1],
  issues: IssueList,
): ParsedRejectionReason | undefined {
  const parsed = parseRejectionReason(reason);
  if (!parsed) return report(issues, ctx, REJECTION_REASON_GRAMMAR, reason, 'reason');
  if (parsed.stage === 'adjudication' && type !== undefined && parsed.category !== undefined) {
    const allowed = adjudicationCategoriesFor(type);
    if (!allowed.includes(parsed.category)) {
      return report(issues, ctx, `adjudication:<${allowed.join('|')}> for a ${type} task`, reason, 'reason');
    }
  }
  return parsed;
}

export const rejectedValidator: Validator<Rejected> = refine(
  object({ task_id: uuid, type: taskType, reason: anyString }),
  (row, ctx, issues) => checkReason(row.reason, row.type, ctx, issues) !== undefined,
);

export const POOL_DROP_REASONS_GRAMMAR = 'source_not_supportive | unstable_pool | error:<message>';

export function isPoolDropReason(reason: string): boolean {
  return reason === 'source_not_supportive' || reason === 'unstable_pool' || reason.startsWith('error:');
}

export const poolDroppedValidator: Validator<PoolDropped> = refine(
  object({ task_id: uuid, reason: anyString }),
  (row, ctx, issues) => {
    if (isPoolDropReason(row.reason)) return true;
    report(issues, ctx, POOL_DROP_REASONS_GRAMMAR, row.reason, 'reason');
    return false;
  },
);

export const POOL_SOURCES = ['bm25', 'dense', 'hybrid', 'source', 'alias'] as const;

export const poolEntryValidator: Validator<PoolEntry> = object({
  task_id: uuid,
  doc_id: docId,
  judgement: oneOf(['supports', 'partial', 'irrelevant']),
  from: arrayOf(oneOf(POOL_SOURCES), { minLength: 1 }),
});

export const rejectionDetailValidator: Validator<RejectionDetail> = refine(
  object({
    task_id: uuid,
    stage: oneOf([...REJECTION_STAGES, 'pool'] as const),
    reason: anyString,
    saw: anyString,
    why: anyString,
  }),
  (row, ctx, issues) => {
    if (row.stage === 'pool') {
      if (row.reason.startsWith('pool:') && isPoolDropReason(row.reason.slice(5))) return true;
      report(issues, ctx, `pool:<${POOL_DROP_REASONS_GRAMMAR}>`, row.reason, 'reason');
      return false;
    }
    const parsed = checkReason(row.reason, undefined, ctx, issues);
    if (!parsed) return false;
    if (parsed.stage !== row.stage) {
      report(issues, ctx, `a reason of stage "${row.stage}"`, row.reason, 'reason');
      return false;
    }
    return true;
  },
);
