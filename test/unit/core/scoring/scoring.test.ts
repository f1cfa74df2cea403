import { describe, expect, it } from 'vitest';
import { citationGold, citationPrecisionRecall, ndcgAtK, recallAtK } from '../../../../src/core/scoring/metrics.ts';
import { parsePredictions } from '../../../../src/core/scoring/predictions.ts';
import {
  JudgeCallMissingError,
  JudgeCallsMissingError,
  ScoringAbortedError,
  scoreSubmission,
} from '../../../../src/core/scoring/score.ts';
import type { JudgeFn } from '../../../../src/core/scoring/score.ts';
import type { Task } from '../../../../src/core/release/types.ts';
import { CORRECT, REFUSAL, WRONG, items, jsonl, scriptedJudge, task, testProfile } from './fixtures.ts';

async function score(tasks: Task[], rows: object[], judge: JudgeFn) {
  const predictions = parsePredictions(jsonl(rows), tasks);
  expect(predictions.issues).toEqual([]);
  return scoreSubmission({ tasks, predictions, profile: testProfile, judge });
}

describe('hand-computed cases of tests/test_score.py (spec 5)', () => {
  it('recall@k = 0.5 and nDCG = 1/log2(3)', () => {
    expect(recallAtK(['a', 'x'], ['a', 'b'], 5)).toBe(0.5);
    expect(ndcgAtK(['x', 'a'], ['a'], 10)).toBe(1 / Math.log2(3));
    expect(ndcgAtK(['a', 'a', 'a'], ['a', 'b'], 10)).toBe(1 / (1 + 1 / Math.log2(3)));
  });

  it('aggregation: two matched items + one extra give F1 0.8', async () => {
    const t = task('agg', 'aggregation', { items: items(['A', ['d1']], ['B', ['d2']]), gold_docs: ['d1', 'd2'] });
    const out = await score(
      [t],
      [{ task_id: 'agg', answer: 'A, B, C', citations: ['d1', 'd2'] }],
      scriptedJudge({ 'agg:AGGJUDGE': '{"matched_items": [true, true], "extra_items": 1}' }),
    );
    expect(out.report.per_type.aggregation).toBeCloseTo(0.8, 15);
    expect(out.report.per_type_uncited.aggregation).toBeCloseTo(0.8, 15);
  });

  it('per-item gate: a matched item without a supporting citation costs precision and recall (F1 0.5)', async () => {
    const t = task('agg', 'aggregation', { items: items(['A', ['d1']], ['B', ['d2']]), gold_docs: ['d1', 'd2'] });
    const out = await score(
      [t],
      [{ task_id: 'agg', answer: 'A, B', citations: ['d1'] }],
      scriptedJudge({ 'agg:AGGJUDGE': '{"matched_items": [true, true], "extra_items": 0}' }),
    );
    expect(out.report.per_type.aggregation).toBe(0.5);
    expect(out.report.per_type_uncited.aggregation).toBe(1);
  });

  it('an item with no doc_ids falls back to the task gold docs', async () => {
    const t = task('agg', 'aggregation', { items: items(['A', []]), gold_docs: ['g'] });
    const out = await score(
      [t],
      [{ task_id: 'agg', answer: 'A', citations: ['g'] }],
      scriptedJudge({ 'agg:AGGJUDGE': '{"matched_items": [true], "extra_items": 0}' }),
    );
    expect(out.report.per_type.aggregation).toBe(1);
  });

  it('the gate counts only the first 3 citations', async () => {
    const t = task('sh', 'single_hop', { gold_docs: ['gold'] });
    const out = await score(
      [t],
      [{ task_id: 'sh', answer: 'x', citations: ['a', 'b', 'c', 'gold'] }],
      scriptedJudge({ 'sh:SCOREJUDGE': CORRECT }),
    );
    expect(out.report.per_type.single_hop).toBe(0);
    expect(out.report.per_type_uncited.single_hop).toBe(1);
    // citation precision sees all four citations
    expect(out.report.citation_precision).toBe(0.25);
  });

  it('citation precision / recall 0.5 / 0.5, duplicates counted in the denominator', () => {
    const t = task('sh', 'single_hop', { gold_docs: ['g1', 'g2'] });
    expect(citationPrecisionRecall(['g1', 'x'], citationGold(t))).toEqual({ precision: 0.5, recall: 0.5 });
    expect(citationPrecisionRecall(['g1', 'g1'], citationGold(t))).toEqual({ precision: 0.5, recall: 0.5 });
  });

  it('rejects duplicate, unknown and missing ids with the canonical wording', () => {
    const tasks = [task('a', 'single_hop'), task('b', 'single_hop'), task('c', 'single_hop')];
    const r = parsePredictions(
      jsonl([
        { task_id: 'a', answer: 'x' },
        { task_id: 'a', answer: 'y' },
        { task_id: 'zz', answer: 'z' },
      ]),
      tasks,
    );
    expect(r.ok).toBe(false);
    expect(r.summary).toEqual([
      "predictions contain 1 duplicate task_id(s), e.g. ['a']",
      "predictions contain 1 unknown task_id(s), e.g. ['zz']",
      "predictions missing 2 task(s), e.g. ['b', 'c']",
    ]);
    expect(r.issues.map((i) => [i.code, i.line, i.field])).toEqual([
      ['duplicate_task_id', 2, 'task_id'],
      ['unknown_task_id', 3, 'task_id'],
      ['missing_task', null, 'task_id'],
      ['missing_task', null, 'task_id'],
    ]);
  });

  it('telemetry: 4,600 tokens / 2,300 per task / $0.027 / $0.0135', async () => {
    const tasks = [task('u1', 'unanswerable'), task('u2', 'unanswerable')];
    const rows = [
      {
        task_id: 'u1',
        answer: 'no',
        usage: { input_tokens: 2000, output_tokens: 300, cache_read_input_tokens: 999 },
        cost_usd: 0.012,
      },
      { task_id: 'u2', answer: 'no', usage: { input_tokens: 1500, output_tokens: 800 }, cost_usd: 0.015 },
    ];
    const out = await score(tasks, rows, scriptedJudge({ 'u1:SCOREJUDGE': REFUSAL, 'u2:SCOREJUDGE': REFUSAL }));
    expect(out.report.tokens_total).toBe(4600);
    expect(out.report.tokens_per_task).toBe(2300);
    expect(out.report.cost_usd_total).toBe(0.027);
    expect(out.report.cost_usd_per_task).toBe(0.0135);
    expect(out.scoresJson).toContain('"tokens_total": 4600,\n  "tokens_per_task": 2300.0,');
  });
});

describe('scoring behaviour of score.py', () => {
  it('an empty answer of an answerable task scores (0, 0) without a judge call; a blank refusal is shown as (empty)', async () => {
    const seen: string[] = [];
    const tasks = [task('sh', 'single_hop', { gold_docs: ['g'] }), task('un', 'unanswerable')];
    const out = await score(
      tasks,
      [
        { task_id: 'sh', answer: null, citations: ['g'] },
        { task_id: 'un', answer: '' },
      ],
      scriptedJudge({ 'un:SCOREJUDGE': REFUSAL }, seen),
    );
    expect(seen).toEqual(['un:SCOREJUDGE']);
    expect(out.calls[0]!.prompt).toContain('<system_answer>\n(empty)\n</system_answer>');
    expect(out.report.per_type).toEqual({ single_hop: 0, unanswerable: 1 });
    expect(out.report.citation_precision).toBe(1);
  });

  it('asks the premise-id judge only for refused false_premise tasks, with the answer verbatim', async () => {
    const tasks = [task('f1', 'false_premise', { false_element: 'a fake meeting' }), task('f2', 'false_premise')];
    const out = await score(
      tasks,
      [
        { task_id: 'f1', answer: '' },
        { task_id: 'f2', answer: 'Sure, it happened.' },
      ],
      scriptedJudge({ 'f1:SCOREJUDGE': REFUSAL, 'f1:PREMISEID': '{"identified": "no"}', 'f2:SCOREJUDGE': WRONG }),
    );
    expect(out.calls.map((c) => c.tag)).toEqual(['SCOREJUDGE', 'PREMISEID', 'SCOREJUDGE']);
    expect(out.calls[1]!.prompt).toContain('False presupposition: a fake meeting\n<system_answer>\n\n</system_answer>');
    expect(out.report.premise_refused_n).toBe(1);
    expect(out.report.premise_id_rate).toBe(1); // "no" is a truthy string
    expect(out.calls[2]!.prompt).not.toContain('PREMISEID');
  });

  it('never substitutes placeholder-looking text inside an answer or a question', async () => {
    const t = task('sh', 'single_hop', { question: 'What is {answer}?' });
    const out = await score(
      [t],
      [{ task_id: 'sh', answer: '{question} {reference_answer} {n_gold_items}' }],
      scriptedJudge({ 'sh:SCOREJUDGE': WRONG }),
    );
    expect(out.calls[0]!.prompt).toBe(
      '[SCOREJUDGE] {"correct": true|false}\n\nQuestion: What is {answer}?\nReference answer: answer of sh\n<system_answer>\n{question} {reference_answer} {n_gold_items}\n</system_answer>',
    );
  });

  it('reads malformed aggregation verdicts as Python does', async () => {
    const t = (id: string) =>
      task(id, 'aggregation', { items: items(['A', ['d1']], ['B', ['d2']]), gold_docs: ['d1', 'd2'] });
    const cases: [string, number][] = [
      ['{"matched_items": ["false", 0], "extra_items": "2"}', 0.4], // "false" is truthy; int("2") = 2: P 1/3, R 1/2
      ['{"matched_items": [true, true, true], "extra_items": 2.7}', 2 / 3], // int(2.7) = 2, the third entry is ignored
      ['{"matched_items": [true], "extra_items": -1}', 2 / 3], // max(0, -1); a short list matches only its entries
      ['{"matched_items": null, "extra_items": 3}', 0],
      ['{"extra_items": null}', 0],
      ['{"matched_items": "ab", "extra_items": 0}', 1], // list("ab") = ['a', 'b']
    ];
    for (const [reply, expected] of cases) {
      const out = await score(
        [t('a')],
        [{ task_id: 'a', answer: 'A', citations: ['d1', 'd2'] }],
        scriptedJudge({ 'a:AGGJUDGE': reply }),
      );
      expect(out.report.per_type_uncited.aggregation, reply).toBeCloseTo(expected, 15);
    }
  });

  it('counts a thrown call or a non-JSON reply as a judge error and aborts above max(1, int(n * 0.02))', async () => {
    const tasks = [task('a', 'single_hop', { gold_docs: ['g'] }), task('b', 'single_hop', { gold_docs: ['g'] })];
    const rows = [
      { task_id: 'a', answer: 'x', citations: ['g'] },
      { task_id: 'b', answer: 'y', citations: ['g'] },
    ];
    const one = await score(tasks, rows, scriptedJudge({ 'a:SCOREJUDGE': 'not json', 'b:SCOREJUDGE': CORRECT }));
    expect(one.report.judge_errors).toBe(1);
    expect(one.report.per_type.single_hop).toBe(0.5);
    expect(one.report.citation_precision).toBe(1); // the errored task is left out
    expect(one.calls[0]!.error).toMatch(/non-JSON/);
    await expect(
      score(tasks, rows, scriptedJudge({ 'a:SCOREJUDGE': new Error('HTTP 500'), 'b:SCOREJUDGE': '' })),
    ).rejects.toMatchObject({
      reason: 'judge_errors',
    });
  });

  it('keeps the refusal score when only the premise-id call fails (score.py assigns it before that call)', async () => {
    const out = await score(
      [task('f', 'false_premise')],
      [{ task_id: 'f', answer: 'No.' }],
      scriptedJudge({ 'f:SCOREJUDGE': REFUSAL, 'f:PREMISEID': 'oops' }),
    );
    expect(out.report.judge_errors).toBe(1);
    expect(out.report.per_type.false_premise).toBe(1);
    expect(out.report.premise_refused_n).toBe(1);
    expect(out.report.premise_id_rate).toBe(0);
  });

  it('aborts where the canonical scorer would crash (a verdict that is not a JSON object, int("2.5"))', async () => {
    const err = await score(
      [task('a', 'single_hop')],
      [{ task_id: 'a', answer: 'x' }],
      scriptedJudge({ 'a:SCOREJUDGE': '[true]' }),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScoringAbortedError);
    expect((err as ScoringAbortedError).reason).toBe('canonical_crash');
    const t = task('g', 'aggregation', { items: items(['A', []]) });
    await expect(
      score(
        [t],
        [{ task_id: 'g', answer: 'A' }],
        scriptedJudge({ 'g:AGGJUDGE': '{"matched_items": [true], "extra_items": "2.5"}' }),
      ),
    ).rejects.toBeInstanceOf(ScoringAbortedError);
  });

  it('reports the first bad reply in task order, even when a later task fails first', async () => {
    const tasks = ['t0', 't1', 't2', 't3'].map((id) => task(id, 'single_hop'));
    const predictions = parsePredictions(jsonl(tasks.map((t) => ({ task_id: t.task_id, answer: 'x' }))), tasks);
    let t3Asked!: () => void;
    const t3 = new Promise<void>((resolve) => (t3Asked = resolve));
    const judge: JudgeFn = async (call) => {
      if (call.task_id === 't1') {
        // t1 answers after t3 has answered (and crashed)
        await t3;
        for (let i = 0; i < 100; i++) await Promise.resolve();
        return '[true]';
      }
      if (call.task_id === 't3') {
        t3Asked();
        return '"a string verdict"';
      }
      return CORRECT;
    };
    const err = await scoreSubmission({ tasks, predictions, profile: testProfile, judge, concurrency: 4 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ScoringAbortedError);
    expect((err as Error).message).toContain("AttributeError: 'list' object has no attribute 'get'");
    expect((err as Error).message).not.toContain("'str'");
  });

  it('computes item F1 with Python ints for an extra_items beyond 2^53', async () => {
    const t = task('g', 'aggregation', { items: items(['A', ['d']]), gold_docs: ['d'] });
    const out = await score(
      [t],
      [{ task_id: 'g', answer: 'A', citations: ['d'] }],
      scriptedJudge({ 'g:AGGJUDGE': '{"matched_items": [true], "extra_items": 9007199254740993}' }),
    );
    // precision = 1 / (1 + 9007199254740993) as Python rounds it once; a double sum would give 1 / 2^53
    const precision = 1 / 9007199254740994;
    expect(out.report.per_type.aggregation).toBe((2 * precision * 1) / (precision + 1));
  });

  it('lists every missing cache entry instead of scoring', async () => {
    const tasks = [task('a', 'single_hop'), task('b', 'unanswerable')];
    const judge: JudgeFn = async (call) => {
      throw new JudgeCallMissingError(call);
    };
    const err = await score(
      tasks,
      [
        { task_id: 'a', answer: 'x' },
        { task_id: 'b', answer: 'y' },
      ],
      judge,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JudgeCallsMissingError);
    expect((err as JudgeCallsMissingError).calls.map((c) => c.task_id)).toEqual(['a', 'b']);
  });

  it('orders per_type by first appearance and keeps 0.0 floats in scores.json', async () => {
    const tasks = [task('u', 'unanswerable'), task('s', 'single_hop')];
    const out = await score(
      tasks,
      [
        { task_id: 'u', answer: 'x' },
        { task_id: 's', answer: 'y' },
      ],
      scriptedJudge({ 'u:SCOREJUDGE': WRONG, 's:SCOREJUDGE': WRONG }),
    );
    expect(Object.keys(out.report.per_type)).toEqual(['unanswerable', 'single_hop']);
    expect(out.scoresJson).toContain('"per_type": {\n    "unanswerable": 0.0,\n    "single_hop": 0.0\n  }');
    expect(out.scoresJson).toContain('"n_tasks": 2,');
    expect(out.report).not.toHaveProperty('premise_id_rate');
    expect(out.report).not.toHaveProperty('tokens_total');
  });
});
