import type { AsyncBuffer } from 'hyparquet';
import { IssueList, type ParseIssue } from './issues.ts';
import { parseJsonFile, parseJsonlBytes } from './jsonl.ts';
import { detectLayout, planBuild, planOfficial, planOurs, type LayoutName, type PlannedFile } from './layout.ts';
import { checkPin } from './manifest.ts';
import { FILE_VALIDATORS } from './kinds.ts';
import { sha256Hex } from './sha256.ts';
import type { ReleaseSource } from './source.ts';
import type { Validator } from './validate.ts';
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
import { SPLITS } from './types.ts';

export type FileStatus = 'loaded' | 'missing' | 'invalid' | 'ignored' | 'deferred';

export interface FileReport {
  path: string;
  kind: PlannedFile['kind'] | 'unknown';
  required: boolean;
  status: FileStatus;
  bytes?: number;
  rows?: number;
  /** 'ok' pinned and equal; 'none' no pin; 'unchecked' read by ranges, not hashed. */
  pin: 'ok' | 'none' | 'unchecked';
  sha256?: string;
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
  file: AsyncBuffer;
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
  submissions: LoadedSubmission[];
  files: FileReport[];
  /** Optional parts the release does not have, for the UI to say so. */
  lacks: string[];
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

export interface LoadOptions {
  onProgress?: (p: LoadProgress) => void;
  /** Keep parquet files on the source and read them by range (browser); false reads them whole. */
  deferParquet?: boolean;
  maxIssuesPerFile?: number;
}

const decoder = new TextDecoder('utf-8');

export async function loadRelease(source: ReleaseSource, options: LoadOptions = {}): Promise<LoadedRelease> {
  const progress: LoadProgress = { phase: 'listing', filesDone: 0, filesTotal: 0, bytes: 0, rows: 0 };
  const emit = () => options.onProgress?.({ ...progress });
  emit();

  const { layout, root, descriptor, manifestBytes, plan } = await resolvePlan(source);
  const at = (path: string) => `${root}${path}`;
  const release: LoadedRelease = {
    label: source.label,
    layout,
    descriptor,
    splits: {},
    parquet: [],
    submissions: [],
    files: [],
    lacks: [],
  };
  progress.filesTotal = plan.length;
  progress.phase = 'reading';
  const submissions = new Map<string, LoadedSubmission>();

  for (const planned of plan) {
    progress.file = planned.path;
    emit();
    const report: FileReport = {
      path: planned.path,
      kind: planned.kind,
      required: planned.required,
      status: 'missing',
      pin: 'none',
      issues: [],
      issueCount: 0,
    };
    release.files.push(report);

    if (
      planned.path.endsWith('.parquet') &&
      options.deferParquet !== false &&
      (planned.kind === 'docs' || planned.kind === 'chunks')
    ) {
      const file = await source.open(at(planned.path));
      if (file) {
        report.status = 'deferred';
        report.bytes = file.byteLength;
        report.pin = planned.pin ? 'unchecked' : 'none';
        release.parquet.push({ kind: planned.kind, path: at(planned.path), file });
      }
      progress.filesDone++;
      continue;
    }

    const bytes = planned.kind === 'manifest' && manifestBytes ? manifestBytes : await source.read(at(planned.path));
    progress.filesDone++;
    if (!bytes) {
      if (planned.required) {
        report.issues.push({
          file: planned.path,
          expected: 'a file',
          found: 'nothing',
          message: `${planned.path}: required file is missing`,
        });
        report.issueCount = 1;
        report.status = 'invalid';
      }
      continue;
    }
    report.bytes = bytes.byteLength;
    progress.bytes += bytes.byteLength;
    if (planned.pin) {
      const actual = await sha256Hex(bytes);
      report.sha256 = actual;
      const mismatch = checkPin(planned.path, actual, planned.pin);
      if (mismatch) {
        throw new ReleaseRefused(`${mismatch.message} (pin from ${planned.pinSource ?? 'the release'})`, planned.path);
      }
      report.pin = 'ok';
    }
    progress.phase = 'parsing';
    emit();
    const issues = new IssueList(options.maxIssuesPerFile ?? 200);
    const rows = await parseInto(release, submissions, planned, bytes, issues);
    report.rows = rows;
    progress.rows += rows;
    report.issues = issues.items;
    report.issueCount = issues.count;
    report.status = issues.count > 0 ? 'invalid' : 'loaded';
    progress.phase = 'reading';
  }

  const listed = source.list();
  if (listed) {
    const planned = new Set(plan.map((p) => at(p.path)));
    for (const path of listed) {
      if (!planned.has(path) && !(layout === 'ours' && path === `${root}release.json`)) {
        release.files.push({
          path,
          kind: 'unknown',
          required: false,
          status: 'ignored',
          pin: 'none',
          issues: [],
          issueCount: 0,
        });
      }
    }
  }
  release.submissions = [...submissions.values()];
  release.lacks = lacksOf(release);
  progress.phase = 'done';
  progress.file = undefined;
  emit();
  return release;
}

async function resolvePlan(source: ReleaseSource): Promise<{
  layout: LayoutName;
  root: string;
  descriptor: ReleaseDescriptor;
  manifestBytes?: Uint8Array;
  plan: PlannedFile[];
}> {
  const listed = source.list();
  let layout: LayoutName | undefined;
  let root = '';
  if (listed) {
    const found = detectLayout(listed);
    if (!found) {
      throw new ReleaseRefused(
        `${source.label}: no release found. Expected release.json (our layout), manifest.json with full/ or dev/questions.jsonl (the benchmark's dataset/v1.0 folder), or the build/ files (docs.jsonl, candidates.jsonl, ...). Found: ${listed.slice(0, 8).join(', ')}${listed.length > 8 ? ', ...' : ''}`,
      );
    }
    ({ layout, root } = found);
  }
  const relListed = listed?.filter((p) => p.startsWith(root)).map((p) => p.slice(root.length));

  if (layout === undefined || layout === 'ours') {
    const bytes = await source.read(`${root}release.json`);
    if (bytes) {
      const issues = new IssueList(20);
      const descriptor = parseJsonFile(decoder.decode(bytes), 'release.json', FILE_VALIDATORS.descriptor, issues) as
        ReleaseDescriptor | undefined;
      if (!descriptor)
        throw new ReleaseRefused(
          `release.json is invalid: ${issues.items.map((i) => i.message).join('; ')}`,
          'release.json',
        );
      return { layout: 'ours', root, descriptor, plan: planOurs(descriptor) };
    }
    if (layout === 'ours') throw new ReleaseRefused('release.json could not be read', 'release.json');
  }
  if (layout === undefined || layout === 'official') {
    const bytes = await source.read(`${root}manifest.json`);
    if (bytes) {
      const issues = new IssueList(20);
      const manifest = parseJsonFile(decoder.decode(bytes), 'manifest.json', FILE_VALIDATORS.manifest, issues) as
        Manifest | undefined;
      if (!manifest)
        throw new ReleaseRefused(
          `manifest.json is invalid: ${issues.items.map((i) => i.message).join('; ')}`,
          'manifest.json',
        );
      const splits = SPLITS.filter((s) => manifest.splits[s]);
      const pins = Object.fromEntries(splits.map((s) => [s, manifest.splits[s]!.questions_sha256]));
      const descriptor: ReleaseDescriptor = {
        id: `epstein-bench-${manifest.version}`,
        title: `Epstein Bench ${manifest.version}`,
        dataset_version: manifest.version,
        manifest: 'manifest.json',
        splits: Object.fromEntries(
          splits.map((s) => [s, { questions: `${s}/questions.jsonl`, tasks: `${s}/tasks.jsonl` }]),
        ),
        files: {},
      };
      return {
        layout: 'official',
        root,
        descriptor,
        manifestBytes: bytes,
        plan: planOfficial(splits, pins, relListed),
      };
    }
    if (layout === 'official') throw new ReleaseRefused('manifest.json could not be read', 'manifest.json');
  }
  if (
    layout === 'build' ||
    (await source.read(`${root}candidates.jsonl`)) ||
    (await source.read(`${root}docs.jsonl`))
  ) {
    const descriptor: ReleaseDescriptor = {
      id: 'build',
      title: 'Build artifacts (build/)',
      dataset_version: 'unpublished',
      splits: {},
      files: {},
    };
    return { layout: 'build', root, descriptor, plan: planBuild() };
  }
  throw new ReleaseRefused(`${source.label}: no release.json, manifest.json or build files found`);
}

async function parseInto(
  release: LoadedRelease,
  submissions: Map<string, LoadedSubmission>,
  planned: PlannedFile,
  bytes: Uint8Array,
  issues: IssueList,
): Promise<number> {
  const file = planned.path;
  const jsonl = <T>(validator: Validator<T>): T[] => parseJsonlBytes(bytes, file, validator, issues).rows;
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
        ? await readParquetWhole<CorpusDoc>(bytes, 'docs')
        : jsonl<CorpusDoc>(FILE_VALIDATORS.docs);
      return release.docs.length;
    case 'chunks':
      release.chunks = file.endsWith('.parquet')
        ? await readParquetWhole<Chunk>(bytes, 'chunks')
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
async function readParquetWhole<T>(bytes: Uint8Array, kind: 'docs' | 'chunks'): Promise<T[]> {
  const { parquetReadObjects } = await import('hyparquet');
  const file: AsyncBuffer = { byteLength: bytes.byteLength, slice: (s, e) => bytes.slice(s, e).buffer };
  const rows = (await parquetReadObjects({ file })) as Array<Record<string, unknown>>;
  if (kind === 'chunks') return rows as T[];
  return rows.map((r) => ({
    doc_id: r.doc_id,
    text: r.text,
    quality: r.quality,
    meta: { file_name: r.file_name, file_type: r.file_type, online_url: r.online_url },
  })) as T[];
}

function lacksOf(release: LoadedRelease): string[] {
  const lacks: string[] = [];
  for (const split of SPLITS) {
    const s = release.splits[split];
    if (s && !s.tasks) lacks.push(`${split} answer key (tasks.jsonl)`);
  }
  if (!release.docs && !release.parquet.some((p) => p.kind === 'docs')) lacks.push('corpus documents');
  if (!release.candidates) lacks.push('gauntlet candidates');
  if (!release.rejected) lacks.push('rejected log');
  if (!release.pool) lacks.push('pool judgements');
  if (!release.entities) lacks.push('entity index');
  if (!release.leaderboard) lacks.push('leaderboard');
  if (!release.judgeProfile) lacks.push('judge profile');
  return lacks;
}
