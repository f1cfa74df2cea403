/** Questions, tasks (answer key) and the gauntlet's candidate/verified records (spec 1.2, 1.4, 1.9). */
import type { IssueList } from '../issues.ts';
import {
  LIST_TYPES,
  REFUSAL_TYPES,
  TASK_TYPES,
  type Candidate,
  type Question,
  type Task,
  type TaskType,
} from '../types.ts';
import {
  anyString,
  arrayOf,
  bool,
  docId,
  int,
  isPlainObject,
  nonEmptyString,
  nullable,
  object,
  optional,
  report,
  uuid,
  validateAt,
  type DescribedValidator,
  type Shape,
  type ValidationContext,
  type Validator,
} from '../validate.ts';
import { ANSWERABLE_TYPES, SHORT_ANSWER_TYPES, docIds, taskType } from './common.ts';

export const questionValidator: Validator<Question> = object({
  task_id: uuid,
  type: taskType,
  question: nonEmptyString,
});

export const goldItemValidator = object({ item: nonEmptyString, doc_ids: arrayOf(docId) });

/** How far down the pipeline a record is: each stage adds provenance keys (spec 1.9). */
export type PipelineStage = 'candidate' | 'verified' | 'final';

function provenanceShape(type: TaskType, stage: PipelineStage): Shape {
  const atLeastVerified = stage !== 'candidate';
  const pooled = stage === 'final' && ANSWERABLE_TYPES.has(type);
  const shape: Shape = {
    generator_model: nonEmptyString,
    pipeline_version: nonEmptyString,
    verified: atLeastVerified ? bool : optional(bool),
    adjudicator_model: atLeastVerified ? nonEmptyString : optional(nonEmptyString),
  };
  if (ANSWERABLE_TYPES.has(type)) {
    shape.pool_size = pooled ? int({ min: 0 }) : optional(int({ min: 0 }));
    shape.pool_judge_model = pooled ? nonEmptyString : optional(nonEmptyString);
  }
  if (type === 'single_hop') shape.salience = int({ min: 1, max: 5 });
  if (type === 'aggregation') {
    shape.bounding_entity = nonEmptyString;
    shape.candidate_doc_ids = docIds;
  }
  if (type === 'dossier') {
    shape.target_entity = nonEmptyString;
    shape.candidate_doc_ids = docIds;
  }
  if (type === 'false_premise') {
    shape.target_entity = nonEmptyString;
    shape.absence_doc_ids = docIds;
  }
  return shape;
}

type ProvenanceTable = Record<TaskType, Validator<unknown>>;

function provenanceTable(stage: PipelineStage): ProvenanceTable {
  const table = {} as ProvenanceTable;
  for (const type of TASK_TYPES)
    table[type] = object(provenanceShape(type, stage), { expected: `a ${type} provenance object` });
  return table;
}

const PROVENANCE: Record<PipelineStage, ProvenanceTable> = {
  candidate: provenanceTable('candidate'),
  verified: provenanceTable('verified'),
  final: provenanceTable('final'),
};

/** Provenance of a task of this type at this stage (spec 1.4 lists the keys per type). */
export function provenanceValidator(type: TaskType, stage: PipelineStage = 'final'): Validator<unknown> {
  return PROVENANCE[stage][type];
}

const anyProvenance = object({ generator_model: nonEmptyString, pipeline_version: nonEmptyString });

const CANDIDATE_FIELDS = {
  task_id: uuid,
  type: taskType,
  question: nonEmptyString,
  answer: nullable(anyString),
  items: nullable(arrayOf(goldItemValidator)),
  source_doc_ids: docIds,
  provenance: object({}, { expected: 'a provenance object' }),
  // May be empty: the judge profile says an empty false_element is shown as N/A.
  false_element: optional(anyString),
} satisfies Shape;

const candidateBase = object(CANDIDATE_FIELDS);
const taskBase = object({ ...CANDIDATE_FIELDS, gold_docs: docIds });

function reject(issues: IssueList, ctx: ValidationContext, expected: string, value: unknown, field: string): false {
  report(issues, ctx, expected, value, field);
  return false;
}

/** The per-type rules shared by candidates and tasks (spec 1.4 and 1.9). */
function checkTypeRules(
  record: Record<string, unknown>,
  type: TaskType,
  ctx: ValidationContext,
  issues: IssueList,
): boolean {
  let ok = true;
  if (SHORT_ANSWER_TYPES.has(type)) {
    if (typeof record.answer !== 'string')
      ok = reject(issues, ctx, `a string answer for a ${type} task`, record.answer, 'answer');
  } else if (record.answer !== null) {
    ok = reject(issues, ctx, `null (a ${type} task has no short answer)`, record.answer, 'answer');
  }
  if (LIST_TYPES.has(type)) {
    if (!Array.isArray(record.items) || record.items.length === 0) {
      ok = reject(issues, ctx, `a non-empty list of gold items for a ${type} task`, record.items, 'items');
    }
  } else if (record.items !== null) {
    ok = reject(issues, ctx, `null (only aggregation and dossier tasks have items)`, record.items, 'items');
  }
  if (type === 'false_premise') {
    if (!Object.hasOwn(record, 'false_element'))
      ok = reject(issues, ctx, 'a false_element for a false_premise task', undefined, 'false_element');
  } else if (Object.hasOwn(record, 'false_element')) {
    ok = reject(
      issues,
      ctx,
      'no false_element (only false_premise tasks have one)',
      record.false_element,
      'false_element',
    );
  }
  if (REFUSAL_TYPES.has(type) && Array.isArray(record.source_doc_ids) && record.source_doc_ids.length > 0) {
    ok = reject(issues, ctx, `[] (a ${type} task has no source documents)`, record.source_doc_ids, 'source_doc_ids');
  }
  return ok;
}

function taskLike<T>(base: Validator<unknown>, stage: PipelineStage, withGold: boolean): DescribedValidator<T> {
  const expected = withGold ? 'a task object' : 'a candidate object';
  const fn: Validator<T> = (value, ctx, issues) => {
    if (!isPlainObject(value)) return report(issues, ctx, expected, value);
    let ok = base(value, ctx, issues) !== undefined;
    const type = taskType.test(value.type) ? (value.type as TaskType) : undefined;
    if (isPlainObject(value.provenance)) {
      const provenance = type ? PROVENANCE[stage][type] : anyProvenance;
      if (validateAt(provenance, value.provenance, ctx, issues, 'provenance') === undefined) ok = false;
    }
    if (!ok || !type) return undefined;
    if (!checkTypeRules(value, type, ctx, issues)) ok = false;
    if (withGold && REFUSAL_TYPES.has(type) && (value.gold_docs as unknown[]).length > 0) {
      ok = reject(issues, ctx, `[] (a ${type} task has no gold documents)`, value.gold_docs, 'gold_docs');
    }
    return ok ? (value as T) : undefined;
  };
  return Object.assign(fn, { expected });
}

/** One line of tasks.jsonl (also of the pipeline's pooled.jsonl). */
export const taskValidator: DescribedValidator<Task> = taskLike<Task>(taskBase, 'final', true);
/** One line of build/candidates.jsonl. */
export const candidateValidator: DescribedValidator<Candidate> = taskLike<Candidate>(candidateBase, 'candidate', false);
/** One line of build/verified.jsonl: a candidate whose provenance has verified + adjudicator_model. */
export const verifiedValidator: DescribedValidator<Candidate> = taskLike<Candidate>(candidateBase, 'verified', false);
