/**
 * predictions.jsonl: parsing, validation against the tasks and the normalisation of
 * docs/benchmark-spec.md 2.1 / 1.5. Every problem names its line and field, says what was
 * expected and what was found. The set checks come in the canonical scorer's order
 * (duplicate task_id, unknown task_id, missing task) with its wording in `summary`.
 */
import type { Task } from '../release/types.ts';
import { JsonlLineSplitter } from './jsonl-lines.ts';
import type { LineEvent } from './jsonl-lines.ts';
import { pyJsonLoads } from '../python/json-loads.ts';
import type { PyValue } from '../python/json-loads.ts';
import { pyReprStrList } from '../python/repr.ts';

export type PredictionIssueCode =
  | 'line_too_long'
  | 'invalid_json'
  | 'not_an_object'
  | 'missing_field'
  | 'wrong_type'
  | 'too_many_entries'
  | 'invalid_text'
  | 'duplicate_task_id'
  | 'unknown_task_id'
  | 'missing_task';

export interface PredictionIssue {
  code: PredictionIssueCode;
  /** 1-based line of predictions.jsonl; null for a task that has no line. */
  line: number | null;
  /** The field at fault, e.g. "citations[3]"; null when the whole line is at fault. */
  field: string | null;
  message: string;
}

/** One prediction after normalisation (spec 2.1). */
export interface ScoringPrediction {
  task_id: string;
  line: number;
  /** The answer as a string; "" when missing or null. */
  answer: string;
  /** Every citation as given: not truncated, not deduplicated. */
  citations: string[];
  /** Order-preserving dedup, then capped. */
  retrieved: string[];
}

/** Telemetry sums in prediction-line order, with Python's int/float kind of each sum. */
export interface TelemetrySums {
  tokens: { total: number; isInt: boolean } | null;
  cost: { total: number; isInt: boolean } | null;
}

export interface PredictionsResult {
  ok: boolean;
  /** Valid predictions by task_id (the first line of a duplicated id). */
  byTaskId: Map<string, ScoringPrediction>;
  telemetry: TelemetrySums;
  /** The first `maxIssues` problems, in line order, then missing tasks. */
  issues: PredictionIssue[];
  issueCount: number;
  /** The canonical scorer's own messages for the set checks, in its order. */
  summary: string[];
  lineCount: number;
}

export interface PredictionsOptions {
  /** Stored problems (the total is still counted). Default 200. */
  maxIssues?: number;
  /** citations / retrieved entries allowed per line. Default 20. */
  maxListEntries?: number;
  /** retrieved kept after dedup. Default 20. */
  retrievedCap?: number;
  /** `validate` requires the answer key (spec 1.5); plain scoring reads a missing answer as "". Default true. */
  requireAnswerKey?: boolean;
  /** A longer line is an error and is never held in memory. Default 16 MiB of text. */
  maxLineChars?: number;
}

const MAX_TRACKED_IDS = 100_000;
// lone surrogates cannot be encoded as UTF-8 (Python's prompt.encode() would fail)
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a list of ${v.length} entries`;
  if (typeof v === 'string')
    return v.length > 40 ? `a string (${JSON.stringify(v.slice(0, 40))}...)` : `a string (${JSON.stringify(v)})`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v} ${String(v)}`;
  return 'an object';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const TELEMETRY_LITERAL = /"(input_tokens|output_tokens|cost_usd)"\s*:\s*(-?\d+(\.\d+)?([eE][-+]?\d+)?)/g;

/**
 * Is the JSON literal of each integral telemetry number an int (no '.', no exponent) in
 * Python's eyes? A quick scan of the raw line answers when it finds exactly the expected
 * keys once each; otherwise (e.g. an answer quoting "cost_usd": 1.0) the line is parsed again.
 */
function telemetryKinds(lineText: string, expected: number): { tokens: boolean[]; cost: boolean | null } {
  const found = [...lineText.matchAll(TELEMETRY_LITERAL)];
  if (found.length === expected && new Set(found.map((m) => m[1])).size === expected) {
    const kinds = { tokens: [] as boolean[], cost: null as boolean | null };
    for (const m of found) {
      const isInt = m[3] === undefined && m[4] === undefined;
      if (m[1] === 'cost_usd') kinds.cost = isInt;
      else kinds.tokens.push(isInt);
    }
    return kinds;
  }
  return telemetryKindsParsed(lineText);
}

function telemetryKindsParsed(lineText: string): { tokens: boolean[]; cost: boolean | null } {
  const obj = pyJsonLoads(lineText.trim());
  const kinds = { tokens: [] as boolean[], cost: null as boolean | null };
  if (!(obj instanceof Map)) return kinds;
  const usage = obj.get('usage');
  if (usage instanceof Map) {
    for (const key of ['input_tokens', 'output_tokens']) {
      const v: PyValue | undefined = usage.get(key);
      if (v !== undefined) kinds.tokens.push(typeof v === 'bigint');
    }
  }
  const cost = obj.get('cost_usd');
  if (cost !== undefined && cost !== null) kinds.cost = typeof cost === 'bigint';
  return kinds;
}

class PredictionsCollector {
  readonly byTaskId = new Map<string, ScoringPrediction>();
  private readonly firstLineOf = new Map<string, number>();
  private readonly duplicateIds = new Set<string>();
  private readonly unknownIds = new Set<string>();
  private readonly issues: PredictionIssue[] = [];
  private issueCount = 0;
  private lineCount = 0;
  private tokens: { total: number; isInt: boolean } | null = null;
  private cost: { total: number; isInt: boolean } | null = null;
  private readonly maxIssues: number;
  private readonly maxList: number;
  private readonly retrievedCap: number;
  private readonly requireAnswer: boolean;
  readonly maxLineChars: number;

  constructor(
    private readonly tasks: readonly Task[],
    private readonly taskIds: ReadonlySet<string>,
    options: PredictionsOptions,
  ) {
    this.maxIssues = options.maxIssues ?? 200;
    this.maxList = options.maxListEntries ?? 20;
    this.retrievedCap = options.retrievedCap ?? 20;
    this.requireAnswer = options.requireAnswerKey ?? true;
    this.maxLineChars = options.maxLineChars ?? 16 * 1024 * 1024;
  }

  private report(code: PredictionIssueCode, line: number | null, field: string | null, detail: string): void {
    this.issueCount++;
    if (this.issues.length >= this.maxIssues) return;
    const where = line === null ? '' : `line ${line}`;
    const fieldText = field === null ? '' : `${where ? ', ' : ''}field ${field}`;
    this.issues.push({ code, line, field, message: `${where}${fieldText}: ${detail}` });
  }

  onLine = (event: LineEvent): void => {
    this.lineCount = event.line;
    if (event.overlong !== undefined) {
      this.report(
        'line_too_long',
        event.line,
        null,
        `expected a line of at most ${this.maxLineChars} characters, found ${event.overlong}`,
      );
      return;
    }
    const text = event.text;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.report(
        'invalid_json',
        event.line,
        null,
        `expected one JSON object, found invalid JSON (${(error as Error).message})`,
      );
      return;
    }
    if (!isRecord(value)) {
      this.report('not_an_object', event.line, null, `expected a JSON object, found ${describe(value)}`);
      return;
    }
    this.readRecord(value, event.line, text);
  };

  private stringList(record: Record<string, unknown>, key: string, line: number): string[] | null {
    const v = record[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.report('wrong_type', line, key, `expected a list of strings or null, found ${describe(v)}`);
      return null;
    }
    let ok = true;
    for (let i = 0; i < v.length; i++) {
      if (typeof v[i] !== 'string') {
        this.report('wrong_type', line, `${key}[${i}]`, `expected a string, found ${describe(v[i])}`);
        ok = false;
      }
    }
    if (v.length > this.maxList) {
      this.report(
        'too_many_entries',
        line,
        key,
        `expected at most ${this.maxList} entries (capped at ${this.maxList}), found ${v.length}`,
      );
      ok = false;
    }
    return ok ? (v as string[]) : null;
  }

  private readRecord(record: Record<string, unknown>, line: number, text: string): void {
    let ok = true;
    const taskId = record.task_id;
    if (taskId === undefined) {
      this.report('missing_field', line, 'task_id', 'expected a task_id string, found no task_id key');
      ok = false;
    } else if (typeof taskId !== 'string') {
      this.report('wrong_type', line, 'task_id', `expected a string, found ${describe(taskId)}`);
      ok = false;
    }
    const answer = record.answer;
    if (answer === undefined && this.requireAnswer) {
      this.report('missing_field', line, 'answer', 'expected an answer key (a string, or null), found none');
      ok = false;
    } else if (answer !== undefined && answer !== null && typeof answer !== 'string') {
      this.report('wrong_type', line, 'answer', `expected a string or null, found ${describe(answer)}`);
      ok = false;
    } else if (typeof answer === 'string' && LONE_SURROGATE.test(answer)) {
      this.report(
        'invalid_text',
        line,
        'answer',
        'expected text encodable as UTF-8, found an unpaired surrogate escape',
      );
      ok = false;
    }
    const citations = this.stringList(record, 'citations', line);
    const retrievedRaw = this.stringList(record, 'retrieved', line);
    if (citations === null || retrievedRaw === null) ok = false;
    const telemetryOk = this.checkTelemetry(record, line);
    if (!telemetryOk) ok = false;

    if (typeof taskId === 'string') {
      const first = this.firstLineOf.get(taskId);
      if (first !== undefined) {
        if (this.duplicateIds.size < MAX_TRACKED_IDS) this.duplicateIds.add(taskId);
        this.report(
          'duplicate_task_id',
          line,
          'task_id',
          `expected each task_id once, found ${JSON.stringify(taskId)} again (first on line ${first})`,
        );
        ok = false;
      } else if (!this.taskIds.has(taskId)) {
        if (this.unknownIds.size < MAX_TRACKED_IDS) this.unknownIds.add(taskId);
        this.report(
          'unknown_task_id',
          line,
          'task_id',
          `expected a task_id of the tasks file, found unknown ${JSON.stringify(taskId)}`,
        );
        ok = false;
      }
      if (first === undefined && this.firstLineOf.size < MAX_TRACKED_IDS * 2) this.firstLineOf.set(taskId, line);
    }
    if (telemetryOk) this.addTelemetry(record, text);
    if (!ok || typeof taskId !== 'string' || this.byTaskId.has(taskId)) return;
    this.byTaskId.set(taskId, {
      task_id: taskId,
      line,
      answer: typeof answer === 'string' ? answer : '',
      citations: citations!,
      retrieved: [...new Set(retrievedRaw!)].slice(0, this.retrievedCap),
    });
  }

  private checkTelemetry(record: Record<string, unknown>, line: number): boolean {
    let ok = true;
    const usage = record.usage;
    if (usage !== undefined && usage !== null) {
      if (!isRecord(usage)) {
        this.report('wrong_type', line, 'usage', `expected an object or null, found ${describe(usage)}`);
        ok = false;
      } else {
        for (const key of ['input_tokens', 'output_tokens']) {
          const v = usage[key];
          if (v !== undefined && typeof v !== 'number') {
            this.report('wrong_type', line, `usage.${key}`, `expected a number, found ${describe(v)}`);
            ok = false;
          }
        }
      }
    }
    const cost = record.cost_usd;
    if (cost !== undefined && cost !== null && typeof cost !== 'number') {
      this.report('wrong_type', line, 'cost_usd', `expected a number or null, found ${describe(cost)}`);
      ok = false;
    }
    return ok;
  }

  /** score.py: usages = truthy `usage` dicts; tok += in + out; costs = non-null cost_usd; in line order. */
  private addTelemetry(record: Record<string, unknown>, text: string): void {
    const usage = record.usage as Record<string, number> | null | undefined;
    const usageTruthy = isRecord(usage) && Object.keys(usage).length > 0;
    const cost = record.cost_usd as number | null | undefined;
    const hasCost = typeof cost === 'number';
    if (!usageTruthy && !hasCost) return;
    const inTok = usageTruthy ? (usage.input_tokens ?? 0) : 0;
    const outTok = usageTruthy ? (usage.output_tokens ?? 0) : 0;
    // a non-integral number is a float literal; only integral ones need their literal read again
    const tokensIntegral = usageTruthy && Number.isInteger(inTok) && Number.isInteger(outTok);
    const costIntegral = hasCost && Number.isInteger(cost);
    const expected =
      (usageTruthy ? Number(usage.input_tokens !== undefined) + Number(usage.output_tokens !== undefined) : 0) +
      Number(hasCost);
    const kinds = tokensIntegral || costIntegral ? telemetryKinds(text, expected) : null;
    if (usageTruthy) {
      const isInt = tokensIntegral && kinds !== null && kinds.tokens.every(Boolean);
      const prev = this.tokens ?? { total: 0, isInt: true };
      this.tokens = { total: prev.total + (inTok + outTok), isInt: prev.isInt && isInt };
    }
    if (hasCost) {
      const isInt = costIntegral && kinds !== null && kinds.cost === true;
      const prev = this.cost ?? { total: 0, isInt: true };
      this.cost = { total: prev.total + cost, isInt: prev.isInt && isInt };
    }
  }

  finish(): PredictionsResult {
    const missing: string[] = [];
    for (let i = 0; i < this.tasks.length; i++) {
      const task = this.tasks[i]!;
      if (this.firstLineOf.has(task.task_id)) continue;
      missing.push(task.task_id);
      this.report(
        'missing_task',
        null,
        'task_id',
        `expected a prediction for task ${JSON.stringify(task.task_id)} (tasks line ${i + 1}, ${task.type}), found none`,
      );
    }
    const summary: string[] = [];
    if (this.duplicateIds.size > 0) {
      const dupes = [...this.duplicateIds].sort();
      summary.push(
        `predictions contain ${dupes.length} duplicate task_id(s), e.g. ${pyReprStrList(dupes.slice(0, 3))}`,
      );
    }
    if (this.unknownIds.size > 0) {
      const unknown = [...this.unknownIds].sort();
      summary.push(
        `predictions contain ${unknown.length} unknown task_id(s), e.g. ${pyReprStrList(unknown.slice(0, 3))}`,
      );
    }
    if (missing.length > 0)
      summary.push(`predictions missing ${missing.length} task(s), e.g. ${pyReprStrList(missing.slice(0, 3))}`);
    return {
      ok: this.issueCount === 0,
      byTaskId: this.byTaskId,
      telemetry: { tokens: this.tokens, cost: this.cost },
      issues: this.issues,
      issueCount: this.issueCount,
      summary,
      lineCount: this.lineCount,
    };
  }
}

/** Validate predictions.jsonl held as one string. */
export function parsePredictions(
  text: string,
  tasks: readonly Task[],
  options: PredictionsOptions = {},
): PredictionsResult {
  const collector = new PredictionsCollector(tasks, new Set(tasks.map((t) => t.task_id)), options);
  const splitter = new JsonlLineSplitter(collector.maxLineChars, collector.onLine);
  splitter.push(text);
  splitter.end();
  return collector.finish();
}

/** Validate predictions.jsonl from a byte stream, holding at most one line of text at a time. */
export async function parsePredictionsStream(
  chunks: AsyncIterable<Uint8Array>,
  tasks: readonly Task[],
  options: PredictionsOptions = {},
): Promise<PredictionsResult> {
  const collector = new PredictionsCollector(tasks, new Set(tasks.map((t) => t.task_id)), options);
  const splitter = new JsonlLineSplitter(collector.maxLineChars, collector.onLine);
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) splitter.push(decoder.decode(chunk, { stream: true }));
  splitter.push(decoder.decode());
  splitter.end();
  return collector.finish();
}
