/**
 * What the audits read from a release: the answer keys, the judge profile, the submissions, the
 * judge cache it ships, and its corpus text when it has one (as a DocTextProvider). Pipeline logs,
 * chunks and indexes are not read.
 */
import { loadRelease, type LoadedSubmission, type LoadProgress } from '../release/load.ts';
import type { ReleaseSource } from '../release/source.ts';
import { SPLITS, type JudgeProfile, type SplitName, type Task } from '../release/types.ts';
import { readShippedCache } from '../scoring/session/release-inputs.ts';
import { corpusDocsProvider, noTextProvider, parquetDocsProvider, type DocTextProvider } from './doc-text.ts';

export interface AuditInputs {
  releaseId: string;
  title: string;
  datasetVersion: string;
  tasks: Partial<Record<SplitName, Task[]>>;
  profile?: JudgeProfile;
  submissions: LoadedSubmission[];
  /** Judge replies the release ships, by cache key. */
  shippedCache: Map<string, string>;
  shippedCacheError?: string;
  /** The release's own corpus text (none for v1.0, which does not publish it). */
  releaseDocs: DocTextProvider;
  /** Target entities' aliases (targets.json), lowercased name to cased variants. */
  targetAliases: Map<string, string[]>;
  /** Files the audits read that failed their checks, with their first problems. */
  invalid: Array<{ path: string; kind: string; problems: string[] }>;
}

const NOT_FOR_AUDIT =
  /(^|\/)(chunks\.jsonl|chunks\.parquet|entities\.json|candidates\.jsonl|verified\.jsonl|pooled\.jsonl|rejected\.jsonl|rejection-details\.jsonl|pool_dropped\.jsonl|pool\.jsonl|DATASET_CARD\.md)$/;

/** The source as the audits need it: the files they never read look absent. */
export function auditView(source: ReleaseSource): ReleaseSource {
  return {
    label: source.label,
    list: () => source.list(),
    read: async (path) => (NOT_FOR_AUDIT.test(path) ? undefined : source.read(path)),
    open: async (path) => (NOT_FOR_AUDIT.test(path) ? undefined : source.open(path)),
  };
}

export async function loadAuditInputs(
  full: ReleaseSource,
  onProgress?: (p: LoadProgress) => void,
): Promise<AuditInputs> {
  const source = auditView(full);
  const release = await loadRelease(source, { deferParquet: true, maxIssuesPerFile: 20, onProgress });
  const tasks: AuditInputs['tasks'] = {};
  for (const split of SPLITS) {
    const t = release.splits[split]?.tasks;
    if (t && t.length > 0) tasks[split] = t;
  }
  const parquet = release.parquet.find((p) => p.kind === 'docs');
  const releaseDocs = parquet
    ? parquetDocsProvider(parquet.path.split('/').pop() ?? 'docs.parquet', parquet.file)
    : release.docs?.length
      ? corpusDocsProvider('docs.jsonl', release.docs)
      : noTextProvider('no corpus text in this release');
  const shipped = await readShippedCache(source, release.descriptor.sha256);
  const targetAliases = new Map(Object.entries(release.targets ?? {}).map(([name, t]) => [name, t.aliases ?? []]));
  return {
    releaseId: release.descriptor.id,
    title: release.descriptor.title || release.label,
    datasetVersion: release.descriptor.dataset_version,
    tasks,
    ...(release.judgeProfile ? { profile: release.judgeProfile } : {}),
    submissions: release.submissions.filter((s) => s.predictionsText !== undefined),
    shippedCache: shipped.map,
    ...(shipped.error ? { shippedCacheError: shipped.error } : {}),
    releaseDocs,
    targetAliases,
    invalid: release.files
      .filter((f) => f.status === 'invalid')
      .map((f) => ({ path: f.path, kind: f.kind, problems: f.issues.slice(0, 5).map((i) => i.message) })),
  };
}
