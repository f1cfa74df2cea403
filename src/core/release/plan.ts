/** Which files a release has: its layout, root and descriptor, and the planned file list. */
import { ReleaseRefused } from './loaded.ts';
import { IssueList } from './issues.ts';
import { parseJsonFile } from './jsonl.ts';
import {
  detectLayout,
  leaderboardSlugs,
  listedDatasetVersions,
  planBuild,
  planOfficial,
  planOurs,
  planRepository,
  REPOSITORY_PATHS,
  type LayoutName,
  type PlannedFile,
} from './layout.ts';
import { FILE_VALIDATORS } from './kinds.ts';
import type { ReleaseSource } from './source.ts';
import type { Validator } from './validate.ts';
import type { Leaderboard, Manifest, ReleaseDescriptor } from './types.ts';
import { SPLITS } from './types.ts';

const decoder = new TextDecoder('utf-8');

/** The dataset version a repository is read at when its leaderboard does not say (the only one published). */
export const DEFAULT_REPOSITORY_VERSION = 'v1.0';

export interface ReleasePlan {
  layout: LayoutName;
  root: string;
  descriptor: ReleaseDescriptor;
  /** Files read while planning (manifest, leaderboard), by planned path, so that they are not read twice. */
  prefetched: Map<string, Uint8Array>;
  plan: PlannedFile[];
}

/**
 * Finds the release's layout: from the listing when the source can list, else from the
 * source's layout hint, else by probing release.json, manifest.json, the repository's
 * leaderboard and dataset manifest, then the build files, in that order.
 */
export async function planRelease(source: ReleaseSource): Promise<ReleasePlan> {
  const listed = source.list();
  let layout: LayoutName | undefined = source.layoutHint;
  let root = '';
  if (listed) {
    const found = detectLayout(listed);
    if (!found) {
      throw new ReleaseRefused(
        `${source.label}: no release found. Expected release.json (our layout), manifest.json with full/ or dev/questions.jsonl (the benchmark's dataset/v1.0 folder), the benchmark repository (dataset/v1.0/manifest.json, docs/leaderboard.json, submissions/), or the build/ files (docs.jsonl, candidates.jsonl, ...). Found: ${listed.slice(0, 8).join(', ')}${listed.length > 8 ? ', ...' : ''}`,
      );
    }
    ({ layout, root } = found);
  }
  const relListed = listed?.filter((p) => p.startsWith(root)).map((p) => p.slice(root.length));
  const read = (path: string) => source.read(`${root}${path}`);

  if (layout === undefined || layout === 'ours') {
    const bytes = await read('release.json');
    if (bytes) {
      const descriptor = parseOrRefuse<ReleaseDescriptor>(bytes, 'release.json', FILE_VALIDATORS.descriptor);
      return { layout: 'ours', root, descriptor, prefetched: new Map(), plan: planOurs(descriptor) };
    }
    if (layout === 'ours') throw new ReleaseRefused('release.json could not be read', 'release.json');
  }
  if (layout === undefined || layout === 'official') {
    const bytes = await read('manifest.json');
    if (bytes) {
      const manifest = parseOrRefuse<Manifest>(bytes, 'manifest.json', FILE_VALIDATORS.manifest);
      const { splits, pins } = manifestPins(manifest);
      return {
        layout: 'official',
        root,
        descriptor: officialDescriptor(manifest, ''),
        prefetched: new Map([['manifest.json', bytes]]),
        plan: planOfficial(splits, pins, relListed),
      };
    }
    if (layout === 'official') throw new ReleaseRefused('manifest.json could not be read', 'manifest.json');
  }
  if (layout === undefined || layout === 'repository') {
    const planned = await planRepositoryRelease(read, relListed, layout === 'repository', source.label);
    if (planned) return { ...planned, root };
  }
  if (layout === 'build' || (await read('candidates.jsonl')) || (await read('docs.jsonl'))) {
    const descriptor: ReleaseDescriptor = {
      id: 'build',
      title: 'Build artifacts (build/)',
      dataset_version: 'unpublished',
      splits: {},
      files: {},
    };
    return { layout: 'build', root, descriptor, prefetched: new Map(), plan: planBuild() };
  }
  throw new ReleaseRefused(
    `${source.label}: no release.json, manifest.json, dataset/${DEFAULT_REPOSITORY_VERSION}/manifest.json or build files found`,
  );
}

/**
 * The repository layout: the leaderboard names the dataset version and the submissions, then
 * dataset/<version>/manifest.json pins the questions. Undefined when there is no manifest and
 * the layout was only a guess.
 */
async function planRepositoryRelease(
  read: (path: string) => Promise<Uint8Array | undefined>,
  listed: readonly string[] | undefined,
  certain: boolean,
  label: string,
): Promise<Omit<ReleasePlan, 'root'> | undefined> {
  const prefetched = new Map<string, Uint8Array>();
  const boardBytes =
    listed && !listed.includes(REPOSITORY_PATHS.leaderboard) ? undefined : await read(REPOSITORY_PATHS.leaderboard);
  let board: Leaderboard | undefined;
  if (boardBytes) {
    prefetched.set(REPOSITORY_PATHS.leaderboard, boardBytes);
    // A broken leaderboard is reported when the file is parsed again as part of the plan.
    board = parseJsonFile(
      decoder.decode(boardBytes),
      REPOSITORY_PATHS.leaderboard,
      FILE_VALIDATORS.leaderboard,
      new IssueList(1),
    ) as Leaderboard | undefined;
  }
  const versions = listed ? listedDatasetVersions(listed) : [];
  if (versions.length > 1 && !board)
    throw new ReleaseRefused(
      `${label}: the repository holds several dataset versions (${versions.join(', ')}) and no docs/leaderboard.json says which one is current`,
    );
  const version =
    board?.entries.find((e) => typeof e.dataset_version === 'string')?.dataset_version ??
    versions[0] ??
    DEFAULT_REPOSITORY_VERSION;
  const manifestPath = `${REPOSITORY_PATHS.datasetDir(version)}manifest.json`;
  const manifestBytes = await read(manifestPath);
  if (!manifestBytes) {
    if (certain) throw new ReleaseRefused(`${manifestPath} could not be read`, manifestPath);
    return undefined;
  }
  prefetched.set(manifestPath, manifestBytes);
  const manifest = parseOrRefuse<Manifest>(manifestBytes, manifestPath, FILE_VALIDATORS.manifest);
  const { splits, pins } = manifestPins(manifest);
  return {
    layout: 'repository',
    descriptor: officialDescriptor(manifest, REPOSITORY_PATHS.datasetDir(version)),
    prefetched,
    plan: planRepository(version, splits, pins, leaderboardSlugs(board?.entries ?? []), listed),
  };
}

function parseOrRefuse<T>(bytes: Uint8Array, file: string, validator: Validator<T>): T {
  const issues = new IssueList(20);
  const value = parseJsonFile(decoder.decode(bytes), file, validator, issues);
  if (value === undefined)
    throw new ReleaseRefused(`${file} is invalid: ${issues.items.map((i) => i.message).join('; ')}`, file);
  return value;
}

function manifestPins(manifest: Manifest) {
  const splits = SPLITS.filter((s) => manifest.splits[s]);
  const pins = Object.fromEntries(splits.map((s) => [s, manifest.splits[s]!.questions_sha256]));
  return { splits, pins };
}

/** The benchmark's own files carry no descriptor: this one is made from the manifest. */
function officialDescriptor(manifest: Manifest, dir: string): ReleaseDescriptor {
  const splits = SPLITS.filter((s) => manifest.splits[s]);
  return {
    id: `epstein-bench-${manifest.version}`,
    title: `Epstein Bench ${manifest.version}`,
    dataset_version: manifest.version,
    manifest: `${dir}manifest.json`,
    splits: Object.fromEntries(
      splits.map((s) => [s, { questions: `${dir}${s}/questions.jsonl`, tasks: `${dir}${s}/tasks.jsonl` }]),
    ),
    files: {},
  };
}
