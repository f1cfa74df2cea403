/**
 * One prediction's fields read two ways at once, kept apart:
 *
 * - validation: what the benchmark's `validate` refuses (types, the 20-entry caps);
 * - scoring: what score_predictions does with the value anyway (docs/benchmark-spec.md 2.1,
 *   2.3), in Python's terms:
 *     answer    = str(p.get("answer") or "")
 *     citations = [str(c) for c in (p.get("citations") or [])]
 *     retrieved = list(dict.fromkeys(str(d) for d in (p.get("retrieved") or [])))[:20]
 *     tokens    = sum(u.get("input_tokens", 0) + u.get("output_tokens", 0)) over truthy `usage`
 *     cost      = sum of every `cost_usd` that is not None
 *
 * Each oddity becomes a Finding naming its field: 'coerce' (validation refuses it, scoring
 * converts it: an error in validate mode, a warning in score mode), 'crash' (score.py raises
 * on it: an error in both modes) or 'note' (both accept it silently: a warning in both).
 */
import type { PyDict, PyValue } from '../python/json-loads.ts';
import { CanonicalScorerCrash, pyAdd, pyList, pyTruthy, pyTypeName } from '../python/semantics.ts';
import type { PyNumberValue } from '../python/semantics.ts';
import { pyReprStr } from '../python/repr.ts';
import { pyStr } from '../python/str.ts';

export type FindingCode = 'missing_field' | 'wrong_type' | 'too_many_entries' | 'invalid_text';

export interface Finding {
  field: string;
  code: FindingCode;
  effect: 'coerce' | 'crash' | 'note';
  /** What validation expects and what was found. */
  detail: string;
  /** What the canonical scorer does with it (coerce, note) or the exception it raises (crash). */
  consequence: string;
}

const PREVIEW = 40;

/** A short, terminal-safe description of a JSON value for messages. */
export function describePy(v: PyValue | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'boolean') return `boolean ${String(v)}`;
  if (typeof v === 'bigint') {
    const text = v.toString();
    return `integer ${text.length > PREVIEW ? `${text.slice(0, PREVIEW)}... (${text.length} digits)` : text}`;
  }
  if (typeof v === 'number') return `number ${pyStr(v)}`;
  if (typeof v === 'string')
    return v.length > PREVIEW
      ? `a string (${JSON.stringify(v.slice(0, PREVIEW))}...)`
      : `a string (${JSON.stringify(v)})`;
  if (Array.isArray(v)) return `a list of ${v.length} entr${v.length === 1 ? 'y' : 'ies'}`;
  return `an object of ${v.size} key${v.size === 1 ? '' : 's'}`;
}

function quoted(s: string): string {
  return s.length > PREVIEW ? `${JSON.stringify(s.slice(0, PREVIEW))}...` : JSON.stringify(s);
}

// lone surrogates cannot be encoded as UTF-8: Python's prompt.encode() fails when it hashes the judge prompt
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** answer = str(p.get("answer") or ""); null when score.py would crash on it. undefined = no answer key. */
export function readAnswer(record: PyDict, findings: Finding[]): string | null {
  const v = record.get('answer');
  if (v === undefined || v === null) return '';
  let answer: string;
  if (typeof v === 'string') {
    answer = v;
  } else {
    const detail = `expected a string or null, found ${describePy(v)}`;
    if (!pyTruthy(v)) {
      findings.push({
        field: 'answer',
        code: 'wrong_type',
        effect: 'coerce',
        detail,
        consequence: `score.py reads it as an empty answer (str(answer or ""))`,
      });
      return '';
    }
    answer = pyStr(v);
    findings.push({
      field: 'answer',
      code: 'wrong_type',
      effect: 'coerce',
      detail,
      consequence: `score.py reads it as the string ${quoted(answer)} (str(answer))`,
    });
  }
  const lone = LONE_SURROGATE.exec(answer);
  if (lone) {
    findings.push({
      field: 'answer',
      code: 'invalid_text',
      effect: 'crash',
      detail: 'expected text encodable as UTF-8, found an unpaired surrogate escape',
      consequence: `UnicodeEncodeError: 'utf-8' codec can't encode character ${pyReprStr(lone[0])}: surrogates not allowed (when it hashes the judge prompt)`,
    });
    return null;
  }
  return answer;
}

export interface DocListRule {
  key: 'citations' | 'retrieved';
  /** Entries validation allows (20). */
  maxEntries: number;
  /** What the scorer does with a list longer than maxEntries. */
  overCap: (n: number) => string;
}

/** [str(x) for x in (p.get(key) or [])]; null when score.py would crash on it. */
export function readDocList(record: PyDict, rule: DocListRule, findings: Finding[]): string[] | null {
  const { key } = rule;
  const v = record.get(key);
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) {
    const out = new Array<string>(v.length);
    for (let i = 0; i < v.length; i++) {
      const entry = v[i]!;
      if (typeof entry === 'string') {
        out[i] = entry;
        continue;
      }
      out[i] = pyStr(entry);
      findings.push({
        field: `${key}[${i}]`,
        code: 'wrong_type',
        effect: 'coerce',
        detail: `expected a string, found ${describePy(entry)}`,
        consequence: `score.py reads it as ${quoted(out[i]!)} (str(entry))`,
      });
    }
    if (v.length > rule.maxEntries) {
      findings.push({
        field: key,
        code: 'too_many_entries',
        effect: 'coerce',
        detail: `expected at most ${rule.maxEntries} entries (validation caps it at ${rule.maxEntries}), found ${v.length}`,
        consequence: rule.overCap(v.length),
      });
    }
    return out;
  }
  const detail = `expected a list of strings or null, found ${describePy(v)}`;
  if (!pyTruthy(v)) {
    findings.push({
      field: key,
      code: 'wrong_type',
      effect: 'coerce',
      detail,
      consequence: `score.py reads it as an empty list (${key} or [])`,
    });
    return [];
  }
  let entries: PyValue[];
  try {
    entries = pyList(v);
  } catch (error) {
    if (!(error instanceof CanonicalScorerCrash)) throw error;
    findings.push({ field: key, code: 'wrong_type', effect: 'crash', detail, consequence: error.pythonError });
    return null;
  }
  const out = entries.map((e) => pyStr(e));
  findings.push({
    field: key,
    code: 'wrong_type',
    effect: 'coerce',
    detail,
    consequence:
      typeof v === 'string'
        ? `score.py iterates it character by character: ${out.length} entr${out.length === 1 ? 'y' : 'ies'} (${quoted(out.slice(0, 5).join(', '))}${out.length > 5 ? ', ...' : ''})`
        : `score.py iterates its ${out.length} key${out.length === 1 ? '' : 's'} as the entries`,
  });
  return out;
}

/** Per-line telemetry contributions, as score.py adds them up; undefined = the line does not count. */
export interface LineTelemetry {
  /** input_tokens + output_tokens of a truthy usage dict. */
  tokens?: PyNumberValue;
  /** cost_usd when not None. */
  cost?: PyNumberValue;
}

function numberFinding(field: string, v: PyValue, findings: Finding[]): void {
  if (typeof v === 'bigint') return;
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return;
    findings.push({
      field,
      code: 'wrong_type',
      effect: 'coerce',
      detail: `expected a finite number, found ${describePy(v)}`,
      consequence: `score.py adds the float ${pyStr(v)}, which makes the total non-finite`,
    });
    return;
  }
  if (typeof v === 'boolean') {
    findings.push({
      field,
      code: 'wrong_type',
      effect: 'coerce',
      detail: `expected a number, found ${describePy(v)}`,
      consequence: `score.py adds it as the int ${v ? 1 : 0} (a bool is an int)`,
    });
  }
}

/** The kind of a running sum() total before an item: int until the first float. */
export type SumKind = 'int' | 'float';

/**
 * usage and cost_usd of one line. `kinds` are the running totals' kinds before this line (for
 * the TypeError sum() would raise). Returns null when score.py would crash on the line.
 */
export function readTelemetry(
  record: PyDict,
  kinds: { tokens: SumKind; cost: SumKind },
  findings: Finding[],
): LineTelemetry | null {
  const out: LineTelemetry = {};
  let crashed = false;
  const usage = record.get('usage');
  if (usage !== undefined && usage !== null && !(usage instanceof Map)) {
    const detail = `expected an object or null, found ${describePy(usage)}`;
    if (pyTruthy(usage)) {
      findings.push({
        field: 'usage',
        code: 'wrong_type',
        effect: 'crash',
        detail,
        consequence: `AttributeError: '${pyTypeName(usage)}' object has no attribute 'get'`,
      });
      crashed = true;
    } else {
      findings.push({
        field: 'usage',
        code: 'wrong_type',
        effect: 'coerce',
        detail,
        consequence: 'score.py skips a falsy usage: no tokens counted for this line',
      });
    }
  } else if (usage instanceof Map && usage.size > 0) {
    // u.get(key, 0): a key present with null gives None, not 0
    const input = usage.has('input_tokens') ? usage.get('input_tokens')! : 0n;
    const output = usage.has('output_tokens') ? usage.get('output_tokens')! : 0n;
    for (const [name, v] of [
      ['input_tokens', input],
      ['output_tokens', output],
    ] as const) {
      numberFinding(`usage.${name}`, v, findings);
    }
    try {
      const total = pyAdd(input, output);
      if (typeof total !== 'bigint' && typeof total !== 'number') {
        throw new CanonicalScorerCrash(
          `TypeError: unsupported operand type(s) for +: '${kinds.tokens}' and '${pyTypeName(total)}'`,
        );
      }
      out.tokens = total;
    } catch (error) {
      if (!(error instanceof CanonicalScorerCrash)) throw error;
      const bad = [input, output].find((x) => typeof x !== 'bigint' && typeof x !== 'number' && typeof x !== 'boolean');
      const name = bad === input ? 'usage.input_tokens' : 'usage.output_tokens';
      findings.push({
        field: name,
        code: 'wrong_type',
        effect: 'crash',
        detail: `expected a number, found ${describePy(bad)}`,
        consequence: error.pythonError,
      });
      crashed = true;
    }
  }
  const cost = record.get('cost_usd');
  if (cost !== undefined && cost !== null) {
    if (typeof cost === 'bigint' || typeof cost === 'number' || typeof cost === 'boolean') {
      numberFinding('cost_usd', cost, findings);
      out.cost = typeof cost === 'boolean' ? (cost ? 1n : 0n) : cost;
    } else {
      findings.push({
        field: 'cost_usd',
        code: 'wrong_type',
        effect: 'crash',
        detail: `expected a number or null, found ${describePy(cost)}`,
        consequence: `TypeError: unsupported operand type(s) for +: '${kinds.cost}' and '${pyTypeName(cost)}'`,
      });
      crashed = true;
    }
  }
  return crashed ? null : out;
}
