import type { PlannedFile } from './layout.ts';
import type { ReleasePlan } from './plan.ts';
import type { ReleaseSource } from './source.ts';
import type { RangeFile } from '../net/range-file.ts';

/**
 * A release source that reads each file once while a release loads in steps (the first files,
 * then the rest): later steps get the bytes the earlier ones fetched. `forget()` drops them
 * once the load is complete.
 */
export class CachingSource implements ReleaseSource {
  private reads = new Map<string, Promise<Uint8Array | undefined>>();
  private opens = new Map<string, Promise<RangeFile | undefined>>();

  constructor(private readonly inner: ReleaseSource) {}

  get label(): string {
    return this.inner.label;
  }

  list(): readonly string[] | undefined {
    return this.inner.list();
  }

  read(path: string): Promise<Uint8Array | undefined> {
    let bytes = this.reads.get(path);
    if (!bytes) {
      bytes = this.inner.read(path);
      // A failed read is tried again by the next step rather than failing it from the cache.
      bytes.catch(() => this.reads.delete(path));
      this.reads.set(path, bytes);
    }
    return bytes;
  }

  open(path: string): Promise<RangeFile | undefined> {
    let file = this.opens.get(path);
    if (!file) {
      file = this.inner.open(path).then((f) => f && rangeCache(f));
      file.catch(() => this.opens.delete(path));
      this.opens.set(path, file);
    }
    return file;
  }

  /**
   * Starts reading the planned files `select` accepts, all at once, so that the loader (which
   * reads one file after another) finds them arriving instead of asking for each in turn.
   * Parquet files are opened (HEAD), not read. Errors are left for the loader to report.
   */
  prefetch({ plan, root }: Pick<ReleasePlan, 'plan' | 'root'>, select: (file: PlannedFile) => boolean): void {
    for (const f of plan.filter(select)) {
      const path = `${root}${f.path}`;
      if (f.path.endsWith('.parquet')) this.open(path).catch(() => undefined);
      else this.read(path).catch(() => undefined);
    }
  }

  /** Frees the whole files read so far (parquet files stay open for range reads). */
  forget(): void {
    this.reads = new Map();
  }
}

/** Each byte range is fetched once (hyparquet asks for the same footer and column chunks again). */
function rangeCache(file: RangeFile): RangeFile {
  const ranges = new Map<string, Promise<ArrayBuffer>>();
  return {
    byteLength: file.byteLength,
    get note() {
      return file.note;
    },
    slice(start, end) {
      const key = `${start},${end ?? file.byteLength}`;
      let bytes = ranges.get(key);
      if (!bytes) {
        bytes = Promise.resolve(file.slice(start, end));
        bytes.catch(() => ranges.delete(key));
        ranges.set(key, bytes);
      }
      return bytes;
    },
  };
}
