/** Which files a release has: its layout, root and descriptor, and the planned file list. */
import { ReleaseRefused } from './loaded.ts';
import { IssueList } from './issues.ts';
import { parseJsonFile } from './jsonl.ts';
import { detectLayout, planBuild, planOfficial, planOurs, type LayoutName, type PlannedFile } from './layout.ts';
import { FILE_VALIDATORS } from './kinds.ts';
import type { ReleaseSource } from './source.ts';
import type { Manifest, ReleaseDescriptor } from './types.ts';
import { SPLITS } from './types.ts';

const decoder = new TextDecoder('utf-8');

export async function planRelease(source: ReleaseSource): Promise<{
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
