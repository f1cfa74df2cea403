/** The manifest's checks: the sha256 pin of a questions file and the task counts of a split (spec 1.3). */
import { makeIssue, type ParseIssue } from './issues.ts';
import type { PlannedFile } from './layout.ts';
import type { Manifest, ManifestSplit, SplitName, TaskType } from './types.ts';

/** A pin mismatch, or undefined when the file's hash is the pinned one (hex compared case-insensitively). */
export function checkPin(file: string, actualHex: string, expectedHex: string): ParseIssue | undefined {
  if (actualHex.toLowerCase() === expectedHex.toLowerCase()) return undefined;
  const issue = makeIssue(file, undefined, undefined, `sha256 ${expectedHex}`, `sha256 ${actualHex}`);
  issue.message =
    `${file}: sha256 is ${actualHex} but the pin is ${expectedHex}; ` +
    'the dataset files have been modified (or belong to another version)';
  return issue;
}

/**
 * Every pin a file must match: its own (release.json's sha256, or the official layout's
 * manifest) and, for a split's questions, the manifest's questions_sha256 in any layout.
 */
export function pinsOf(
  planned: Pick<PlannedFile, 'path' | 'kind' | 'split' | 'pin' | 'pinSource'>,
  manifest: Manifest | undefined,
): Array<{ pin: string; pinSource: string }> {
  const pins: Array<{ pin: string; pinSource: string }> = [];
  if (planned.pin) pins.push({ pin: planned.pin, pinSource: planned.pinSource ?? 'the release' });
  const fromManifest = planned.kind === 'questions' && planned.split ? manifest?.splits[planned.split] : undefined;
  if (fromManifest && !pins.some((p) => p.pin.toLowerCase() === fromManifest.questions_sha256.toLowerCase())) {
    pins.push({
      pin: fromManifest.questions_sha256,
      pinSource: `manifest.json splits.${planned.split}.questions_sha256`,
    });
  }
  return pins;
}

export interface ManifestCounts {
  n_tasks: number;
  /** Type -> count, in the order each type first appears in the file (as the manifest lists them). */
  by_type: Partial<Record<TaskType, number>>;
}

export function manifestCountsFromTasks(rows: readonly { type: TaskType }[]): ManifestCounts {
  const by_type: Partial<Record<TaskType, number>> = {};
  for (const row of rows) by_type[row.type] = (by_type[row.type] ?? 0) + 1;
  return { n_tasks: rows.length, by_type };
}

export interface CompareCountsOptions {
  /** File named in the issues (default manifest.json). */
  file?: string;
  split?: SplitName;
}

/** Differences between a manifest split's counts and those computed from its file, one issue each. */
export function compareManifestCounts(
  manifestSplit: Pick<ManifestSplit, 'n_tasks' | 'by_type'>,
  computed: ManifestCounts,
  opts: CompareCountsOptions = {},
): ParseIssue[] {
  const file = opts.file ?? 'manifest.json';
  const prefix = opts.split ? `splits.${opts.split}.` : '';
  const issues: ParseIssue[] = [];
  const mismatch = (field: string, pinned: number | undefined, actual: number | undefined) => {
    const expected = pinned === undefined ? 'no such type' : String(pinned);
    const found = `${actual ?? 0} in the file`;
    const issue = makeIssue(file, undefined, prefix + field, expected, found);
    issue.message = `${file}, field "${prefix}${field}": the manifest says ${pinned ?? 0} but the file has ${actual ?? 0}`;
    issues.push(issue);
  };
  if (manifestSplit.n_tasks !== computed.n_tasks) mismatch('n_tasks', manifestSplit.n_tasks, computed.n_tasks);
  const types = new Set([...Object.keys(manifestSplit.by_type), ...Object.keys(computed.by_type)]) as Set<TaskType>;
  for (const type of types) {
    const pinned = manifestSplit.by_type[type];
    const actual = computed.by_type[type];
    if (pinned !== actual && !(pinned === 0 && actual === undefined)) mismatch(`by_type.${type}`, pinned, actual);
  }
  return issues;
}
