import { describe, expect, it } from 'vitest';
import {
  absenceQueries,
  countMentions,
  questionNames,
  targetNeedles,
  targetOf,
} from '../../../../src/core/audit/absence.ts';
import {
  APPEAL_FORMAT,
  appealCounts,
  appealProblems,
  appealsJsonl,
  locatePassage,
  parseAppealsJsonl,
  type GoldAppeal,
} from '../../../../src/core/audit/appeals.ts';
import { task } from '../scoring/fixtures.ts';

const appeal = (task_id: string, extra: Partial<GoldAppeal> = {}): GoldAppeal => ({
  format: APPEAL_FORMAT,
  appeal_id: `a-${task_id}`,
  release_id: 'sample',
  dataset_version: 'v1.0-sample',
  split: 'full',
  task_id,
  item: null,
  doc_id: 'SMPL00000001',
  passage_start: 12,
  passage: 'QX-PER departed Greywick',
  note: 'names the aircraft',
  reviewer: 'ann',
  created_at: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('gold appeals', () => {
  it('locates a passage whatever its whitespace, in code points', () => {
    const text = '😀 Flight log:\nQX-PER   departed\tGreywick at dawn.';
    // 😀 is two UTF-16 units but one code point: QX starts at 14 for Python
    expect(locatePassage(text, 'QX-PER departed Greywick')).toBe(14);
    expect(locatePassage(text, 'not there')).toBeNull();
    expect(locatePassage(text, '   ')).toBeNull();
  });

  it('writes one line per appeal with the documented keys, and reads it back', () => {
    const list = [appeal('t1'), appeal('t2', { item: 1, passage_start: null })];
    const text = appealsJsonl(list);
    expect(text.split('\n')[0]).toBe(
      '{"format":"epstein-bench-appeal/1","appeal_id":"a-t1","release_id":"sample","dataset_version":"v1.0-sample","split":"full","task_id":"t1","item":null,"doc_id":"SMPL00000001","passage_start":12,"passage":"QX-PER departed Greywick","note":"names the aircraft","reviewer":"ann","created_at":"2026-01-01T00:00:00.000Z"}',
    );
    expect(parseAppealsJsonl(text)).toEqual({ appeals: list, issues: [] });
  });

  it('refuses an appeal without a task or a passage, naming what is missing', () => {
    expect(appealProblems({ task_id: '', doc_id: 'D', passage: ' ', note: '' })).toEqual([
      'Choose the task this document supports.',
      'Give the passage that supports the task (select it in the text, or paste it).',
    ]);
    const bad = appealsJsonl([appeal('t1')]).replace('"item":null', '"item":-1');
    expect(parseAppealsJsonl(bad, 'in.jsonl').issues).toEqual([
      'in.jsonl line 1: expected item to be null or a non-negative integer',
    ]);
  });

  it('refuses an appeal_id already read (the Appeals list keys rows by it), naming both lines', () => {
    const text = appealsJsonl([appeal('t1'), appeal('t2'), appeal('t1', { note: 'again' })]);
    const { appeals, issues } = parseAppealsJsonl(text, 'in.jsonl');
    expect(appeals.map((a) => a.task_id)).toEqual(['t1', 't2']);
    expect(issues).toEqual(['in.jsonl line 3: appeal_id "a-t1" repeats line 1']);
  });

  it('counts appeals per task for the task list', () => {
    const counts = appealCounts([appeal('t1'), appeal('t1', { appeal_id: 'b' }), appeal('t2', { split: 'dev' })]);
    expect(Object.fromEntries(counts)).toEqual({ 'full:t1': 2, 'dev:t2': 1 });
  });
});

describe('absence audit queries', () => {
  it('searches the question, and the target entity of a false premise', () => {
    const fp = task('f', 'false_premise', {
      question: 'Where did Ambrose Larkspur fly in 2007?',
      provenance: { generator_model: 'g', pipeline_version: '1.0.0', target_entity: 'ambrose larkspur' },
    });
    expect(absenceQueries(fp.question, targetOf(fp))).toEqual([
      { kind: 'question', query: 'Where did Ambrose Larkspur fly in 2007?' },
      { kind: 'target', query: 'ambrose larkspur' },
    ]);
    const u = task('u', 'unanswerable');
    expect(absenceQueries(u.question, targetOf(u))).toEqual([{ kind: 'question', query: 'question u?' }]);
  });

  it('finds the names of a question', () => {
    expect(questionNames('How much did Marrowby Land Company wire to Noemi Zeller-Moss in January 2009?')).toEqual([
      'Marrowby Land Company',
      'Noemi Zeller-Moss',
    ]);
    expect(questionNames("What did O'Hara Bright tell Hon. Ada Lune?")).toEqual(["O'Hara Bright", 'Hon. Ada Lune']);
  });

  it('counts mentions exactly, a name and its alias at one place once', () => {
    const text = 'To: Ambrose\nLarkspur <larkspur@x>. AMBROSE LARKSPUR wrote; Larks are birds.';
    expect(countMentions(text, ['ambrose larkspur', 'Larkspur'])).toBe(3);
    expect(countMentions(text, ['Ambrose A. Larkspur'])).toBe(0);
    expect(countMentions(text, [])).toBe(0);
  });

  it('highlights the target and its aliases once each, longest first', () => {
    expect(targetNeedles('ambrose larkspur', ['Ambrose Larkspur', 'A. Larkspur', 'Larkspur'])).toEqual([
      'ambrose larkspur',
      'A. Larkspur',
      'Larkspur',
    ]);
  });
});
