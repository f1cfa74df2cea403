/**
 * One side of a release diff: a release's version label, its pins and, per split, its questions
 * and (where published) its answer key. Read from any ReleaseSource (a folder in the CLI, a
 * loaded or picked release in the browser); the questions are checked against their pins by the
 * loader, the answer key is read by answer-key.ts.
 */
import { loadRelease } from '../release/load.ts';
import { planRelease } from '../release/plan.ts';
import type { ReleaseSource } from '../release/source.ts';
import { SPLITS, type Question, type SplitName } from '../release/types.ts';
import { readAnswerKey, type AnswerKey } from './answer-key.ts';

export interface SplitSide {
  questions: Question[];
  /** The questions file's sha256 as read, and the manifest's pin for it. */
  questionsSha256?: string;
  pin?: string;
  /** The manifest's task count. */
  nTasks?: number;
  key?: AnswerKey;
  keyFile?: string;
}

export interface DiffSide {
  label: string;
  version?: string;
  splits: Partial<Record<SplitName, SplitSide>>;
}

/** Reads the side of a diff from a release source (ReleaseRefused when a pin does not match). */
export async function diffSide(source: ReleaseSource): Promise<DiffSide> {
  const { root, plan } = await planRelease(source);
  const keyPaths = new Map(plan.filter((f) => f.kind === 'tasks' && f.split).map((f) => [f.split, f.path]));
  const release = await loadRelease(source, {
    select: (file) => file.kind === 'manifest' || file.kind === 'questions' || file.kind === 'descriptor',
  });
  const side: DiffSide = { label: source.label, splits: {} };
  if (release.manifest) side.version = release.manifest.version;
  for (const split of SPLITS) {
    const loaded = release.splits[split];
    const pinned = release.manifest?.splits[split];
    if (!loaded && !pinned) continue;
    const entry: SplitSide = { questions: loaded?.questions ?? [] };
    const report = release.files.find((f) => f.kind === 'questions' && f.path.endsWith(`${split}/questions.jsonl`));
    if (report?.sha256) entry.questionsSha256 = report.sha256;
    if (pinned) {
      entry.pin = pinned.questions_sha256;
      entry.nTasks = pinned.n_tasks;
    }
    const keyPath = keyPaths.get(split);
    const bytes = keyPath ? await source.read(`${root}${keyPath}`) : undefined;
    if (keyPath && bytes) {
      entry.key = readAnswerKey(bytes, keyPath);
      entry.keyFile = keyPath;
    }
    side.splits[split] = entry;
  }
  return side;
}
