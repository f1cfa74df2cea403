/** scores.json: the canonical key order (spec 2.7) and a byte-compatible Python json.dumps(indent=2) writer. */
import type { ScoreReport } from '../release/types.ts';
import { pyJsonDumps } from '../python/json-dumps.ts';
import type { PyValue } from '../python/json-loads.ts';
import type { PyNumberValue } from '../python/semantics.ts';

export const REPORT_KEY_ORDER = [
  'overall_cited_correctness',
  'overall_cited_correctness_ci95',
  'overall_cited_correctness_micro',
  'per_type',
  'overall_uncited_correctness',
  'overall_uncited_correctness_ci95',
  'overall_uncited_correctness_micro',
  'per_type_uncited',
  'citation_precision',
  'citation_recall',
  'retrieval',
  'n_tasks',
  'judge_model',
  'judge_prompt_version',
  'judge_errors',
  'premise_id_rate',
  'premise_refused_n',
  'tokens_total',
  'tokens_per_task',
  'cost_usd_total',
  'cost_usd_per_task',
  'system_name',
  'split',
  'dataset_version',
] as const satisfies readonly (keyof ScoreReport)[];

export type ReportKey = (typeof REPORT_KEY_ORDER)[number];

/** Keys that are Python ints in every report. */
const ALWAYS_INT: ReadonlySet<string> = new Set(['n_tasks', 'judge_errors', 'premise_refused_n']);

/**
 * Report values as Python held them, where a JS number cannot say: tokens_total and
 * cost_usd_total are ints (bigint, exact beyond 2^53) when every summed value was an int,
 * floats (number) otherwise. Absent: tokens_total is written as an int when integral, and
 * cost_usd_total as a float.
 */
export interface ReportPyValues {
  tokens_total?: PyNumberValue;
  cost_usd_total?: PyNumberValue;
}

function toPy(value: unknown, asInt: boolean): PyValue {
  if (typeof value === 'number') return asInt && Number.isInteger(value) ? BigInt(value) : value;
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint')
    return value;
  if (Array.isArray(value)) return value.map((v) => toPy(v, false));
  if (typeof value === 'object') {
    return new Map(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, toPy(v, false)]),
    );
  }
  throw new TypeError(`scores.json cannot hold a ${typeof value}`);
}

function reportValue(key: string, value: unknown, exact: ReportPyValues): PyValue {
  if (key === 'tokens_total' || key === 'cost_usd_total') {
    const py = exact[key];
    if (py !== undefined) return py;
    return toPy(value, key === 'tokens_total');
  }
  return toPy(value, ALWAYS_INT.has(key));
}

/** Report keys in canonical order (then any unknown keys in their own order). */
export function orderReport(report: ScoreReport): ScoreReport {
  const source = report as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of REPORT_KEY_ORDER) if (source[key] !== undefined) out[key] = source[key];
  for (const [key, v] of Object.entries(source)) if (!(key in out) && v !== undefined) out[key] = v;
  return out as unknown as ScoreReport;
}

/** The scores.json text exactly as the canonical scorer writes it (json.dumps(report, indent=2), no final newline). */
export function formatScoresJson(report: ScoreReport, exact: ReportPyValues = {}): string {
  const ordered = orderReport(report) as unknown as Record<string, unknown>;
  const map = new Map<string, PyValue>();
  for (const [key, v] of Object.entries(ordered)) map.set(key, reportValue(key, v, exact));
  return pyJsonDumps(map, { indent: 2, ensureAscii: true, numbers: 'float' });
}
