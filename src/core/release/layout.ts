import type { BlockPins } from './block-pins.ts';
import type { ReleaseDescriptor, ReleaseFileKind, SplitName } from './types.ts';
import { SPLITS } from './types.ts';

/** One file the loader will try to read. */
export interface PlannedFile {
  path: string;
  kind: ReleaseFileKind | 'submission_metadata' | 'submission_scores' | 'submission_predictions' | 'descriptor';
  split?: SplitName;
  /** Submission folder name for submission files. */
  submission?: string;
  required: boolean;
  /** Expected sha256 (hex) when the release pins this file. */
  pin?: string;
  /** Where the pin comes from, for messages. */
  pinSource?: string;
  /** The sha256 of each block of a parquet file (release.json `blocks`). */
  blocks?: BlockPins;
}

/**
 * ours: release.json names every file. official: the benchmark's dataset/v1.0 folder as it is.
 * repository: the benchmark repository itself (dataset/<version>/..., docs/leaderboard.json,
 * submissions/<slug>/...), e.g. its raw files on GitHub at a commit. build: the maintainers' build/.
 */
export type LayoutName = 'ours' | 'official' | 'repository' | 'build';
export const LAYOUTS: readonly LayoutName[] = ['ours', 'official', 'repository', 'build'];

/** The maintainers' unpublished build/ artifacts (docs/benchmark-spec.md 1.9), by file name. */
export const BUILD_FILES: ReadonlyArray<[string, ReleaseFileKind]> = [
  ['docs.jsonl', 'docs'],
  ['chunks.jsonl', 'chunks'],
  ['entities.json', 'entities'],
  ['targets.json', 'targets'],
  ['candidates.jsonl', 'candidates'],
  ['verified.jsonl', 'verified'],
  ['pooled.jsonl', 'pooled'],
  ['rejected.jsonl', 'rejected'],
  ['pool_dropped.jsonl', 'pool_dropped'],
];

/** The end of a repository's dataset folder path, `dataset/<version>/`. */
const REPOSITORY_DATASET_DIR = /(^|\/)dataset\/[^/]+\/$/;

/** Finds which layout a listed set of files is in, and under which folder. */
export function detectLayout(paths: readonly string[]): { layout: LayoutName; root: string } | undefined {
  const set = new Set(paths);
  const rootsOf = (name: string) =>
    paths.filter((p) => p === name || p.endsWith(`/${name}`)).map((p) => p.slice(0, p.length - name.length));
  const shallowest = (roots: string[]) => roots.sort((a, b) => a.split('/').length - b.split('/').length)[0];
  const ours = shallowest(rootsOf('release.json'));
  if (ours !== undefined) return { layout: 'ours', root: ours };
  const repository = shallowest(
    rootsOf('manifest.json')
      .filter((r) => REPOSITORY_DATASET_DIR.test(r) && SPLITS.some((s) => set.has(`${r}${s}/questions.jsonl`)))
      .map((r) => r.replace(REPOSITORY_DATASET_DIR, '$1')),
  );
  if (repository !== undefined) return { layout: 'repository', root: repository };
  const official = shallowest(
    rootsOf('manifest.json').filter((r) => SPLITS.some((s) => set.has(`${r}${s}/questions.jsonl`))),
  );
  if (official !== undefined) return { layout: 'official', root: official };
  const build = shallowest(BUILD_FILES.flatMap(([name]) => rootsOf(name)));
  if (build !== undefined) return { layout: 'build', root: build };
  return undefined;
}

/** The official layout: manifest.json, then <split>/questions.jsonl pinned by the manifest. */
export function planOfficial(
  manifestSplits: readonly SplitName[],
  pins: Partial<Record<SplitName, string>>,
  listed: readonly string[] | undefined,
): PlannedFile[] {
  const plan: PlannedFile[] = [{ path: 'manifest.json', kind: 'manifest', required: true }];
  for (const split of manifestSplits) {
    const pin = pins[split];
    plan.push({
      path: `${split}/questions.jsonl`,
      kind: 'questions',
      split,
      required: true,
      ...(pin ? { pin, pinSource: `manifest.json splits.${split}.questions_sha256` } : {}),
    });
    plan.push({ path: `${split}/tasks.jsonl`, kind: 'tasks', split, required: false });
  }
  plan.push({ path: 'leaderboard.json', kind: 'leaderboard', required: false });
  plan.push({ path: 'judge-profile.json', kind: 'judge_profile', required: false });
  plan.push({ path: 'DATASET_CARD.md', kind: 'dataset_card', required: false });
  for (const [name, kind] of BUILD_FILES) {
    const nested = listed?.includes(`build/${name}`);
    plan.push({ path: nested ? `build/${name}` : name, kind, required: false });
  }
  plan.push(...planSubmissions(submissionFolders(listed)));
  return plan;
}

/** Where the benchmark repository keeps each file (docs/benchmark-spec.md 1.1). */
export const REPOSITORY_PATHS = {
  datasetDir: (version: string) => `dataset/${version}/`,
  leaderboard: 'docs/leaderboard.json',
  datasetCard: 'dataset/DATASET_CARD.md',
} as const;

/** The dataset version a repository listing holds (dataset/<version>/manifest.json), if exactly one. */
export function listedDatasetVersions(listed: readonly string[]): string[] {
  const versions = new Set<string>();
  for (const p of listed) {
    const m = /^dataset\/([^/]+)\/manifest\.json$/.exec(p);
    if (m) versions.add(m[1]!);
  }
  return [...versions].sort();
}

/**
 * The benchmark repository: the dataset folder of one version (questions pinned by its
 * manifest), the leaderboard, the dataset card, and the submissions named by the leaderboard
 * (plus any other folder a listing shows).
 */
export function planRepository(
  version: string,
  manifestSplits: readonly SplitName[],
  pins: Partial<Record<SplitName, string>>,
  leaderboardSlugs: readonly string[],
  listed: readonly string[] | undefined,
): PlannedFile[] {
  const dir = REPOSITORY_PATHS.datasetDir(version);
  const plan: PlannedFile[] = [{ path: `${dir}manifest.json`, kind: 'manifest', required: true }];
  for (const split of manifestSplits) {
    const pin = pins[split];
    plan.push({
      path: `${dir}${split}/questions.jsonl`,
      kind: 'questions',
      split,
      required: true,
      ...(pin ? { pin, pinSource: `${dir}manifest.json splits.${split}.questions_sha256` } : {}),
    });
    plan.push({ path: `${dir}${split}/tasks.jsonl`, kind: 'tasks', split, required: false });
  }
  plan.push({ path: REPOSITORY_PATHS.leaderboard, kind: 'leaderboard', required: false });
  plan.push({ path: REPOSITORY_PATHS.datasetCard, kind: 'dataset_card', required: false });
  // The repository does not hold the judge profile; a local copy of it may sit at the root.
  if (listed?.includes('judge-profile.json'))
    plan.push({ path: 'judge-profile.json', kind: 'judge_profile', required: false });
  const listedSlugs = submissionFolders(listed).filter((s) => !leaderboardSlugs.includes(s));
  plan.push(...planSubmissions([...leaderboardSlugs, ...listedSlugs]));
  return plan;
}

/**
 * The benchmark's submission folder name for a system (submit.py):
 * lowercased, runs of characters other than [a-z0-9-] replaced by "-", "-" trimmed at both ends.
 */
export function submissionSlug(systemName: string): string {
  return (
    systemName
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'system'
  );
}

/** The submission folders a leaderboard names, in its order, each once. */
export function leaderboardSlugs(entries: ReadonlyArray<{ system_name?: unknown }>): string[] {
  const slugs: string[] = [];
  for (const e of entries) {
    if (typeof e.system_name !== 'string') continue;
    const slug = submissionSlug(e.system_name);
    if (!slugs.includes(slug)) slugs.push(slug);
  }
  return slugs;
}

/** A leaderboard entry whose submission folder the release does not have. */
export interface UnsubmittedEntry {
  system_name: string;
  /** The folder it was looked for under, submissions/<slug>/ (the slug rule). */
  slug: string;
}

/**
 * The leaderboard entries no loaded submission belongs to, in the leaderboard's order: a
 * submission belongs to an entry when its folder is the entry's slug or it names the same system.
 */
export function entriesWithoutSubmission(
  entries: ReadonlyArray<{ system_name?: unknown }>,
  submissions: ReadonlyArray<{ slug: string; system_name?: string }>,
): UnsubmittedEntry[] {
  const slugs = new Set(submissions.map((s) => s.slug));
  const names = new Set(submissions.flatMap((s) => (s.system_name === undefined ? [] : [s.system_name])));
  const without: UnsubmittedEntry[] = [];
  for (const e of entries) {
    if (typeof e.system_name !== 'string') continue;
    const slug = submissionSlug(e.system_name);
    if (slugs.has(slug) || names.has(e.system_name) || without.some((w) => w.slug === slug)) continue;
    without.push({ system_name: e.system_name, slug });
  }
  return without;
}

/** The maintainers' build/ folder alone: everything optional, tasks come from pooled.jsonl. */
export function planBuild(): PlannedFile[] {
  return BUILD_FILES.map(([path, kind]) => ({ path, kind, required: false }));
}

/** Our layout: release.json names every file and pins it. */
export function planOurs(descriptor: ReleaseDescriptor): PlannedFile[] {
  const pinOf = (path: string) => {
    const pin = descriptor.sha256?.[path];
    return pin ? { pin, pinSource: 'release.json sha256' } : {};
  };
  const plan: PlannedFile[] = [];
  if (descriptor.manifest)
    plan.push({ path: descriptor.manifest, kind: 'manifest', required: true, ...pinOf(descriptor.manifest) });
  for (const split of SPLITS) {
    const files = descriptor.splits[split];
    if (!files) continue;
    plan.push({ path: files.questions, kind: 'questions', split, required: true, ...pinOf(files.questions) });
    if (files.tasks) plan.push({ path: files.tasks, kind: 'tasks', split, required: false, ...pinOf(files.tasks) });
  }
  for (const [kind, path] of Object.entries(descriptor.files) as Array<[ReleaseFileKind, string | undefined]>) {
    const blocks = path ? descriptor.blocks?.[path] : undefined;
    if (path) plan.push({ path, kind, required: false, ...pinOf(path), ...(blocks ? { blocks } : {}) });
  }
  plan.push(...planSubmissions(descriptor.submissions ?? [], pinOf));
  return plan;
}

function submissionFolders(listed: readonly string[] | undefined): string[] {
  const folders = new Set<string>();
  for (const p of listed ?? []) {
    const m = /^submissions\/([^/]+)\/(metadata\.json|scores\.json|predictions\.jsonl)$/.exec(p);
    if (m) folders.add(m[1]!);
  }
  return [...folders].sort();
}

function planSubmissions(
  folders: readonly string[],
  pinOf: (path: string) => { pin?: string; pinSource?: string } = () => ({}),
): PlannedFile[] {
  return folders.flatMap((slug) => {
    const at = (name: string) => `submissions/${slug}/${name}`;
    return [
      {
        path: at('metadata.json'),
        kind: 'submission_metadata',
        submission: slug,
        required: false,
        ...pinOf(at('metadata.json')),
      },
      {
        path: at('scores.json'),
        kind: 'submission_scores',
        submission: slug,
        required: false,
        ...pinOf(at('scores.json')),
      },
      {
        path: at('predictions.jsonl'),
        kind: 'submission_predictions',
        submission: slug,
        required: false,
        ...pinOf(at('predictions.jsonl')),
      },
    ] satisfies PlannedFile[];
  });
}
