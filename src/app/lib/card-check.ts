import type { ReleaseStats } from '../../core/explorer/stats.ts';

/** The recomputed value of each number cell of a card table, or undefined when it is not a checked figure. */
export type TableCheck = Array<Array<number | undefined>>;

const num = (s: string) => {
  const t = s.replace(/[,*\s]/g, '');
  return /^\d+$/.test(t) ? Number(t) : undefined;
};

/**
 * Recognises the card's statistics tables by their header (type × split, quality × docs,
 * stage × rejected, the per-type gauntlet table) and gives, per cell, what the loaded files say.
 */
export function checkTable(
  header: readonly string[],
  rows: readonly string[][],
  stats: ReleaseStats,
): TableCheck | undefined {
  const h = header.map((c) => c.toLowerCase().replace(/\*/g, '').trim());
  const label = (r: readonly string[]) => (r[0] ?? '').toLowerCase().replace(/\*/g, '').trim();
  if (h[0] === 'type' && h.includes('full') && !h.includes('candidates')) {
    return rows.map((r) =>
      r.map((_, j) => {
        const split = h[j];
        if (j === 0 || !split) return undefined;
        const matching = stats.tasks.filter((t) => t.split === split && (label(r) === 'total' || t.type === label(r)));
        return matching.reduce((a, t) => a + t.count, 0);
      }),
    );
  }
  if (h[0] === 'quality' && h[1] === 'docs' && stats.has.docs) {
    return rows.map((r) => [undefined, stats.docsByQuality[label(r)] ?? 0]);
  }
  if (h[0] === 'stage' && h[1] === 'rejected' && stats.has.candidates) {
    return rows.map((r) => {
      const l = label(r);
      const pool = /^pooling:\s*(.+)$/.exec(l);
      return [undefined, pool ? (stats.droppedByReason[pool[1]!] ?? 0) : (stats.rejectedByStage[l] ?? 0)];
    });
  }
  if (h[0] === 'type' && h.includes('candidates') && stats.has.candidates) {
    return rows.map((r) => {
      const f = stats.funnel.find((x) => x.type === label(r));
      return h.map((col, j) => {
        if (j === 0) return undefined;
        if (!f) return 0;
        if (col === 'candidates') return f.candidates;
        if (col === 'shipped') return f.shipped;
        if (col === 'dropped') return f.rejected.pooling;
        return col in f.rejected ? f.rejected[col as keyof typeof f.rejected] : undefined;
      });
    });
  }
  return undefined;
}

export function cellNumber(text: string): number | undefined {
  return num(text);
}
