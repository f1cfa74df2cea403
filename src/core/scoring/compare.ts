/**
 * scripts/compare_scores.py: walk committed and recomputed scores.json trees (keys sorted,
 * root path "scores") and list every mismatch beyond the CI tolerances of spec 2.6.
 */
import { pyFloatRepr } from '../python/json-dumps.ts';
import { pyReprStr } from '../python/repr.ts';

export const EPS = 1e-6;
export const JUDGE_TOL = 0.02;
export const SMALL_STRATA_TOL = 0.15;

const TOLERANCES: readonly [RegExp, number][] = [
  [/\.per_type(_uncited)?\./, SMALL_STRATA_TOL],
  [/\.premise_id_rate$/, SMALL_STRATA_TOL],
  [/\.overall_(cited|uncited)_correctness(_ci95|_micro)?/, JUDGE_TOL],
];
const IGNORE_KEYS: ReadonlySet<string> = new Set(['judge_errors']);

export interface ScoreMismatch {
  path: string;
  kind: 'only_in_one' | 'list_length' | 'number' | 'value';
  committed?: unknown;
  recomputed?: unknown;
  tolerance?: number;
  /** compare_scores.py's line for this mismatch. */
  message: string;
}

export function toleranceFor(path: string): number {
  for (const [pattern, tol] of TOLERANCES) if (pattern.test(path)) return tol;
  return EPS;
}

function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNumber(v: unknown): v is number {
  return typeof v === 'number';
}

/** Python's == over JSON values (True == 1, 1 == 1.0). */
function pyEquals(a: unknown, b: unknown): boolean {
  const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : null);
  const na = num(a);
  const nb = num(b);
  if (na !== null || nb !== null) return na !== null && nb !== null && na === nb;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  }
  if (isDict(a) || isDict(b)) {
    if (!isDict(a) || !isDict(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && pyEquals(a[k], b[k]));
  }
  return a === b;
}

/** Python's str() of a JSON value as the messages print it (integral numbers as ints). */
function pyStr(v: unknown, repr: boolean): string {
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e16 ? String(v) : pyFloatRepr(v);
  if (typeof v === 'string') return repr ? pyReprStr(v) : v;
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (Array.isArray(v)) return `[${v.map((x) => pyStr(x, true)).join(', ')}]`;
  if (isDict(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${pyReprStr(k)}: ${pyStr(x, true)}`)
      .join(', ')}}`;
  return String(v);
}

function diff(committed: unknown, recomputed: unknown, path: string, out: ScoreMismatch[]): void {
  if (IGNORE_KEYS.has(path.slice(path.lastIndexOf('.') + 1))) return;
  if (isDict(committed) && isDict(recomputed)) {
    const keys = [...new Set([...Object.keys(committed), ...Object.keys(recomputed)])].sort();
    for (const k of keys) {
      const sub = `${path}.${k}`;
      if (!(k in committed) || !(k in recomputed))
        out.push({ path: sub, kind: 'only_in_one', message: `${sub}: present in only one file` });
      else diff(committed[k], recomputed[k], sub, out);
    }
    return;
  }
  if (Array.isArray(committed) && Array.isArray(recomputed)) {
    if (committed.length !== recomputed.length) {
      out.push({ path, kind: 'list_length', message: `${path}: list lengths differ` });
      return;
    }
    committed.forEach((c, i) => diff(c, recomputed[i], `${path}[${i}]`, out));
    return;
  }
  if (isNumber(committed) && isNumber(recomputed)) {
    const tol = toleranceFor(path);
    if (Math.abs(committed - recomputed) > tol) {
      out.push({
        path,
        kind: 'number',
        committed,
        recomputed,
        tolerance: tol,
        message: `${path}: committed ${pyStr(committed, false)} vs recomputed ${pyStr(recomputed, false)} (tolerance ${pyFloatRepr(tol)})`,
      });
    }
    return;
  }
  if (!pyEquals(committed, recomputed)) {
    out.push({
      path,
      kind: 'value',
      committed,
      recomputed,
      message: `${path}: committed ${pyStr(committed, true)} vs recomputed ${pyStr(recomputed, true)}`,
    });
  }
}

/** Every mismatch between a committed and a recomputed scores.json (empty = they agree). */
export function compareScores(committed: unknown, recomputed: unknown): ScoreMismatch[] {
  const out: ScoreMismatch[] = [];
  diff(committed, recomputed, 'scores', out);
  return out;
}
