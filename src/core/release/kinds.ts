import * as s from './schemas.ts';
import { sourceLocatorValidator } from './schemas/source-locator.ts';
import type { Validator } from './validate.ts';

/** Which validator reads which kind of release file. */
export const FILE_VALIDATORS = {
  descriptor: s.releaseDescriptorValidator,
  manifest: s.manifestValidator,
  questions: s.questionValidator,
  tasks: s.taskValidator,
  leaderboard: s.leaderboardValidator,
  judge_profile: s.judgeProfileValidator,
  docs: s.corpusDocValidator,
  chunks: s.chunkValidator,
  entities: s.entityIndexValidator,
  targets: s.entityIndexValidator,
  candidates: s.candidateValidator,
  verified: s.verifiedValidator,
  pooled: s.taskValidator,
  rejected: s.rejectedValidator,
  rejection_details: s.rejectionDetailValidator,
  pool_dropped: s.poolDroppedValidator,
  pool: s.poolEntryValidator,
  submission_metadata: s.submissionMetadataValidator,
  submission_scores: s.submissionScoresValidator,
  source_locator: sourceLocatorValidator,
} satisfies Record<string, Validator<unknown>>;
