/** Validators of every file of a release (docs/benchmark-spec.md section 1); see validate.ts for how they report. */
export {
  questionValidator,
  taskValidator,
  candidateValidator,
  verifiedValidator,
  goldItemValidator,
  provenanceValidator,
} from './schemas/task.ts';
export type { PipelineStage } from './schemas/task.ts';
export {
  parseRejectionReason,
  adjudicationCategoriesFor,
  isPoolDropReason,
  rejectedValidator,
  poolDroppedValidator,
  poolEntryValidator,
  rejectionDetailValidator,
  REJECTION_STAGES,
  REJECTION_REASON_GRAMMAR,
  POOL_DROP_REASONS_GRAMMAR,
  POOL_SOURCES,
} from './schemas/pipeline.ts';
export type { ParsedRejectionReason } from './schemas/pipeline.ts';
export {
  corpusDocValidator,
  chunkValidator,
  entityIndexValidator,
  splitChunkId,
  CHUNK_ID_RE,
} from './schemas/corpus.ts';
export {
  manifestValidator,
  manifestSplitValidator,
  scoreReportValidator,
  submissionScoresValidator,
  leaderboardValidator,
  submissionMetadataValidator,
  judgeProfileValidator,
} from './schemas/report.ts';
export { releaseDescriptorValidator, DESCRIPTOR_FILE_KINDS, SUBMISSION_SLUG_RE } from './schemas/descriptor.ts';
export {
  taskType,
  splitName,
  docIds,
  relativePath,
  isSafeRelativePath,
  ANSWERABLE_TYPES,
  SHORT_ANSWER_TYPES,
} from './schemas/common.ts';
