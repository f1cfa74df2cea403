/** Key-reading signals: a submission built from the answer key is flagged on every signal; the reference systems are not. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_SIGNALS, keySignalLines, keySignals } from '../../../../src/core/audit/key-signals.ts';
import type { Task } from '../../../../src/core/release/types.ts';
import { parsePredictions, type PredictionsResult } from '../../../../src/core/scoring/predictions.ts';
import { parseTasksJsonl } from '../../../../src/core/scoring/scoring-inputs.ts';
import { keyBuiltPredictions } from '../../../support/key-built.ts';
import { hasShared, projectRoot, sharedNote, v10Dir } from '../../../support/shared.ts';

function tasksOf(dir: string): Task[] {
  const file = path.join(dir, 'full/tasks.jsonl');
  return parseTasksJsonl(readFileSync(file, 'utf8'), file);
}

function submission(dir: string, slug: string, tasks: readonly Task[]) {
  const text = readFileSync(path.join(dir, 'submissions', slug, 'predictions.jsonl'), 'utf8');
  return { slug, predictions: parsePredictions(text, tasks, { mode: 'score' }) };
}

/** The key-built submission (test/support/key-built.ts), as the scorer reads it. */
function fromTheKey(tasks: readonly Task[], retriever: PredictionsResult): PredictionsResult {
  const p = parsePredictions(keyBuiltPredictions(tasks, retriever), tasks, { mode: 'score' });
  expect(p.ok, p.summary.join('\n')).toBe(true);
  return p;
}

describe.runIf(hasShared)(`key-reading signals on v1.0 (${sharedNote})`, () => {
  const tasks = tasksOf(v10Dir);
  const bm25 = submission(v10Dir, 'bm25-reference', tasks);
  const key = { slug: 'from-the-key', predictions: fromTheKey(tasks, bm25.predictions) };

  it('a submission built from the answer key is flagged on every signal, above bm25-reference', () => {
    const report = keySignals({ tasks, submission: key, published: [bm25], gateSize: 3 });
    expect(report.signals.map((s) => s.id)).toEqual([...KEY_SIGNALS]);
    expect(report.signals.filter((s) => !s.raised).map((s) => s.id)).toEqual([]);
    expect(report.raised).toBe(4);
    const byId = new Map(report.signals.map((s) => [s.id, s]));
    const freeText = tasks.filter((t) => t.type === 'single_hop' || t.type === 'timeline');
    expect(byId.get('answer_equals_reference')!.submission.task_ids).toHaveLength(freeText.length);
    // gold cited but not retrieved: exactly the answerable tasks where bm25 misses a gold document
    const answerable = tasks.filter((t) => t.type !== 'unanswerable' && t.type !== 'false_premise');
    const missed = answerable.filter((t) =>
      (t.gold_docs ?? []).some((d) => !bm25.predictions.byTaskId.get(t.task_id)!.retrieved.includes(d)),
    );
    expect(byId.get('gold_cited_not_retrieved')!.submission.task_ids).toEqual(missed.map((t) => t.task_id));
    // the published system's figure is beside it
    expect(byId.get('gold_cited_not_retrieved')!.published).toEqual([
      { slug: 'bm25-reference', figure: { task_ids: [], of: answerable.length } },
    ]);
  });

  it('bm25-reference is not flagged on any signal (and says what it could not measure)', () => {
    const report = keySignals({ tasks, submission: bm25, published: [bm25], gateSize: 3 });
    expect(report.raised).toBe(0);
    expect(report.signals.find((s) => s.id === 'gold_cited_not_retrieved')!.submission.task_ids).toEqual([]);
    expect(report.signals.find((s) => s.id === 'credit_no_published_system_gets')!.unavailable).toMatch(
      /no other published system/,
    );
    const text = keySignalLines(report).join('\n');
    expect(text).toContain('signals to review, not a verdict');
    expect(text).not.toMatch(/cheat|fraud|guilty|\bREVIEW\b/);
  });
});

describe('key-reading signals on the sample', () => {
  const sample = path.join(projectRoot, 'static-data/sample');
  const tasks = tasksOf(sample);
  const published = ['bm25-top-doc-sample', 'closed-book-sample-control', 'always-refuse-sample-control'].map((s) =>
    submission(sample, s, tasks),
  );

  it('the key-built submission is flagged on every signal beside the three published systems', () => {
    const key = { slug: 'from-the-key', predictions: fromTheKey(tasks, published[0]!.predictions) };
    const report = keySignals({ tasks, submission: key, published, gateSize: 3 });
    expect(report.raised).toBe(4);
    for (const s of report.signals) expect(s.published.map((p) => p.slug)).toEqual(published.map((p) => p.slug));
  });

  it('a published system is compared with the others, never with itself; the controls raise nothing', () => {
    for (const control of published.slice(1)) {
      const report = keySignals({ tasks, submission: control, published, gateSize: 3 });
      expect(report.published).not.toContain(control.slug);
      expect(report.raised).toBe(0);
    }
  });
});
