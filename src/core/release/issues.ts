/** Problems found while reading a release file: which file, line and field, what was expected and found. */

export interface ParseIssue {
  file: string;
  /** 1-based physical line number (JSONL, or where a JSON syntax error was found). */
  line?: number;
  /** Path of the field inside the record, like `items[2].doc_ids[0]`. */
  field?: string;
  expected: string;
  /** Short rendering of the value found (see renderFound). */
  found: string;
  /** One human sentence naming all of the above. */
  message: string;
}

/** Keeps the first `max` issues and counts all of them, so a broken file cannot flood memory. */
export class IssueList {
  readonly max: number;
  private readonly kept: ParseIssue[] = [];
  private total = 0;

  constructor(max = 200) {
    this.max = Math.max(0, Math.floor(max));
  }

  add(issue: ParseIssue): void {
    this.total += 1;
    if (this.kept.length < this.max) this.kept.push(issue);
  }

  get items(): ParseIssue[] {
    return this.kept;
  }

  get count(): number {
    return this.total;
  }
}

export const FOUND_MAX_CHARS = 80;

/** Short, single-line rendering of a value for an issue: strings quoted, long values cut at ~80 chars. */
export function renderFound(value: unknown, maxChars = FOUND_MAX_CHARS): string {
  let text: string;
  if (value === undefined) return 'nothing (field missing)';
  if (typeof value === 'string')
    text = JSON.stringify(value.length > maxChars * 2 ? value.slice(0, maxChars * 2) : value);
  else if (typeof value === 'number' || typeof value === 'boolean' || value === null) text = String(value);
  else if (typeof value === 'bigint') text = `${value.toString()}n`;
  else if (Array.isArray(value)) text = `array of ${value.length} ${summariseArray(value)}`;
  else if (typeof value === 'object') text = `object ${summariseObject(value as Record<string, unknown>)}`;
  else text = typeof value;
  return truncate(text, maxChars);
}

function summariseArray(value: unknown[]): string {
  if (value.length === 0) return '[]';
  return `starting ${renderShallow(value[0])}`;
}

function summariseObject(value: Record<string, unknown>): string {
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  return `{${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''}}`;
}

function renderShallow(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return renderFound(value, 30);
}

export function truncate(text: string, maxChars: number): string {
  const oneLine = text.length > maxChars * 4 ? text.slice(0, maxChars * 4) : text;
  const flat = oneLine.replace(/[\r\n\t]+/g, ' ');
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}

/** Where an issue is: the file, and the line when there is one. */
export function describeLocation(file: string, line?: number): string {
  return line === undefined ? file : `${file} line ${line}`;
}

/** Builds an issue whose message reads `file line 7, field "type": expected X, found "foo"`. */
export function makeIssue(
  file: string,
  line: number | undefined,
  field: string | undefined,
  expected: string,
  found: string,
): ParseIssue {
  const where = describeLocation(file, line);
  const fieldPart = field ? `, field "${field}"` : '';
  const message = `${where}${fieldPart}: expected ${expected}, found ${found}`;
  const issue: ParseIssue = { file, expected, found, message };
  if (line !== undefined) issue.line = line;
  if (field) issue.field = field;
  return issue;
}
