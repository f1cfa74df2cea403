/**
 * The Systems view's table from a SystemsMatrix: which tasks a filter keeps ("every system
 * missed the gold", "only one system cited gold", ...), the value each cell shows for the chosen
 * metric, the order, and one page. Pure and cheap (a thousand tasks by a few systems), so the
 * page runs it on every change of the URL.
 */
import type { TaskType } from '../release/types.ts';
import { idPrefixTest } from './id-prefixes.ts';
import type { SystemsMatrix, SystemsTask, SystemTaskNumbers } from './systems.ts';

/** Verdict-based scores from a judge cache: by system slug, [cited, uncited] by task id. */
export type SystemVerdicts = Record<string, Record<string, [number, number]>>;

export const SYSTEM_METRICS = [
  { id: 'recall@20', label: 'recall@20', verdicts: false },
  { id: 'recall@5', label: 'recall@5', verdicts: false },
  { id: 'ndcg@10', label: 'nDCG@10', verdicts: false },
  { id: 'cited-gold', label: 'citations in gold', verdicts: false },
  { id: 'correct', label: 'correct & cited (judge)', verdicts: true },
] as const;
export type SystemMetric = (typeof SYSTEM_METRICS)[number]['id'];

export const SYSTEM_FILTERS = [
  { id: 'all', label: 'all tasks', verdicts: false },
  {
    id: 'all-missed',
    label: 'every system missed the gold (none retrieved or cited a gold document)',
    verdicts: false,
  },
  { id: 'none-cited', label: 'no system cited a gold document', verdicts: false },
  { id: 'one-cited', label: 'only one system cited a gold document', verdicts: false },
  { id: 'all-cited', label: 'every system cited a gold document', verdicts: false },
  { id: 'retrieved-not-cited', label: 'a system retrieved gold but cited none of it', verdicts: false },
  { id: 'cited-outside', label: 'a system cited a document outside the gold set (pool bias)', verdicts: false },
  { id: 'none-correct', label: 'no system got credit from the judge', verdicts: true },
  { id: 'one-correct', label: 'only one system got credit from the judge', verdicts: true },
  {
    id: 'credit-outside',
    label: 'a system got credit but a cited score of 0, its gate citing outside the gold set (pool bias)',
    verdicts: true,
  },
] as const;
export type SystemFilter = (typeof SYSTEM_FILTERS)[number]['id'];

export interface SystemsQuery {
  types: readonly TaskType[];
  filter: SystemFilter;
  metric: SystemMetric;
  /** Slugs left out of the table and of the filters. */
  hidden: readonly string[];
  /** 'task' (file order), 'spread' (best minus worst), 'mean', or a system's slug. */
  sort: string;
  desc: boolean;
  /** Words of the question or the start of the task id. */
  text: string;
  /** Only tasks whose id starts with one of these (a selection on the Map page, `sel=`); absent: every task. */
  idPrefixes?: readonly string[];
  /** 0-based page. */
  page: number;
  pageSize: number;
}

export interface SystemsCell {
  /** The metric's value, null when it does not apply (no gold) or is unknown (no verdict). */
  value: number | null;
  /** What the cell shows. */
  text: string;
  /** For the cell's look: a gold hit, a miss, or nothing to say. */
  tone: 'hit' | 'miss' | 'none';
}

export interface SystemsRow {
  task: SystemsTask;
  /** One per shown system, in the order of `shown`. */
  cells: SystemsCell[];
}

export interface SystemsTable {
  /** Indexes into matrix.systems of the systems shown. */
  shown: number[];
  rows: SystemsRow[];
  /** Tasks the filter keeps (over every page). */
  total: number;
  /** How many tasks each filter keeps, with the other choices as they are. */
  counts: Record<SystemFilter, number>;
  pages: number;
}

const hasGold = (t: SystemsTask) => t.gold > 0;
const cited = (c: SystemTaskNumbers | null) => (c?.citedGold ?? 0) > 0;
const retrieved = (c: SystemTaskNumbers | null) => (c?.retrievedGold ?? 0) > 0;

function keeps(
  filter: SystemFilter,
  task: SystemsTask,
  cells: Array<SystemTaskNumbers | null>,
  credit: Array<number | undefined>,
  uncredit: Array<number | undefined> = [],
): boolean {
  const present = cells.filter((c) => c !== null);
  switch (filter) {
    case 'all':
      return true;
    case 'all-missed':
      return hasGold(task) && present.length > 0 && present.every((c) => !cited(c) && !retrieved(c));
    case 'none-cited':
      return hasGold(task) && present.length > 0 && present.every((c) => !cited(c));
    case 'one-cited':
      return hasGold(task) && present.filter(cited).length === 1;
    case 'all-cited':
      return hasGold(task) && present.length > 0 && present.every(cited);
    case 'retrieved-not-cited':
      return hasGold(task) && present.some((c) => retrieved(c) && !cited(c));
    case 'cited-outside':
      return present.some((c) => c.citedOutside > 0);
    case 'credit-outside':
      // the Audit page's pool-bias rule: judged (partly) correct, cited score 0, the gate citing outside the gold set
      return cells.some((c, i) => c !== null && c.gateOutside > 0 && (uncredit[i] ?? 0) > 0 && credit[i] === 0);
    case 'none-correct': {
      const known = credit.filter((v) => v !== undefined);
      return known.length > 0 && known.length === credit.length && known.every((v) => v === 0);
    }
    case 'one-correct': {
      const known = credit.filter((v) => v !== undefined);
      return known.length === credit.length && known.filter((v) => v > 0).length === 1;
    }
  }
}

const fixed = (v: number) => (v === 1 ? '1' : v === 0 ? '0' : v.toFixed(2));

function cellOf(metric: SystemMetric, c: SystemTaskNumbers | null, credit: number | undefined): SystemsCell {
  if (metric === 'correct') {
    if (credit === undefined) return { value: null, text: c ? '?' : '·', tone: 'none' };
    return { value: credit, text: fixed(credit), tone: credit > 0 ? 'hit' : 'miss' };
  }
  if (!c) return { value: null, text: '·', tone: 'none' };
  if (metric === 'cited-gold') {
    if (c.citationPrecision === null)
      return { value: null, text: c.citations ? `${c.citations} cited` : '—', tone: 'none' };
    return {
      value: c.citationPrecision,
      text: `${c.citedGold}/${c.citations}`,
      tone: c.citedGold > 0 ? 'hit' : 'miss',
    };
  }
  const value = metric === 'recall@5' ? c.recall5 : metric === 'recall@20' ? c.recall20 : c.ndcg10;
  if (value === null) return { value: null, text: '—', tone: 'none' };
  return { value, text: fixed(value), tone: value > 0 ? 'hit' : 'miss' };
}

function matchesText(task: SystemsTask, text: string): boolean {
  const t = text.trim().toLowerCase();
  if (!t) return true;
  if (task.task_id.startsWith(t)) return true;
  const q = task.question.toLowerCase();
  return t.split(/\s+/).every((w) => q.includes(w));
}

export function systemsTable(
  matrix: SystemsMatrix,
  verdicts: SystemVerdicts | undefined,
  q: SystemsQuery,
): SystemsTable {
  const shown = matrix.systems.map((_, i) => i).filter((i) => !q.hidden.includes(matrix.systems[i]!.slug));
  const creditOf = (i: number, taskId: string) => verdicts?.[matrix.systems[i]!.slug]?.[taskId]?.[0];
  const uncitedOf = (i: number, taskId: string) => verdicts?.[matrix.systems[i]!.slug]?.[taskId]?.[1];
  const counts = Object.fromEntries(SYSTEM_FILTERS.map((f) => [f.id, 0])) as Record<SystemFilter, number>;
  const kept: Array<{ index: number; row: SystemsRow }> = [];
  const selected = idPrefixTest(q.idPrefixes);
  matrix.tasks.forEach((task, t) => {
    if (!selected(task.task_id)) return;
    if (q.types.length > 0 && !q.types.includes(task.type)) return;
    if (!matchesText(task, q.text)) return;
    const cells = shown.map((i) => matrix.cells[t]![i]!);
    const credit = shown.map((i) => creditOf(i, task.task_id));
    const uncredit = shown.map((i) => uncitedOf(i, task.task_id));
    for (const f of SYSTEM_FILTERS) if (keeps(f.id, task, cells, credit, uncredit)) counts[f.id]++;
    if (!keeps(q.filter, task, cells, credit, uncredit)) return;
    kept.push({ index: t, row: { task, cells: shown.map((i, k) => cellOf(q.metric, cells[k]!, credit[k])) } });
  });

  const sortKey = (row: SystemsRow, index: number): number | null => {
    if (q.sort === 'task') return index;
    const values = row.cells.map((c) => c.value).filter((v) => v !== null);
    if (q.sort === 'spread') return values.length ? Math.max(...values) - Math.min(...values) : null;
    if (q.sort === 'mean') return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
    const k = shown.findIndex((i) => matrix.systems[i]!.slug === q.sort);
    return k < 0 ? index : row.cells[k]!.value;
  };
  const keyed = kept.map(({ index, row }) => ({ index, row, key: sortKey(row, index) }));
  keyed.sort((a, b) => {
    // Tasks without a value go last in either direction; ties keep the file order.
    if (a.key === null || b.key === null) return a.key === b.key ? a.index - b.index : a.key === null ? 1 : -1;
    const d = q.desc ? b.key - a.key : a.key - b.key;
    return d !== 0 ? d : a.index - b.index;
  });
  const pages = Math.max(1, Math.ceil(keyed.length / q.pageSize));
  const page = Math.min(Math.max(0, q.page), pages - 1);
  return {
    shown,
    rows: keyed.slice(page * q.pageSize, (page + 1) * q.pageSize).map((k) => k.row),
    total: keyed.length,
    counts,
    pages,
  };
}
