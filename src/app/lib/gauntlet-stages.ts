/**
 * One name and one explanation per gauntlet stage, used by the funnel, the per-type table, the
 * facets, the list and the candidate panel alike (the data's values stay as the logs write them).
 */
export interface StageInfo {
  label: string;
  tests: string;
}

export const STAGE_INFO: Record<string, StageInfo> = {
  standalone: {
    label: 'standalone',
    tests:
      'the question reads on its own: no deixis such as "this email", it names an entity of the corpus, its target is not boilerplate',
  },
  answerability: {
    label: 'answerability',
    tests:
      'an extractive reader recovers the answer from the source documents (token-F1 ≥ 0.10); list items and dates must be stated in their documents',
  },
  necessity: {
    label: 'necessity',
    tests:
      'the documents are needed: the answer is not in the question, a closed-book guess does not match it, and for multi-document types no single document suffices',
  },
  adjudication: {
    label: 'adjudication',
    tests:
      'a judge checks the fact, its salience and that the answer is unique (false premises: the claimed event is absent from the corpus)',
  },
  error: { label: 'error', tests: 'a stage failed to run (a model or parsing error), so the candidate was dropped' },
  pooling: {
    label: 'pooling',
    tests:
      'the gold set is pooled from the retrievers and judged; a task is dropped when a source document is not judged supportive or the pool is unstable (more than 30 supports)',
  },
};

export function stageLabel(stage: string): string {
  return STAGE_INFO[stage]?.label ?? stage;
}
