/**
 * Reading a judge reply exactly as score.py does: json.loads (a non-JSON reply is a judge
 * error), then dict.get, truthiness, list(... or []) and max(0, int(... or 0)).
 */
import { PyJsonDecodeError, PyJsonLimitError, pyJsonLoads } from '../python/json-loads.ts';
import type { PyDict, PyValue } from '../python/json-loads.ts';
import { CanonicalScorerCrash, pyInt, pyList, pyTruthy, pyTypeName } from '../python/semantics.ts';

/** LLMError in the canonical scorer: the task scores (0, 0) and counts as a judge error. */
export class JudgeReplyError extends Error {}

export interface AnswerVerdict {
  correct: boolean;
  isRefusal: boolean;
}

export interface AggregationVerdict {
  /** Truthiness of list(matched_items or []) entries, as returned (may be shorter or longer than the gold list). */
  matched: boolean[];
  /** max(0, int(extra_items or 0)), a Python int. */
  extra: bigint;
}

function loadVerdict(reply: string): PyDict {
  let value: PyValue;
  try {
    value = pyJsonLoads(reply);
  } catch (error) {
    if (error instanceof PyJsonDecodeError) throw new JudgeReplyError(`non-JSON response: ${error.message}`);
    // ValueError (an int over 4,300 digits) and RecursionError are not the JSONDecodeError the judge client turns into LLMError
    if (error instanceof PyJsonLimitError) throw new CanonicalScorerCrash(error.pythonError);
    throw error;
  }
  if (!(value instanceof Map)) {
    throw new CanonicalScorerCrash(`AttributeError: '${pyTypeName(value)}' object has no attribute 'get'`);
  }
  return value;
}

export function readAnswerVerdict(reply: string): AnswerVerdict {
  const v = loadVerdict(reply);
  return { correct: pyTruthy(v.get('correct')), isRefusal: pyTruthy(v.get('is_refusal')) };
}

export function readAggregationVerdict(reply: string): AggregationVerdict {
  const v = loadVerdict(reply);
  const matchedRaw = v.get('matched_items');
  const matched = pyTruthy(matchedRaw) ? pyList(matchedRaw!).map(pyTruthy) : [];
  const extraRaw = v.get('extra_items');
  const extraInt = pyTruthy(extraRaw) ? pyInt(extraRaw!) : 0n;
  return { matched, extra: extraInt > 0n ? extraInt : 0n };
}

export function readPremiseVerdict(reply: string): boolean {
  return pyTruthy(loadVerdict(reply).get('identified'));
}
