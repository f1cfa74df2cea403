import {
  ReleaseRefused,
  type FileReport,
  type LoadedRelease,
  type LoadedSubmission,
  type LoadProgress,
} from './loaded.ts';
import { parseFileInto } from './parse-file.ts';
import { planRelease, type ReleasePlan } from './plan.ts';
import { IssueList } from './issues.ts';
import { checkPin, pinsOf } from './manifest.ts';
import { checkedParquet, type ParquetCheckTiming } from './parquet-pin.ts';
import { sha256Hex } from './sha256.ts';
import type { ReleaseSource } from './source.ts';
import { entriesWithoutSubmission, type PlannedFile } from './layout.ts';
import { SPLITS, type Manifest, type SubmissionMetadata } from './types.ts';

export * from './loaded.ts';

const DEFAULT_READ_AHEAD = 6;

export interface LoadOptions {
  /** Whole files read at once ahead of parsing (default 6). */
  readAhead?: number;
  onProgress?: (p: LoadProgress) => void;
  /** Keep parquet files on the source and read them by range (browser); false reads them whole. */
  deferParquet?: boolean;
  /**
   * When a deferred parquet file is checked against its pin (parquet-pin.ts): 'before-reads'
   * (default) at once, its reads waiting; 'on-demand' when its `check()` is called.
   */
  parquetCheck?: ParquetCheckTiming;
  maxIssuesPerFile?: number;
  /** Reads only the planned files this accepts; the others are left out of the result and its report. */
  select?: (file: PlannedFile) => boolean;
  /** The release's plan when the caller made it already (a load reads several parts of one release). */
  plan?: ReleasePlan;
}

export async function loadRelease(source: ReleaseSource, options: LoadOptions = {}): Promise<LoadedRelease> {
  const progress: LoadProgress = { phase: 'listing', filesDone: 0, filesTotal: 0, bytes: 0, rows: 0 };
  const emit = () => options.onProgress?.({ ...progress });
  emit();

  const { layout, root, descriptor, prefetched, plan: wholePlan } = options.plan ?? (await planRelease(source));
  const plan = options.select ? wholePlan.filter(options.select) : wholePlan;
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
    unsubmitted: [],
  };
  progress.filesTotal = plan.length;
  progress.phase = 'reading';
  const submissions = new Map<string, LoadedSubmission>();
  // Whole files are fetched a few at a time ahead of the one being parsed (a URL source pays a round trip per file).
  const ahead = readAhead(
    plan.map((p) => (isDeferredParquet(p, options) ? undefined : p.path)),
    (path) => {
      const bytes = prefetched.get(path);
      return bytes ? Promise.resolve(bytes) : source.read(at(path));
    },
    options.readAhead ?? DEFAULT_READ_AHEAD,
  );

  for (const [index, planned] of plan.entries()) {
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

    if (isDeferredParquet(planned, options)) {
      const file = await source.open(at(planned.path));
      if (file) {
        report.status = 'deferred';
        report.bytes = file.byteLength;
        report.pin = planned.pin ? 'pending' : 'none';
        // A server that ignores ranges shows it at the first read, after this report is made.
        Object.defineProperty(report, 'note', { get: () => file.note, enumerable: true });
        const checked = checkedParquet(file, { ...planned, kind: planned.kind }, options.parquetCheck);
        if (planned.pin) void checked.checked.then(() => (report.pin = 'ok')).catch(() => undefined);
        release.parquet.push({ kind: planned.kind, path: at(planned.path), ...checked });
      }
      progress.filesDone++;
      continue;
    }

    const bytes = await ahead(index);
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
    for (const { pin, pinSource } of pinsOf(planned, release.manifest)) {
      const actual = (report.sha256 ??= await sha256Hex(bytes));
      const mismatch = checkPin(planned.path, actual, pin);
      if (mismatch) throw new ReleaseRefused(`${mismatch.message} (pin from ${pinSource})`, planned.path);
      report.pin = 'ok';
    }
    progress.phase = 'parsing';
    emit();
    const issues = new IssueList(options.maxIssuesPerFile ?? 200);
    const rows = await parseFileInto(release, submissions, planned, bytes, issues);
    if (planned.kind === 'questions' && rows === 0 && issues.count === 0) {
      throw new ReleaseRefused(
        `${planned.path}: the file holds no question (${bytes.byteLength} bytes, no JSON line); a release needs one question per line`,
        planned.path,
      );
    }
    report.rows = rows;
    progress.rows += rows;
    report.issues = issues.items;
    report.issueCount = issues.count;
    report.status = issues.count > 0 ? 'invalid' : 'loaded';
    if (planned.kind === 'submission_metadata') {
      const metadata = submissions.get(planned.submission ?? '')?.metadata;
      if (metadata && release.manifest) {
        checkSubmissionPin(planned.path, metadata, release.manifest, descriptor.manifest ?? 'manifest.json');
        report.pin = 'ok';
      }
    }
    progress.phase = 'reading';
  }

  const listed = source.list();
  if (listed) {
    const known = new Set(wholePlan.map((p) => at(p.path)));
    for (const path of listed) {
      if (!known.has(path) && !(layout === 'ours' && path === `${root}release.json`)) {
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
  // A selective load may have left the submissions out: it cannot say which are missing.
  if (!options.select) release.unsubmitted = unsubmittedOf(release);
  progress.phase = 'done';
  progress.file = undefined;
  emit();
  return release;
}

function isDeferredParquet(
  planned: PlannedFile,
  options: LoadOptions,
): planned is PlannedFile & { kind: 'docs' | 'chunks' } {
  return (
    planned.path.endsWith('.parquet') &&
    options.deferParquet !== false &&
    (planned.kind === 'docs' || planned.kind === 'chunks')
  );
}

/**
 * Reads `paths` in order with up to `limit` reads in flight: asking for item i starts the reads
 * of i..i+limit-1. Undefined paths are skipped. A failed read rejects when its item is asked for.
 */
export function readAhead(
  paths: ReadonlyArray<string | undefined>,
  read: (path: string) => Promise<Uint8Array | undefined>,
  limit: number,
): (index: number) => Promise<Uint8Array | undefined> {
  const started = new Map<number, Promise<Uint8Array | undefined>>();
  const start = (i: number) => {
    const path = paths[i];
    if (path === undefined || started.has(i)) return;
    const pending = read(path);
    // Rejections surface when the item is awaited; this keeps an unawaited one from being reported as unhandled.
    pending.catch(() => undefined);
    started.set(i, pending);
  };
  return async (index) => {
    for (let i = index, n = 0; i < paths.length && n < Math.max(1, limit); i++) {
      if (paths[i] === undefined) continue;
      start(i);
      n++;
    }
    const pending = started.get(index);
    started.delete(index);
    return pending ?? undefined;
  };
}

/**
 * A submission is for the released questions only when its metadata's questions_sha256 is the
 * manifest's pin of its split (the benchmark's validate refuses it otherwise).
 */
function checkSubmissionPin(
  file: string,
  metadata: SubmissionMetadata,
  manifest: Manifest,
  manifestFile: string,
): void {
  const split = manifest.splits[metadata.split];
  if (!split) {
    throw new ReleaseRefused(
      `${file}: split "${metadata.split}" is not in ${manifestFile} (it has ${Object.keys(manifest.splits).join(', ')}), so its questions_sha256 cannot be checked`,
      file,
    );
  }
  const mismatch = checkPin(file, metadata.questions_sha256, split.questions_sha256);
  if (mismatch) {
    throw new ReleaseRefused(
      `${file}: questions_sha256 is ${metadata.questions_sha256} but ${manifestFile} pins the ${metadata.split} questions at ${split.questions_sha256}; this submission answers other questions than the release's`,
      file,
    );
  }
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

function unsubmittedOf(release: LoadedRelease) {
  return entriesWithoutSubmission(
    release.leaderboard?.entries ?? [],
    release.submissions.map((s) => ({
      slug: s.slug,
      system_name: s.metadata?.system_name ?? s.scores?.system_name,
    })),
  );
}
