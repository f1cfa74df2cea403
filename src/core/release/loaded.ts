/** What loading a release yields: the parsed files, a report per file, and why a load was refused. */
import type { AsyncBuffer } from 'hyparquet';
import { type ParseIssue } from './issues.ts';
import { type LayoutName, type PlannedFile, type UnsubmittedEntry } from './layout.ts';
import type {
  Candidate,
  Chunk,
  CorpusDoc,
  EntityIndex,
  JudgeProfile,
  Leaderboard,
  Manifest,
  PoolDropped,
  PoolEntry,
  Question,
  Rejected,
  RejectionDetail,
  ReleaseDescriptor,
  ScoreReport,
  SplitName,
  SubmissionMetadata,
  Task,
} from './types.ts';
import type { SourceLocator } from './schemas/source-locator.ts';

export type FileStatus = 'loaded' | 'missing' | 'invalid' | 'ignored' | 'deferred';

export interface FileReport {
  path: string;
  kind: PlannedFile['kind'] | 'unknown';
  required: boolean;
  status: FileStatus;
  bytes?: number;
  rows?: number;
  /** 'ok' pinned and equal; 'none' no pin; 'pending' a parquet file whose hash is not checked yet (parquet-pin.ts). */
  pin: 'ok' | 'none' | 'pending';
  sha256?: string;
  /** Something about how the file was read that is not a problem with it (a server that ignores ranges). */
  note?: string;
  issues: ParseIssue[];
  issueCount: number;
}

export interface LoadedSubmission {
  slug: string;
  metadata?: SubmissionMetadata;
  scores?: ScoreReport;
  /** Raw predictions text; validated and scored by src/core/scoring. */
  predictionsText?: string;
}

/** A parquet file left on its source for range reads (docs text is fetched on demand). */
export interface DeferredParquet {
  kind: 'docs' | 'chunks';
  path: string;
  /** Range reads, checked as parquet-pin.ts says. */
  file: AsyncBuffer;
  /** Its pin and columns checked; rejects with ReleaseRefused. */
  checked?: Promise<void>;
  /** Starts the check of a file loaded with parquetCheck 'on-demand'; returns `checked`. */
  check?: () => Promise<void>;
}

export interface LoadedRelease {
  label: string;
  layout: LayoutName;
  descriptor: ReleaseDescriptor;
  manifest?: Manifest;
  splits: Partial<Record<SplitName, { questions: Question[]; tasks?: Task[] }>>;
  leaderboard?: Leaderboard;
  judgeProfile?: JudgeProfile;
  datasetCard?: string;
  docs?: CorpusDoc[];
  chunks?: Chunk[];
  parquet: DeferredParquet[];
  entities?: EntityIndex;
  targets?: EntityIndex;
  candidates?: Candidate[];
  verified?: Candidate[];
  pooled?: Task[];
  rejected?: Rejected[];
  rejectionDetails?: RejectionDetail[];
  poolDropped?: PoolDropped[];
  pool?: PoolEntry[];
  /** Where the release's documents are in the Hugging Face source (a `source-locate` output). */
  sourceLocator?: SourceLocator;
  submissions: LoadedSubmission[];
  files: FileReport[];
  /** Optional parts the release does not have, for the UI to say so. */
  lacks: string[];
  /** Leaderboard entries without a submission folder (empty when only some files were read). */
  unsubmitted: UnsubmittedEntry[];
}

export interface LoadProgress {
  phase: 'listing' | 'reading' | 'parsing' | 'done';
  file?: string;
  filesDone: number;
  filesTotal: number;
  bytes: number;
  rows: number;
}

/** Thrown when a release must not be used: a pin mismatch or no recognisable layout. */
export class ReleaseRefused extends Error {
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'ReleaseRefused';
  }
}
