/**
 * What footers tell about the order of a dataset: each shard's doc_id range (the least min and
 * the greatest max of its row groups' statistics), and whether the ranges known so far increase
 * with the shard's position (a dataset written in file order) or overlap (then every footer must
 * be read to find an id). Saved beside the shard list so that a new session starts from them.
 */
import type { ShardEntry } from './hub.ts';
import type { ShardSummary } from './shard-parquet.ts';

export interface ShardRange {
  min: string;
  max: string;
}

export type ShardOrder = 'unknown' | 'sorted' | 'unsorted';

/** As kept in the cache: ranges by shard (path and content id), and the order seen. */
export interface SavedRanges {
  order: ShardOrder;
  byShard: Record<string, [string, string]>;
}

const shardKey = (s: ShardEntry) => `${s.path}|${s.oid}`;

export function isSavedRanges(v: unknown): v is SavedRanges {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    (o.order === 'unknown' || o.order === 'sorted' || o.order === 'unsorted') &&
    typeof o.byShard === 'object' &&
    o.byShard !== null &&
    Object.values(o.byShard).every(
      (r) => Array.isArray(r) && r.length === 2 && typeof r[0] === 'string' && typeof r[1] === 'string',
    )
  );
}

/** The shard's doc_id range, when every non-empty row group has statistics. */
export function rangeOf(summary: ShardSummary): ShardRange | undefined {
  let min: string | undefined;
  let max: string | undefined;
  for (const rg of summary.rowGroups) {
    if (rg.rows === 0) continue;
    if (rg.min === undefined || rg.max === undefined) return undefined;
    if (min === undefined || rg.min < min) min = rg.min;
    if (max === undefined || rg.max > max) max = rg.max;
  }
  return min === undefined || max === undefined ? undefined : { min, max };
}

/** A trailing run of digits and what precedes it ("EFTA00012345" -> EFTA, 12345). */
function numbered(id: string): { prefix: string; digits: number; value: number } | undefined {
  const m = /^(.*?)(\d{1,15})$/.exec(id);
  return m ? { prefix: m[1]!, digits: m[2]!.length, value: Number(m[2]) } : undefined;
}

export class ShardRanges {
  order: ShardOrder = 'unknown';
  private readonly known = new Map<number, ShardRange>();

  get(index: number): ShardRange | undefined {
    return this.known.get(index);
  }

  get size(): number {
    return this.known.size;
  }

  /**
   * Records the range of shard `index` from its footer and checks it against every known range:
   * a shard without statistics, or ranges not increasing with the index, make the order unsorted.
   */
  learn(index: number, summary: ShardSummary): ShardRange | undefined {
    const range = rangeOf(summary);
    if (!range) {
      // An empty shard says nothing; one without statistics cannot be searched by range.
      if (summary.rowGroups.some((rg) => rg.rows > 0)) this.order = 'unsorted';
      return undefined;
    }
    this.known.set(index, range);
    for (const [i, r] of this.known) {
      if ((i < index && !(r.max < range.min)) || (i > index && !(range.max < r.min))) {
        this.order = 'unsorted';
        return range;
      }
    }
    if (this.known.size >= 2 && this.order === 'unknown') this.order = 'sorted';
    return range;
  }

  /**
   * The interval (lo, hi) of shard indexes that may hold id, tightened by the known ranges
   * inside it; `holds` when a known range contains id.
   */
  narrow(id: string, lo: number, hi: number): { lo: number; hi: number; holds?: number } {
    for (const [i, r] of this.known) {
      if (i <= lo || i >= hi) continue;
      if (r.min <= id && id <= r.max) return { lo, hi, holds: i };
      if (r.max < id) lo = i;
      else hi = i;
    }
    return { lo, hi };
  }

  /**
   * The shard between lo and hi (exclusive) where id would sit if the ids between the two known
   * ranges were spread evenly over the shards between them; undefined when the ids are not
   * numbered alike (then the caller bisects).
   */
  interpolate(id: string, lo: number, hi: number): number | undefined {
    const a = this.known.get(lo);
    const b = this.known.get(hi);
    if (!a || !b || hi - lo < 2) return undefined;
    const x = numbered(id);
    const from = numbered(a.max);
    const to = numbered(b.min);
    if (!x || !from || !to || x.prefix !== from.prefix || x.prefix !== to.prefix) return undefined;
    if (x.digits !== from.digits || x.digits !== to.digits || !(to.value > from.value)) return undefined;
    // Each shard between holds about (to - from) / (hi - lo) numbers.
    const at = lo + Math.floor(((x.value - from.value) / (to.value - from.value)) * (hi - lo - 1)) + 1;
    return Math.min(hi - 1, Math.max(lo + 1, at));
  }

  save(shards: readonly ShardEntry[]): SavedRanges {
    const byShard: Record<string, [string, string]> = {};
    for (const [i, r] of this.known) {
      const s = shards[i];
      if (s) byShard[shardKey(s)] = [r.min, r.max];
    }
    return { order: this.order, byShard };
  }

  /** Ranges of a saved state whose shards are still in the list (by path and content id). */
  restore(saved: unknown, shards: readonly ShardEntry[]): void {
    if (!isSavedRanges(saved)) return;
    shards.forEach((s, i) => {
      const r = saved.byShard[shardKey(s)];
      if (r && !this.known.has(i)) this.known.set(i, { min: r[0], max: r[1] });
    });
    if (saved.order === 'unsorted') this.order = 'unsorted';
    else if (this.known.size >= 2 && this.order === 'unknown') this.order = 'sorted';
  }
}
