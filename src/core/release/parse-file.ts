/** Parses one planned file of a release into the LoadedRelease being built. */
import type { LoadedRelease, LoadedSubmission } from './loaded.ts';
import { parquetSchema, type AsyncBuffer } from 'hyparquet';
import { readParquetRows } from '../parquet/read-rows.ts';
import { checkedParquetMetadata } from '../parquet/checked-metadata.ts';
import { IssueList } from './issues.ts';
import { parseJsonFile, parseJsonlBytes } from './jsonl.ts';
import { type PlannedFile } from './layout.ts';
import { FILE_VALIDATORS } from './kinds.ts';
import { checkParquetColumns } from './schemas/parquet.ts';
import { reportDuplicates } from './duplicates.ts';
import type { Validator } from './validate.ts';
import type { SourceLocator } from './schemas/source-locator.ts';
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
  ScoreReport,
  SubmissionMetadata,
  Task,
} from './types.ts';

const decoder = new TextDecoder('utf-8');

export async function parseFileInto(
  release: LoadedRelease,
  submissions: Map<string, LoadedSubmission>,
  planned: PlannedFile,
  bytes: Uint8Array,
  issues: IssueList,
): Promise<number> {
  const file = planned.path;
  const jsonl = <T>(validator: Validator<T>): T[] => {
    const { rows, lines } = parseJsonlBytes(bytes, file, validator, issues);
    reportDuplicates(planned.kind, rows, lines, file, issues);
    return rows;
  };
  const json = <T>(validator: Validator<T>): T | undefined =>
    parseJsonFile(decodeOrReport(bytes, file, issues), file, validator, issues);
  const submission = () => {
    const slug = planned.submission ?? '';
    let s = submissions.get(slug);
    if (!s) submissions.set(slug, (s = { slug }));
    return s;
  };

  switch (planned.kind) {
    case 'manifest':
      release.manifest = json<Manifest>(FILE_VALIDATORS.manifest);
      return release.manifest ? 1 : 0;
    case 'questions': {
      const rows = jsonl<Question>(FILE_VALIDATORS.questions);
      release.splits[planned.split!] = { ...release.splits[planned.split!], questions: rows };
      return rows.length;
    }
    case 'tasks': {
      const rows = jsonl<Task>(FILE_VALIDATORS.tasks);
      const split = (release.splits[planned.split!] ??= { questions: [] });
      split.tasks = rows;
      return rows.length;
    }
    case 'leaderboard':
      release.leaderboard = json<Leaderboard>(FILE_VALIDATORS.leaderboard);
      return release.leaderboard?.entries.length ?? 0;
    case 'judge_profile':
      release.judgeProfile = json<JudgeProfile>(FILE_VALIDATORS.judge_profile);
      return release.judgeProfile ? 1 : 0;
    case 'dataset_card':
      release.datasetCard = decodeOrReport(bytes, file, issues);
      return 1;
    case 'docs':
      release.docs = file.endsWith('.parquet')
        ? await readParquetWhole<CorpusDoc>(bytes, 'docs', file, issues)
        : jsonl<CorpusDoc>(FILE_VALIDATORS.docs);
      return release.docs.length;
    case 'chunks':
      release.chunks = file.endsWith('.parquet')
        ? await readParquetWhole<Chunk>(bytes, 'chunks', file, issues)
        : jsonl<Chunk>(FILE_VALIDATORS.chunks);
      return release.chunks.length;
    case 'entities':
      release.entities = json<EntityIndex>(FILE_VALIDATORS.entities);
      return Object.keys(release.entities ?? {}).length;
    case 'targets':
      release.targets = json<EntityIndex>(FILE_VALIDATORS.targets);
      return Object.keys(release.targets ?? {}).length;
    case 'candidates':
      release.candidates = jsonl<Candidate>(FILE_VALIDATORS.candidates);
      return release.candidates.length;
    case 'verified':
      release.verified = jsonl<Candidate>(FILE_VALIDATORS.verified);
      return release.verified.length;
    case 'pooled':
      release.pooled = jsonl<Task>(FILE_VALIDATORS.pooled);
      return release.pooled.length;
    case 'rejected':
      release.rejected = jsonl<Rejected>(FILE_VALIDATORS.rejected);
      return release.rejected.length;
    case 'rejection_details':
      release.rejectionDetails = jsonl<RejectionDetail>(FILE_VALIDATORS.rejection_details);
      return release.rejectionDetails.length;
    case 'pool_dropped':
      release.poolDropped = jsonl<PoolDropped>(FILE_VALIDATORS.pool_dropped);
      return release.poolDropped.length;
    case 'pool':
      release.pool = jsonl<PoolEntry>(FILE_VALIDATORS.pool);
      return release.pool.length;
    case 'submission_metadata':
      submission().metadata = json<SubmissionMetadata>(FILE_VALIDATORS.submission_metadata);
      return 1;
    case 'submission_scores':
      submission().scores = json<ScoreReport>(FILE_VALIDATORS.submission_scores);
      return 1;
    case 'submission_predictions': {
      const text = decodeOrReport(bytes, file, issues);
      submission().predictionsText = text;
      return text.split('\n').filter((l) => l.trim() !== '').length;
    }
    case 'source_locator':
      release.sourceLocator = json<SourceLocator>(FILE_VALIDATORS.source_locator);
      return Object.keys(release.sourceLocator?.docs ?? {}).length;
    case 'descriptor':
      return 1;
  }
}

function decodeOrReport(bytes: Uint8Array, file: string, issues: IssueList): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    issues.add({ file, expected: 'UTF-8 text', found: 'invalid UTF-8 bytes', message: `${file}: not valid UTF-8` });
    return decoder.decode(bytes);
  }
}

/** docs.parquet flattens meta into columns; the whole file is read (CLI and tests). */
async function readParquetWhole<T>(
  bytes: Uint8Array,
  kind: 'docs' | 'chunks',
  path: string,
  issues: IssueList,
): Promise<T[]> {
  const file: AsyncBuffer = { byteLength: bytes.byteLength, slice: (s, e) => bytes.slice(s, e).buffer };
  const metadata = checkedParquetMetadata(bytes);
  const wrong = checkParquetColumns(path, kind, parquetSchema(metadata).children);
  for (const issue of wrong) issues.add(issue);
  if (wrong.length > 0) return [];
  const rows = await readParquetRows({ file, metadata }, path);
  if (kind === 'chunks') return rows as T[];
  return rows.map((r) => ({
    doc_id: r.doc_id,
    text: r.text,
    quality: r.quality,
    meta: { file_name: r.file_name, file_type: r.file_type, online_url: r.online_url },
  })) as T[];
}
