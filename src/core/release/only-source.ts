import type { AsyncBuffer } from 'hyparquet';
import type { ReleaseSource } from './source.ts';
import type { ReleaseDescriptor } from './types.ts';

/**
 * The optional files of the benchmark's own layouts (a dataset folder, the repository) by the
 * kind an `only` list names them with; a kind not asked for is never read.
 */
const OPTIONAL_BY_KIND: ReadonlyArray<[string, RegExp]> = [
  ['submissions', /(^|\/)submissions\/[^/]+\/[^/]+$/],
  ['leaderboard', /(^|\/)leaderboard\.json$/],
  ['dataset_card', /(^|\/)DATASET_CARD\.md$/],
  ['judge_profile', /(^|\/)judge-profile\.json$/],
];

/**
 * A release source that yields only some of its optional files, so that an embed or a worker
 * loads what it uses and nothing else: release.json is trimmed to the kinds asked for, and the
 * optional files of the benchmark's layouts (submissions, leaderboard, card, judge profile) of
 * other kinds read as absent. Questions, tasks and manifests are always read.
 */
export class OnlySource implements ReleaseSource {
  readonly label: string;
  readonly layoutHint: ReleaseSource['layoutHint'];

  constructor(
    private readonly inner: ReleaseSource,
    private readonly kinds: readonly string[],
  ) {
    this.label = inner.label;
    this.layoutHint = inner.layoutHint;
  }

  list(): readonly string[] | undefined {
    return this.inner.list();
  }

  async read(path: string): Promise<Uint8Array | undefined> {
    if (OPTIONAL_BY_KIND.some(([kind, pattern]) => !this.kinds.includes(kind) && pattern.test(path))) return undefined;
    const bytes = await this.inner.read(path);
    if (!bytes || !(path === 'release.json' || path.endsWith('/release.json'))) return bytes;
    let descriptor: ReleaseDescriptor;
    try {
      descriptor = JSON.parse(new TextDecoder().decode(bytes)) as ReleaseDescriptor;
    } catch {
      return bytes; // the loader reports the broken file
    }
    const files = Object.fromEntries(
      Object.entries(descriptor.files ?? {}).filter(([kind]) => this.kinds.includes(kind)),
    );
    const trimmed: ReleaseDescriptor = {
      ...descriptor,
      files,
      submissions: this.kinds.includes('submissions') ? descriptor.submissions : [],
    };
    return new TextEncoder().encode(JSON.stringify(trimmed));
  }

  open(path: string): Promise<AsyncBuffer | undefined> {
    return this.inner.open(path);
  }
}
