import {
  ReleaseRefused,
  type FileReport,
  type LoadedRelease,
  type LoadedSubmission,
  type LoadProgress,
} from './loaded.ts';
import { parseFileInto } from './parse-file.ts';
import { planRelease } from './plan.ts';
import type { PlannedFile } from './layout.ts';
import { IssueList } from './issues.ts';
import { checkPin } from './manifest.ts';
import { sha256Hex } from './sha256.ts';
import type { ReleaseSource } from './source.ts';
import { SPLITS } from './types.ts';

export * from './loaded.ts';

export interface LoadOptions {
  onProgress?: (p: LoadProgress) => void;
  /** Keep parquet files on the source and read them by range (browser); false reads them whole. */
  deferParquet?: boolean;
  maxIssuesPerFile?: number;
  /** Reads only the planned files this accepts; the others are left out of the result and its report. */
  select?: (file: PlannedFile) => boolean;
}

export async function loadRelease(source: ReleaseSource, options: LoadOptions = {}): Promise<LoadedRelease> {
  const progress: LoadProgress = { phase: 'listing', filesDone: 0, filesTotal: 0, bytes: 0, rows: 0 };
  const emit = () => options.onProgress?.({ ...progress });
  emit();

  const { layout, root, descriptor, manifestBytes, plan: planned } = await planRelease(source);
  const plan = options.select ? planned.filter(options.select) : planned;
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
    const rows = await parseFileInto(release, submissions, planned, bytes, issues);
    report.rows = rows;
    progress.rows += rows;
    report.issues = issues.items;
    report.issueCount = issues.count;
    report.status = issues.count > 0 ? 'invalid' : 'loaded';
    progress.phase = 'reading';
  }

  const listed = source.list();
  if (listed) {
    const known = new Set(planned.map((p) => at(p.path)));
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
  progress.phase = 'done';
  progress.file = undefined;
  emit();
  return release;
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
