/**
 * TREC run files (`qid Q0 docid rank score tag`) and qrels (`qid iter docid rel`), parsed as
 * trec_eval 10 (usnistgov/trec_eval get_trec_results.c, get_qrels.c) reads them, except where
 * noted. Every malformed line is an error naming the source, the line number, the field, what
 * was expected and what was found.
 *
 * As trec_eval:
 * - lines end at \n; fields are separated by runs of ASCII whitespace (space, \t, \v, \f, \r)
 *   only, so a no-break space or other Unicode space inside a docid is part of the docid;
 * - qrels: a line starting with '#' (first column) is a comment; run: a line whose first
 *   non-blank character is '#' is a comment;
 * - run: text after the run tag (a 7th field and beyond) is ignored; the run tag is the last line's;
 * - qrels: rel is read like C's atol(): "2.0" is 2, "2.7" is 2, "-1" is -1;
 * - a document repeated for a query (in a run or in qrels) is an error.
 * Where we differ, deliberately:
 * - a file starting with a UTF-8 byte-order mark is refused: trec_eval keeps the three bytes as
 *   part of the first qid, which then silently matches nothing;
 * - blank lines are skipped in qrels too (trec_eval calls them malformed);
 * - rel must look like a number (trec_eval's atol reads "yes" as 0), the rank an integer and
 *   the score a finite number (trec_eval ignores the rank and reads the score with atof).
 */

export interface RunEntry {
  docid: string;
  rank: number;
  score: number;
}

export interface TrecRun {
  /** Run tag of the last line (trec_eval's convention), '' for an empty run. */
  tag: string;
  /** Entries per query, in file order. */
  queries: Map<string, RunEntry[]>;
}

/** qid -> docid -> relevance (an integer; >= 1 is relevant by default). */
export type Qrels = Map<string, Map<string, number>>;

export class TrecFormatError extends Error {
  override name = 'TrecFormatError';
}

export interface ParseOptions {
  /** Name used in error messages (a file name). */
  source?: string;
  /** Refuse inputs with more lines than this (untrusted uploads). Default 5,000,000. */
  maxLines?: number;
}

const DEFAULT_MAX_LINES = 5_000_000;
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** C's isspace() in the "C" locale. */
const ASCII_SPACE = /[ \t\n\v\f\r]+/;
const LEADING_SPACE = /^[ \t\v\f\r]+/;
const TRAILING_SPACE = /[ \t\v\f\r]+$/;

type CommentRule = 'first-column' | 'first-non-blank';

function* numberedLines(
  text: string,
  options: ParseOptions,
  what: string,
  comments: CommentRule,
): Generator<[number, string[]]> {
  const source = options.source ?? what;
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  if (text.charCodeAt(0) === 0xfeff) {
    throw new TrecFormatError(
      `${source} line 1: starts with a UTF-8 byte-order mark; trec_eval would read it as part of the first qid, which would then match nothing. Save the file without a BOM`,
    );
  }
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    if (lineNo > maxLines) throw new TrecFormatError(`${source}: more than ${maxLines} lines`);
    const raw = text.slice(start, end);
    start = end + 1;
    const line = raw.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
    if (line.length === 0) continue;
    if (comments === 'first-column' ? raw.startsWith('#') : line.startsWith('#')) continue;
    yield [lineNo, line.split(ASCII_SPACE)];
  }
}

/** C's atol() of a field that looks like a number: the integer part, sign kept ("2.0" -> 2, "-1.5" -> -1). */
function atolOfNumber(text: string): number {
  const m = /^[+-]?\d*/.exec(text)![0];
  const digits = m.replace(/^[+-]/, '');
  return digits === '' ? 0 : Number(m.startsWith('-') ? `-${digits}` : digits) || 0;
}

export function parseRun(text: string, options: ParseOptions = {}): TrecRun {
  const source = options.source ?? 'run';
  const queries = new Map<string, RunEntry[]>();
  const seen = new Map<string, number>();
  let tag = '';
  for (const [lineNo, f] of numberedLines(text, options, 'run', 'first-non-blank')) {
    const at = `${source} line ${lineNo}`;
    if (f.length < 6) {
      throw new TrecFormatError(`${at}: expected 6 fields "qid Q0 docid rank score tag", found ${f.length}`);
    }
    // trec_eval ignores whatever follows the run tag
    const [qid, , docid, rankText, scoreText, lineTag] = f as [string, string, string, string, string, string];
    if (!INTEGER.test(rankText))
      throw new TrecFormatError(`${at}: field 4 (rank) must be an integer, found ${JSON.stringify(rankText)}`);
    const score = Number(scoreText);
    if (!NUMBER.test(scoreText) || !Number.isFinite(score)) {
      throw new TrecFormatError(`${at}: field 5 (score) must be a finite number, found ${JSON.stringify(scoreText)}`);
    }
    const key = `${qid}\0${docid}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new TrecFormatError(
        `${at}: document ${JSON.stringify(docid)} repeated for query ${JSON.stringify(qid)} (first on line ${first})`,
      );
    }
    seen.set(key, lineNo);
    let list = queries.get(qid);
    if (!list) queries.set(qid, (list = []));
    list.push({ docid, rank: Number(rankText), score });
    tag = lineTag;
  }
  return { tag, queries };
}

export function parseQrels(text: string, options: ParseOptions = {}): Qrels {
  const source = options.source ?? 'qrels';
  const qrels: Qrels = new Map();
  for (const [lineNo, f] of numberedLines(text, options, 'qrels', 'first-column')) {
    const at = `${source} line ${lineNo}`;
    if (f.length !== 4) throw new TrecFormatError(`${at}: expected 4 fields "qid iter docid rel", found ${f.length}`);
    const [qid, , docid, relText] = f as [string, string, string, string];
    if (!NUMBER.test(relText))
      throw new TrecFormatError(`${at}: field 4 (rel) must be a number, found ${JSON.stringify(relText)}`);
    let judged = qrels.get(qid);
    if (!judged) qrels.set(qid, (judged = new Map()));
    if (judged.has(docid)) {
      throw new TrecFormatError(
        `${at}: document ${JSON.stringify(docid)} judged twice for query ${JSON.stringify(qid)}`,
      );
    }
    judged.set(docid, atolOfNumber(relText));
  }
  return qrels;
}

function checkToken(value: string, field: string): void {
  if (value.length === 0 || /[ \t\n\v\f\r]/.test(value) || (field === 'qid' && value.startsWith('#'))) {
    throw new TrecFormatError(
      `${field} ${JSON.stringify(value)} is empty, contains ASCII whitespace or reads as a comment`,
    );
  }
}

/**
 * Writes rankings as a run, ranks from 1 in the given order. Scores are written in shortest
 * round-trip form, so parsing gives the same numbers back. trec_eval ignores the rank column
 * and re-sorts by score (ties by docid, descending).
 */
export function formatRun(
  rankings: Iterable<[string, ReadonlyArray<{ doc_id: string; score: number }>]>,
  tag: string,
): string {
  checkToken(tag, 'run tag');
  const lines: string[] = [];
  for (const [qid, docs] of rankings) {
    checkToken(qid, 'qid');
    docs.forEach((d, i) => {
      checkToken(d.doc_id, 'docid');
      if (!Number.isFinite(d.score)) throw new TrecFormatError(`score of ${d.doc_id} for ${qid} is not finite`);
      lines.push(`${qid} Q0 ${d.doc_id} ${i + 1} ${String(d.score)} ${tag}`);
    });
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

export function formatQrels(qrels: Qrels): string {
  const lines: string[] = [];
  for (const [qid, judged] of qrels) {
    checkToken(qid, 'qid');
    for (const [docid, rel] of judged) {
      checkToken(docid, 'docid');
      if (!Number.isInteger(rel))
        throw new TrecFormatError(`rel of ${docid} for ${qid} must be an integer, found ${rel}`);
      lines.push(`${qid} 0 ${docid} ${rel}`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** Qrels from gold sets (binary relevance 1); tasks with empty gold get no entry at all. */
export function qrelsFromGold(tasks: Iterable<{ task_id: string; gold_docs: readonly string[] }>): Qrels {
  const qrels: Qrels = new Map();
  for (const t of tasks) {
    if (t.gold_docs.length === 0) continue;
    qrels.set(t.task_id, new Map(t.gold_docs.map((d) => [d, 1])));
  }
  return qrels;
}
