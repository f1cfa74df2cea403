import type { AsyncBuffer } from 'hyparquet';
import type { ReleaseSource } from './source.ts';
import type { ReleaseDescriptor } from './types.ts';

/**
 * A release source whose release.json names only some of its files, so that an embed loads
 * what it shows and nothing else. Releases without release.json load whole.
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
