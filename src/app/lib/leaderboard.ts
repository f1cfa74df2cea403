import { escapeBidi } from './bidi.ts';
import { formatCount } from './format-count.ts';
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

/** The name a system is shown under, on the Leaderboard and the Score page alike. */
export function displayName(name: string): string {
  const base = name.endsWith(REFERENCE) ? name.slice(0, -REFERENCE.length) : name;
  return DISPLAY_NAMES[base] ?? name;
}

export function boardRows(entries: readonly ScoreReport[]): BoardRow[] {
  const rows = entries.map((report, i) => {
    const name = report.system_name ?? `entry ${i + 1}`;
    const base = name.endsWith(REFERENCE) ? name.slice(0, -REFERENCE.length) : name;
    return {
      name,
      display: displayName(name),
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

/** A row's name on a chart, where no badge can say "control": the words do, unless the name does. */
export const chartLabel = (r: BoardRow): string =>
  `${escapeBidi(r.display)}${r.control && !/control$/i.test(r.display) ? ' (control)' : ''}`;

export const pct = (x: number | undefined | null) =>
  x === undefined || x === null || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)}%`;
export const usd = (x: number | undefined | null) => (x === undefined || x === null ? 'n/a' : `$${x.toFixed(3)}`);

/**
 * A scores.json value as people read it: rates as percentages, retrieval metrics to three
 * decimals, counts with separators, costs in dollars, intervals as "lo – hi".
 */
export function formatScoreValue(key: string, value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => formatScoreValue(key, v)).join(' – ');
  if (typeof value !== 'number') return String(value);
  if (Number.isNaN(value)) return '—';
  if (key.includes('cost_usd')) return `$${value.toFixed(4)}`;
  if (Number.isInteger(value) && !isRateKey(key)) return formatCount(value);
  if (key.startsWith('retrieval.')) return value.toFixed(3);
  if (isRateKey(key) && value >= 0 && value <= 1) return pct(value);
  return value.toLocaleString('en', { maximumFractionDigits: 2 });
}

const RATE_KEYS = /correctness|per_type|precision|recall|rate/;
const isRateKey = (key: string) => RATE_KEYS.test(key) && !key.endsWith('_n');

/** Controls whose headline beats the best ranked system (the macro mean rewards refusing on two types). */
export function controlsAboveBest(rows: readonly BoardRow[]): BoardRow[] {
  const best = rows.find((r) => r.rank === 1);
  if (!best) return [];
  return rows.filter((r) => r.control && r.report.overall_cited_correctness > best.report.overall_cited_correctness);
}
