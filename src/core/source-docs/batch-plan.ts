/**
 * How a batch of documents is read once their places are known: one read per row group, of the
 * text of the rows from the first wanted to the last (a row group's text is one column chunk, so
 * a span costs one range request however many of its rows are wanted).
 */
import type { ShardEntry } from './hub.ts';

export interface DocPlace {
  shard: ShardEntry;
  rowGroup: number;
  /** Row within the row group. */
  row: number;
}

export interface RowGroupRead {
  shard: ShardEntry;
  rowGroup: number;
  /** The wanted ids of this row group, in row order. */
  ids: string[];
  /** Rows [from, to) of the row group are read. */
  from: number;
  to: number;
}

/** One read per row group, in shard and row-group order (nearby bytes are asked for together). */
export function planRowGroupReads(places: ReadonlyMap<string, DocPlace>): RowGroupRead[] {
  const groups = new Map<string, { shard: ShardEntry; rowGroup: number; at: Array<{ id: string; row: number }> }>();
  for (const [id, p] of places) {
    const key = `${p.shard.path}#${p.rowGroup}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { shard: p.shard, rowGroup: p.rowGroup, at: [] }));
    g.at.push({ id, row: p.row });
  }
  return [...groups.values()]
    .sort((a, b) => (a.shard.path < b.shard.path ? -1 : a.shard.path > b.shard.path ? 1 : a.rowGroup - b.rowGroup))
    .map((g) => {
      const at = g.at.sort((a, b) => a.row - b.row);
      return {
        shard: g.shard,
        rowGroup: g.rowGroup,
        ids: at.map((x) => x.id),
        from: at[0]!.row,
        to: at.at(-1)!.row + 1,
      };
    });
}
