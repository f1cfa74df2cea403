/**
 * predictions.jsonl, read as the benchmark reads it and checked two ways (docs/benchmark-spec.md
 * 1.5, 2.1):
 *
 * Reading (the benchmark's JSONL reader, checked against CPython 3.12): the file is UTF-8 (a
 * BOM or an invalid byte stops it); lines end at \n, \r\n or a lone \r; each line is stripped
 * with str.strip() (all Unicode whitespace, U+001C..U+001F, U+0085 and U+00A0 included), an
 * empty result is skipped, anything else goes to json.loads (NaN, Infinity, ints of any size).
 *
 * mode 'validate' (the benchmark's `validate`): every field of the wrong type, and a citations
 * or retrieved list over 20 entries, is an error.
 * mode 'score' (score_predictions): those values are scored as score.py coerces them
 * (prediction-fields.ts), each named in a warning with its line and field; errors are only what
 * makes the canonical scorer stop: unreadable lines, values it raises on, and its own set checks
 * (duplicate task_id, unknown task_id, missing task, in that order, with its wording in `summary`).
 * Oddities both accept (whitespace json.loads alone would refuse) are warnings in both modes.
 */
import type { Task } from '../release/types.ts';
import { JsonlLineSplitter } from '../python/text-lines.ts';
import type { LineEvent } from '../python/text-lines.ts';
import { PyJsonDecodeError, PyJsonLimitError, pyJsonLoads } from '../python/json-loads.ts';
import type { PyDict } from '../python/json-loads.ts';
import { pyReprStrList } from '../python/repr.ts';
import { pyStrip, pyTypeName } from '../python/semantics.ts';
import type { PyNumberValue } from '../python/semantics.ts';
import { pySum } from '../python/sum.ts';
import { describePy, readAnswer, readDocList, readTelemetry } from './prediction-fields.ts';
import type { DocListRule, Finding, FindingCode, SumKind } from './prediction-fields.ts';
import { firstInvalidUtf8 } from '../release/jsonl.ts';

export type PredictionsMode = 'validate' | 'score';

export type PredictionIssueCode =
  | FindingCode
  | 'line_too_long'
  | 'invalid_utf8'
  | 'invalid_json'
  | 'not_an_object'
  | 'odd_whitespace'
  | 'duplicate_task_id'
  | 'unknown_task_id'
  | 'missing_task'
  | 'canonical_crash';

export interface PredictionIssue {
  code: PredictionIssueCode;
  /** 1-based line of predictions.jsonl; null for a task that has no line. */
  line: number | null;
  /** The field at fault, e.g. "citations[3]"; null when the whole line is at fault. */
  field: string | null;
  message: string;
}

/** One prediction as the scorer uses it (spec 2.1). */
export interface ScoringPrediction {
  task_id: string;
  line: number;
  /** str(answer or ""). */
  answer: string;
  /** Every citation as a string: not truncated, not deduplicated. */
  citations: string[];
  /** Entries as strings, order-preserving dedup, then capped. */
  retrieved: string[];
}

/** Telemetry sums in prediction-line order, as Python values (bigint = int, number = float). */
export interface TelemetrySums {
  /** sum(input_tokens + output_tokens) over truthy usage dicts; null when no line has one. */
  tokens: PyNumberValue | null;
  /** sum(cost_usd) over non-null values; null when no line has one. */
  cost: PyNumberValue | null;
}

export interface PredictionsResult {
  mode: PredictionsMode;
  /** No error: the canonical scorer (score mode) or validate (validate mode) accepts the file. */
  ok: boolean;
  /** The predictions by task_id (the first line of a duplicated id); lines with an error are left out. */
  byTaskId: Map<string, ScoringPrediction>;
  telemetry: TelemetrySums;
  /** Errors: the first `maxIssues`, in line order, then missing tasks. */
  issues: PredictionIssue[];
  issueCount: number;
  /** Oddities the scorer reads anyway, each saying what it does with them: the first `maxIssues`. */
  warnings: PredictionIssue[];
  warningCount: number;
  /** The canonical scorer's own messages for the set checks, in its order. */
  summary: string[];
  lineCount: number;
}

export interface PredictionsOptions {
  /** 'validate' (default): what `validate` refuses is an error. 'score': what score.py coerces is a warning. */
  mode?: PredictionsMode;
  /** Stored errors, and stored warnings (the totals are still counted). Default 200. */
  maxIssues?: number;
  /** citations / retrieved entries validation allows per line. Default 20. */
  maxListEntries?: number;
  /** retrieved kept after dedup. Default 20. */
  retrievedCap?: number;
  /** The answer key must be present (spec 1.5). Default: true in validate mode, false in score mode. */
  requireAnswerKey?: boolean;
  /** A longer line is an error and is never held in memory. Default 16 MiB of text. */
  maxLineChars?: number;
}

const MAX_TRACKED_IDS = 100_000;
const STOP = 'the canonical scorer would stop here with';
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

function codePoints(chars: string): string {
  const seen = new Set<string>();
  for (const ch of chars)
    if (!JSON_WHITESPACE.has(ch.charCodeAt(0)))
      seen.add(`U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return [...seen].join(', ');
}

/** Whitespace json.loads itself would refuse (anything but space, tab, CR, LF). */
function hasOddWhitespace(chars: string): boolean {
  for (let i = 0; i < chars.length; i++) if (!JSON_WHITESPACE.has(chars.charCodeAt(i))) return true;
  return false;
}

class PredictionsCollector {
  readonly byTaskId = new Map<string, ScoringPrediction>();
  private readonly firstLineOf = new Map<string, number>();
  private readonly duplicateIds = new Set<string>();
  private readonly unknownIds = new Set<string>();
  private readonly issues: PredictionIssue[] = [];
  private readonly warnings: PredictionIssue[] = [];
  private issueCount = 0;
  private warningCount = 0;
  private lineCount = 0;
  private stopped = false;
  private readonly tokenItems: PyNumberValue[] = [];
  private readonly costItems: PyNumberValue[] = [];
  private readonly kinds: { tokens: SumKind; cost: SumKind } = { tokens: 'int', cost: 'int' };
  private readonly mode: PredictionsMode;
  private readonly maxIssues: number;
  private readonly citationsRule: DocListRule;
  private readonly retrievedRule: DocListRule;
  private readonly retrievedCap: number;
  private readonly requireAnswer: boolean;
  readonly maxLineChars: number;

  constructor(
    private readonly tasks: readonly Task[],
    private readonly taskIds: ReadonlySet<string>,
    options: PredictionsOptions,
  ) {
    this.mode = options.mode ?? 'validate';
    this.maxIssues = options.maxIssues ?? 200;
    const maxList = options.maxListEntries ?? 20;
    this.retrievedCap = options.retrievedCap ?? 20;
    this.requireAnswer = options.requireAnswerKey ?? this.mode === 'validate';
    this.maxLineChars = options.maxLineChars ?? 16 * 1024 * 1024;
    this.citationsRule = {
      key: 'citations',
      maxEntries: maxList,
      overCap: (n) =>
        `score.py counts all ${n} in citation precision (only the first gate_max_citations count for correctness)`,
    };
    this.retrievedRule = {
      key: 'retrieved',
      maxEntries: maxList,
      overCap: () => `score.py keeps the first ${this.retrievedCap} distinct entries for recall@k and nDCG@10`,
    };
  }

  private format(line: number | null, field: string | null, detail: string): string {
    const where = line === null ? '' : `line ${line}`;
    const fieldText = field === null ? '' : `${where ? ', ' : ''}field ${field}`;
    return `${where}${fieldText}: ${detail}`;
  }

  error(code: PredictionIssueCode, line: number | null, field: string | null, detail: string): void {
    this.issueCount++;
    if (this.issues.length < this.maxIssues)
      this.issues.push({ code, line, field, message: this.format(line, field, detail) });
  }

  warn(code: PredictionIssueCode, line: number | null, field: string | null, detail: string): void {
    this.warningCount++;
    if (this.warnings.length < this.maxIssues)
      this.warnings.push({ code, line, field, message: this.format(line, field, detail) });
  }

  /** A JSON value score.py raises on (or validate refuses, in validate mode) at its first step. */
  private unreadable(code: PredictionIssueCode, line: number, detail: string, pythonError: string): void {
    this.error(code, line, null, this.mode === 'score' ? `${detail}; ${STOP} ${pythonError}` : detail);
  }

  onLine = (event: LineEvent): void => {
    this.lineCount = event.line;
    if (event.overlong !== undefined) {
      this.error(
        'line_too_long',
        event.line,
        null,
        `expected a line of at most ${this.maxLineChars} characters, found ${event.overlong} (a limit of this tool, not of the benchmark)`,
      );
      return;
    }
    let raw = event.text;
    if (event.line === 1 && raw.charCodeAt(0) === 0xfeff) {
      this.error(
        'invalid_json',
        1,
        null,
        `starts with a UTF-8 byte-order mark; the benchmark reads predictions as plain UTF-8, so ${STOP} JSONDecodeError: Unexpected UTF-8 BOM (decode using utf-8-sig). Save the file without a BOM`,
      );
      // read on without it, so that the rest of the report is about the content
      raw = raw.slice(1);
    }
    const text = pyStrip(raw);
    if (text === '') {
      if (hasOddWhitespace(raw))
        this.warn(
          'odd_whitespace',
          event.line,
          null,
          `only whitespace (${codePoints(raw)}); skipped, as the benchmark's reader strips each line (str.strip) and skips empty ones`,
        );
      return;
    }
    if (text.length !== raw.length) {
      const start = raw.indexOf(text);
      const around = raw.slice(0, start) + raw.slice(start + text.length);
      if (hasOddWhitespace(around))
        this.warn(
          'odd_whitespace',
          event.line,
          null,
          `whitespace json.loads alone would refuse around the JSON (${codePoints(around)}); accepted, as the benchmark's reader strips each line (str.strip) first`,
        );
    }
    let value;
    try {
      value = pyJsonLoads(text);
    } catch (error) {
      if (error instanceof PyJsonDecodeError) {
        this.unreadable(
          'invalid_json',
          event.line,
          `expected one JSON object, found invalid JSON (${error.message})`,
          'JSONDecodeError',
        );
        return;
      }
      if (error instanceof PyJsonLimitError) {
        this.unreadable(
          'invalid_json',
          event.line,
          'expected one JSON object, found JSON that Python cannot read (too deeply nested, or an int over 4,300 digits)',
          error.pythonError,
        );
        return;
      }
      throw error;
    }
    if (!(value instanceof Map)) {
      this.unreadable(
        'not_an_object',
        event.line,
        `expected a JSON object, found ${describePy(value)}`,
        `AttributeError: '${pyTypeName(value)}' object has no attribute 'get'`,
      );
      return;
    }
    this.readRecord(value, event.line);
  };

  private emitFinding(f: Finding, line: number): boolean {
    if (f.effect === 'crash') {
      this.error(
        this.mode === 'score' ? 'canonical_crash' : f.code,
        line,
        f.field,
        `${f.detail}; ${STOP} ${f.consequence}`,
      );
      return true;
    }
    if (f.effect === 'coerce' && this.mode === 'validate') {
      this.error(f.code, line, f.field, f.detail);
      return true;
    }
    this.warn(f.code, line, f.field, `${f.detail}; ${f.consequence}`);
    return false;
  }

  private readRecord(record: PyDict, line: number): void {
    let ok = true;
    const taskId = record.get('task_id');
    if (taskId === undefined) {
      this.error('missing_field', line, 'task_id', 'expected a task_id string, found no task_id key');
      ok = false;
    } else if (typeof taskId !== 'string') {
      this.error('wrong_type', line, 'task_id', `expected a string, found ${describePy(taskId)}`);
      ok = false;
    }
    if (!record.has('answer') && this.requireAnswer) {
      this.error('missing_field', line, 'answer', 'expected an answer key (a string, or null), found none');
      ok = false;
    }
    const findings: Finding[] = [];
    const answer = readAnswer(record, findings);
    const citations = readDocList(record, this.citationsRule, findings);
    const retrievedRaw = readDocList(record, this.retrievedRule, findings);
    const telemetry = readTelemetry(record, this.kinds, findings);
    for (const f of findings) if (this.emitFinding(f, line)) ok = false;

    if (typeof taskId === 'string') {
      const first = this.firstLineOf.get(taskId);
      if (first !== undefined) {
        if (this.duplicateIds.size < MAX_TRACKED_IDS) this.duplicateIds.add(taskId);
        this.error(
          'duplicate_task_id',
          line,
          'task_id',
          `expected each task_id once, found ${JSON.stringify(taskId)} again (first on line ${first})`,
        );
        ok = false;
      } else if (!this.taskIds.has(taskId)) {
        if (this.unknownIds.size < MAX_TRACKED_IDS) this.unknownIds.add(taskId);
        this.error(
          'unknown_task_id',
          line,
          'task_id',
          `expected a task_id of the tasks file, found unknown ${JSON.stringify(taskId)}`,
        );
        ok = false;
      }
      if (first === undefined && this.firstLineOf.size < MAX_TRACKED_IDS * 2) this.firstLineOf.set(taskId, line);
    }
    if (telemetry) {
      if (telemetry.tokens !== undefined) {
        this.tokenItems.push(telemetry.tokens);
        if (typeof telemetry.tokens === 'number') this.kinds.tokens = 'float';
      }
      if (telemetry.cost !== undefined) {
        this.costItems.push(telemetry.cost);
        if (typeof telemetry.cost === 'number') this.kinds.cost = 'float';
      }
    }
    if (!ok || answer === null || citations === null || retrievedRaw === null) return;
    if (typeof taskId !== 'string' || this.byTaskId.has(taskId)) return;
    this.byTaskId.set(taskId, {
      task_id: taskId,
      line,
      answer,
      citations,
      retrieved: [...new Set(retrievedRaw)].slice(0, this.retrievedCap),
    });
  }

  /** Bytes that are not UTF-8 at `line`: Python's text-mode reader raises UnicodeDecodeError. */
  invalidUtf8(line: number, byteOffset: number, byte: number): void {
    this.stopped = true;
    this.lineCount = Math.max(this.lineCount, line);
    this.error(
      'invalid_utf8',
      line,
      null,
      `expected UTF-8 text, found byte 0x${byte.toString(16).padStart(2, '0')} at byte offset ${byteOffset}; ${STOP} UnicodeDecodeError (reading stopped here)`,
    );
  }

  private sum(items: PyNumberValue[], field: string): PyNumberValue | null {
    if (items.length === 0) return null;
    try {
      return pySum(items);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      this.error('canonical_crash', null, field, `${STOP} ${error.message} (summing ${field})`);
      return null;
    }
  }

  finish(): PredictionsResult {
    const missing: string[] = [];
    // after an unreadable byte the rest of the file was not read: its tasks are not "missing"
    for (let i = 0; i < this.tasks.length && !this.stopped; i++) {
      const task = this.tasks[i]!;
      if (this.firstLineOf.has(task.task_id)) continue;
      missing.push(task.task_id);
      this.error(
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
    const telemetry = { tokens: this.sum(this.tokenItems, 'usage'), cost: this.sum(this.costItems, 'cost_usd') };
    return {
      mode: this.mode,
      ok: this.issueCount === 0,
      byTaskId: this.byTaskId,
      telemetry,
      issues: this.issues,
      issueCount: this.issueCount,
      warnings: this.warnings,
      warningCount: this.warningCount,
      summary,
      lineCount: this.lineCount,
    };
  }
}

/** Read predictions.jsonl held as one string. */
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

/**
 * Read predictions.jsonl from a byte stream, holding at most one line of text at a time.
 * Invalid UTF-8 ends the reading there, as it ends Python's.
 */
export async function parsePredictionsStream(
  chunks: AsyncIterable<Uint8Array>,
  tasks: readonly Task[],
  options: PredictionsOptions = {},
): Promise<PredictionsResult> {
  const collector = new PredictionsCollector(tasks, new Set(tasks.map((t) => t.task_id)), options);
  const splitter = new JsonlLineSplitter(collector.maxLineChars, collector.onLine);
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let offset = 0;
  let failed = false;
  for await (const chunk of chunks) {
    try {
      splitter.push(decoder.decode(chunk, { stream: true }));
    } catch {
      failed = true;
      // the lines before the bad byte still count (their numbers locate it)
      const at = firstInvalidUtf8(chunk);
      splitter.push(new TextDecoder('utf-8').decode(chunk.subarray(0, at)));
      collector.invalidUtf8(splitter.currentLine, offset + at, chunk[at] ?? 0);
      break;
    }
    offset += chunk.length;
  }
  if (!failed) {
    try {
      splitter.push(decoder.decode());
    } catch {
      failed = true;
      collector.invalidUtf8(splitter.currentLine, offset, 0);
    }
  }
  if (!failed) splitter.end();
  return collector.finish();
}
