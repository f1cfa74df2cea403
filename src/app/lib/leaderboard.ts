import type { ScoreReport } from '../../core/release/types.ts';

/** docs/benchmark-spec.md 2.5: the site's display names; unknown names are shown as given. */
const DISPLAY_NAMES: Record<string, string> = {
  'agentic-sonnet-5': 'Claude Sonnet 5 agent',
  'agentic-opus-4-8': 'Claude Opus 4.8 agent',
  hybrid: 'Hybrid retrieval (BM25 + dense)',
  bm25: 'BM25 keyword search',
  dense: 'Dense embeddings',
  closed_book: 'Closed book',
  parametric: 'Parametric probe',
};
const CONTROLS = new Set(['closed_book', 'parametric']);
const REFERENCE = ' (reference)';
/** The benchmark knows its two controls by name; our sample names its controls "... control". */
const isControl = (base: string) => CONTROLS.has(base) || base.endsWith(' control');

/** A system's display name and whether it is a control (no retrieval), from its system_name. */
export function systemDisplay(name: string): { display: string; control: boolean } {
  const base = name.endsWith(REFERENCE) ? name.slice(0, -REFERENCE.length) : name;
  return { display: DISPLAY_NAMES[base] ?? name, control: isControl(base) };
}

export interface BoardRow {
  name: string;
  display: string;
  control: boolean;
  selfRun: boolean;
  rank?: number;
  report: ScoreReport;
}

export function boardRows(entries: readonly ScoreReport[]): BoardRow[] {
  const rows = entries.map((report, i) => {
    const name = report.system_name ?? `entry ${i + 1}`;
    const base = name.endsWith(REFERENCE) ? name.slice(0, -REFERENCE.length) : name;
    return {
      name,
      display: DISPLAY_NAMES[base] ?? name,
      control: isControl(base),
      selfRun: name.endsWith(REFERENCE) && !isControl(base),
      report,
    } satisfies BoardRow;
  });
  // Ranks follow the headline, descending; controls are unranked.
  const ranked = rows
    .filter((r) => !r.control)
    .sort((a, b) => b.report.overall_cited_correctness - a.report.overall_cited_correctness);
  return rows.map((r) => ({ ...r, rank: r.control ? undefined : ranked.indexOf(r) + 1 }));
}

export const pct = (x: number | undefined | null) =>
  x === undefined || x === null || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)}%`;
export const usd = (x: number | undefined | null) => (x === undefined || x === null ? 'n/a' : `$${x.toFixed(3)}`);
