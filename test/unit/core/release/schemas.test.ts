import { describe, expect, it } from 'vitest';
import { IssueList } from '../../../../src/core/release/issues.ts';
import {
  candidateValidator,
  chunkValidator,
  corpusDocValidator,
  entityIndexValidator,
  judgeProfileValidator,
  leaderboardValidator,
  manifestValidator,
  parseRejectionReason,
  poolDroppedValidator,
  poolEntryValidator,
  questionValidator,
  rejectedValidator,
  rejectionDetailValidator,
  releaseDescriptorValidator,
  scoreReportValidator,
  submissionMetadataValidator,
  submissionScoresValidator,
  taskValidator,
  verifiedValidator,
} from '../../../../src/core/release/schemas.ts';
import type { Validator } from '../../../../src/core/release/validate.ts';
import type { TaskType } from '../../../../src/core/release/types.ts';

const ID = '371ea2e0-1e09-4239-89a1-2586a3faa47c';
const SHA = 'baeacb246318e6f51ec5d7dc2ce11074435e3a09d9454da2bc7956622b6921f9';

function check<T>(v: Validator<T>, value: unknown) {
  const issues = new IssueList();
  const result = v(value, { file: 'x.jsonl', line: 7 }, issues);
  return { ok: result !== undefined, result, fields: issues.items.map((i) => i.field), issues: issues.items };
}

const baseProvenance = {
  generator_model: 'gpt-4o-mini-2024-07-18',
  pipeline_version: '1.1.0',
  verified: true,
  adjudicator_model: 'gpt-4o-2024-08-06',
};
const pooled = { pool_size: 12, pool_judge_model: 'gpt-4o-mini-2024-07-18' };

/** One valid task of each type, shaped like the real v1.0 lines. */
function validTask(type: TaskType): Record<string, unknown> {
  const common = { task_id: ID, type, question: 'What happened?' };
  switch (type) {
    case 'single_hop':
      return {
        ...common,
        answer: '4.4%',
        items: null,
        source_doc_ids: ['EFTA02024042'],
        provenance: { ...baseProvenance, salience: 3, ...pooled },
        gold_docs: ['EFTA02024042'],
      };
    case 'timeline':
      return {
        ...common,
        answer: '2004-03-01',
        items: null,
        source_doc_ids: ['EFTA02024042'],
        provenance: { ...baseProvenance, ...pooled },
        gold_docs: [],
      };
    case 'aggregation':
      return {
        ...common,
        answer: null,
        items: [
          { item: 'a', doc_ids: ['EFTA00138265'] },
          { item: 'b', doc_ids: [] },
        ],
        source_doc_ids: ['EFTA00138265'],
        provenance: { ...baseProvenance, bounding_entity: 'Acme', candidate_doc_ids: ['EFTA00138265'], ...pooled },
        gold_docs: ['EFTA00000001'],
      };
    case 'dossier':
      return {
        ...common,
        answer: null,
        items: [{ item: '2004-01-01 — met', doc_ids: ['EFTA00000002'] }],
        source_doc_ids: ['EFTA00000002'],
        provenance: { ...baseProvenance, target_entity: 'joichi ito', candidate_doc_ids: [], ...pooled },
        gold_docs: ['EFTA00000002'],
      };
    case 'unanswerable':
      return {
        ...common,
        answer: null,
        items: null,
        source_doc_ids: [],
        provenance: { ...baseProvenance },
        gold_docs: [],
      };
    case 'false_premise':
      return {
        ...common,
        answer: null,
        items: null,
        source_doc_ids: [],
        provenance: { ...baseProvenance, target_entity: 'joichi ito', absence_doc_ids: ['EFTA00000003'] },
        false_element: 'a dinner in Paris',
        gold_docs: [],
      };
  }
}

const TYPES: TaskType[] = ['single_hop', 'aggregation', 'timeline', 'dossier', 'unanswerable', 'false_premise'];

describe('questionValidator', () => {
  it('accepts a valid line', () => {
    expect(check(questionValidator, { task_id: ID, type: 'single_hop', question: 'Q?' }).ok).toBe(true);
  });
  it('reports a bad enum, a missing field and a wrong type', () => {
    const r = check(questionValidator, { task_id: ID, type: 'foo', question: 3 });
    expect(r.fields).toEqual(['type', 'question']);
    expect(r.issues[0]?.message).toBe(
      'x.jsonl line 7, field "type": expected one of single_hop|aggregation|timeline|dossier|unanswerable|false_premise, found "foo"',
    );
    expect(check(questionValidator, { type: 'single_hop', question: 'Q' }).fields).toEqual(['task_id']);
    expect(check(questionValidator, { task_id: 'not-a-uuid', type: 'single_hop', question: 'Q' }).fields).toEqual([
      'task_id',
    ]);
  });
});

describe('taskValidator', () => {
  it.each(TYPES)('accepts a valid %s task', (type) => {
    const r = check(taskValidator, validTask(type));
    expect(r.issues).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('wants a null answer for list and refusal types, a string for the others', () => {
    for (const type of ['aggregation', 'dossier', 'unanswerable', 'false_premise'] as const) {
      expect(check(taskValidator, { ...validTask(type), answer: 'x' }).fields).toEqual(['answer']);
    }
    expect(check(taskValidator, { ...validTask('single_hop'), answer: null }).fields).toEqual(['answer']);
    expect(check(taskValidator, { ...validTask('timeline'), answer: 5 }).fields).toEqual(['answer']);
  });

  it('wants items only for aggregation and dossier, and not empty', () => {
    expect(check(taskValidator, { ...validTask('single_hop'), items: [{ item: 'a', doc_ids: [] }] }).fields).toEqual([
      'items',
    ]);
    expect(check(taskValidator, { ...validTask('aggregation'), items: null }).fields).toEqual(['items']);
    expect(check(taskValidator, { ...validTask('dossier'), items: [] }).fields).toEqual(['items']);
    expect(
      check(taskValidator, { ...validTask('aggregation'), items: [{ item: 'a', doc_ids: ['bad'] }] }).fields,
    ).toEqual(['items[0].doc_ids[0]']);
  });

  it('wants false_element for false_premise only', () => {
    const { false_element: _dropped, ...withoutElement } = validTask('false_premise');
    expect(check(taskValidator, withoutElement).fields).toEqual(['false_element']);
    expect(check(taskValidator, { ...validTask('single_hop'), false_element: 'x' }).fields).toEqual(['false_element']);
  });

  it('wants no gold or source docs for refusal types', () => {
    expect(check(taskValidator, { ...validTask('unanswerable'), gold_docs: ['EFTA00000001'] }).fields).toEqual([
      'gold_docs',
    ]);
    expect(check(taskValidator, { ...validTask('false_premise'), source_doc_ids: ['EFTA00000001'] }).fields).toEqual([
      'source_doc_ids',
    ]);
  });

  it('checks each provenance variant', () => {
    const t = validTask('single_hop');
    const p = t.provenance as Record<string, unknown>;
    expect(check(taskValidator, { ...t, provenance: { ...p, salience: undefined } }).fields).toEqual([
      'provenance.salience',
    ]);
    expect(check(taskValidator, { ...t, provenance: { ...p, salience: 9 } }).fields).toEqual(['provenance.salience']);
    expect(check(taskValidator, { ...t, provenance: { ...p, pool_size: undefined } }).fields).toEqual([
      'provenance.pool_size',
    ]);
    const agg = validTask('aggregation');
    expect(
      check(taskValidator, { ...agg, provenance: { ...(agg.provenance as object), candidate_doc_ids: ['x'] } }).fields,
    ).toEqual(['provenance.candidate_doc_ids[0]']);
    const dossier = validTask('dossier');
    expect(
      check(taskValidator, { ...dossier, provenance: { ...(dossier.provenance as object), target_entity: undefined } })
        .fields,
    ).toEqual(['provenance.target_entity']);
    const fp = validTask('false_premise');
    expect(
      check(taskValidator, { ...fp, provenance: { ...(fp.provenance as object), absence_doc_ids: 'EFTA00000003' } })
        .fields,
    ).toEqual(['provenance.absence_doc_ids']);
    const un = validTask('unanswerable');
    expect(
      check(taskValidator, { ...un, provenance: { ...(un.provenance as object), verified: 'yes' } }).fields,
    ).toEqual(['provenance.verified']);
    expect(check(taskValidator, { ...un, provenance: { ...(un.provenance as object), note: 'kept' } }).ok).toBe(true);
  });

  it('reports a bad type and still checks the common provenance keys', () => {
    const r = check(taskValidator, { ...validTask('unanswerable'), type: 'foo', provenance: {} });
    expect(r.fields).toEqual(['type', 'provenance.generator_model', 'provenance.pipeline_version']);
  });

  it('reports a bad doc id in gold_docs and a non-object line', () => {
    expect(check(taskValidator, { ...validTask('single_hop'), gold_docs: ['EFTA1'] }).fields).toEqual(['gold_docs[0]']);
    expect(check(taskValidator, [1, 2]).issues[0]?.expected).toBe('a task object');
  });
});

describe('candidate and verified records', () => {
  it('accept candidates without gold_docs, verification or pool keys', () => {
    for (const type of TYPES) {
      const { gold_docs: _g, ...task } = validTask(type);
      const {
        verified: _v,
        adjudicator_model: _a,
        pool_size: _p,
        pool_judge_model: _j,
        ...prov
      } = task.provenance as Record<string, unknown>;
      expect(check(candidateValidator, { ...task, provenance: prov }).issues).toEqual([]);
      expect(check(verifiedValidator, { ...task, provenance: prov }).fields).toEqual([
        'provenance.verified',
        'provenance.adjudicator_model',
      ]);
    }
  });
  it('apply the type rules to candidates too', () => {
    const { gold_docs: _g, ...task } = validTask('unanswerable');
    expect(check(candidateValidator, { ...task, answer: 'x' }).fields).toEqual(['answer']);
  });
});

describe('rejected reasons', () => {
  it('parses the grammar', () => {
    expect(parseRejectionReason('standalone')).toEqual({ stage: 'standalone' });
    expect(parseRejectionReason('necessity')).toEqual({ stage: 'necessity' });
    expect(parseRejectionReason('adjudication:not_grounded')).toEqual({
      stage: 'adjudication',
      category: 'not_grounded',
    });
    expect(parseRejectionReason('error:timeout: 30s')).toEqual({ stage: 'error', message: 'timeout: 30s' });
    expect(parseRejectionReason('adjudication:')).toBeUndefined();
    expect(parseRejectionReason('Standalone')).toBeUndefined();
    expect(parseRejectionReason('pooling')).toBeUndefined();
  });

  it('checks the category against the type', () => {
    const row = (type: TaskType, reason: string) => check(rejectedValidator, { task_id: ID, type, reason });
    expect(row('single_hop', 'adjudication:wrong').ok).toBe(true);
    expect(row('dossier', 'adjudication:trivial').ok).toBe(true);
    expect(row('unanswerable', 'adjudication:answerable').ok).toBe(true);
    expect(row('false_premise', 'adjudication:tips_off').ok).toBe(true);
    expect(row('single_hop', 'adjudication:answerable').fields).toEqual(['reason']);
    expect(row('unanswerable', 'adjudication:wrong').fields).toEqual(['reason']);
    expect(row('false_premise', 'adjudication:ok').issues[0]?.expected).toBe(
      'adjudication:<supported|implausible|tips_off> for a false_premise task',
    );
    expect(row('timeline', 'rejected').issues[0]?.expected).toBe(
      'standalone | answerability | necessity | adjudication:<category> | error:<message>',
    );
    expect(row('timeline', 'error:boom').ok).toBe(true);
  });

  it('checks pool_dropped reasons', () => {
    expect(check(poolDroppedValidator, { task_id: ID, reason: 'unstable_pool' }).ok).toBe(true);
    expect(check(poolDroppedValidator, { task_id: ID, reason: 'source_not_supportive' }).ok).toBe(true);
    expect(check(poolDroppedValidator, { task_id: ID, reason: 'error:429' }).ok).toBe(true);
    expect(check(poolDroppedValidator, { task_id: ID, reason: 'unstable' }).fields).toEqual(['reason']);
  });

  it('checks rejection details: the stage must match the reason', () => {
    const d = { task_id: ID, stage: 'adjudication', reason: 'adjudication:wrong', saw: 's', why: 'w' };
    expect(check(rejectionDetailValidator, d).ok).toBe(true);
    expect(check(rejectionDetailValidator, { ...d, stage: 'necessity' }).fields).toEqual(['reason']);
    expect(check(rejectionDetailValidator, { ...d, stage: 'pooling' }).fields).toEqual(['stage']);
  });

  it('checks details of tasks dropped at pooling: stage pool, reason pool:<pool_dropped reason>', () => {
    const d = { task_id: ID, stage: 'pool', reason: 'pool:unstable_pool', saw: 's', why: 'w' };
    expect(check(rejectionDetailValidator, d).ok).toBe(true);
    expect(check(rejectionDetailValidator, { ...d, reason: 'pool:error:timeout' }).ok).toBe(true);
    expect(check(rejectionDetailValidator, { ...d, reason: 'pool:maybe' }).fields).toEqual(['reason']);
    expect(check(rejectionDetailValidator, { ...d, reason: 'adjudication:wrong' }).fields).toEqual(['reason']);
  });

  it('checks pool entries', () => {
    const e = { task_id: ID, doc_id: 'EFTA00000001', judgement: 'supports', from: ['bm25', 'dense'] };
    expect(check(poolEntryValidator, e).ok).toBe(true);
    expect(check(poolEntryValidator, { ...e, judgement: 'yes' }).fields).toEqual(['judgement']);
    expect(check(poolEntryValidator, { ...e, from: ['bm25', 'splade'] }).fields).toEqual(['from[1]']);
  });
});

describe('corpus records', () => {
  const doc = {
    doc_id: 'EFTA00000001',
    text: 't',
    quality: 'clean',
    meta: { file_name: 'a.pdf', file_type: 'pdf', online_url: 'https://x' },
  };
  it('checks docs', () => {
    expect(check(corpusDocValidator, doc).ok).toBe(true);
    expect(check(corpusDocValidator, { ...doc, quality: 'ok' }).fields).toEqual(['quality']);
    expect(check(corpusDocValidator, { ...doc, meta: { file_name: 'a' } }).fields).toEqual([
      'meta.file_type',
      'meta.online_url',
    ]);
  });
  it('checks that chunk_id is doc_id#i', () => {
    expect(check(chunkValidator, { chunk_id: 'EFTA00000001#0', doc_id: 'EFTA00000001', text: 't' }).ok).toBe(true);
    expect(check(chunkValidator, { chunk_id: 'EFTA00000001#12', doc_id: 'EFTA00000001', text: 't' }).ok).toBe(true);
    expect(check(chunkValidator, { chunk_id: 'EFTA00000002#0', doc_id: 'EFTA00000001', text: 't' }).fields).toEqual([
      'chunk_id',
    ]);
    expect(check(chunkValidator, { chunk_id: 'EFTA00000001#01', doc_id: 'EFTA00000001', text: 't' }).fields).toEqual([
      'chunk_id',
    ]);
    expect(check(chunkValidator, { chunk_id: 'EFTA00000001', doc_id: 'EFTA00000001', text: 't' }).fields).toEqual([
      'chunk_id',
    ]);
  });
  it('checks entity indexes', () => {
    const ok = { 'joichi ito': { aliases: ['Joichi Ito', 'Joi Ito'], doc_ids: ['EFTA00000001'] } };
    expect(check(entityIndexValidator, ok).ok).toBe(true);
    expect(check(entityIndexValidator, { 'joichi ito': { aliases: 'Joi', doc_ids: [] } }).fields).toEqual([
      '["joichi ito"].aliases',
    ]);
  });
});

const report = {
  overall_cited_correctness: 0.5,
  overall_cited_correctness_ci95: [0.4, 0.6],
  overall_cited_correctness_micro: 0.5,
  per_type: { single_hop: 0.5, unanswerable: 1.0 },
  overall_uncited_correctness: 0.6,
  overall_uncited_correctness_ci95: [0.5, 0.7],
  overall_uncited_correctness_micro: 0.6,
  per_type_uncited: { single_hop: 0.6 },
  citation_precision: 0.4,
  citation_recall: 0.2,
  retrieval: { 'recall@5': 0.1, 'recall@20': 0.3, 'ndcg@10': 0.2 },
  n_tasks: 10,
  judge_model: 'gpt-5.5-2026-04-23',
  judge_prompt_version: 'v2',
  judge_errors: 0,
};

describe('reports, leaderboard, metadata, manifest', () => {
  it('checks score reports', () => {
    expect(check(scoreReportValidator, report).ok).toBe(true);
    expect(check(scoreReportValidator, { ...report, per_type: { single_hop: 1.5 } }).fields).toEqual([
      'per_type.single_hop',
    ]);
    expect(check(scoreReportValidator, { ...report, per_type: { foo: 1 } }).fields).toEqual(['per_type.foo']);
    expect(check(scoreReportValidator, { ...report, overall_cited_correctness_ci95: [0.1] }).fields).toEqual([
      'overall_cited_correctness_ci95',
    ]);
    expect(check(scoreReportValidator, { ...report, retrieval: { 'recall@5': 0.1 } }).fields).toEqual([
      'retrieval["recall@20"]',
      'retrieval["ndcg@10"]',
    ]);
    expect(check(scoreReportValidator, { ...report, premise_id_rate: 1 }).fields).toEqual(['premise_refused_n']);
    expect(check(scoreReportValidator, { ...report, tokens_per_task: 3 }).fields).toEqual(['tokens_total']);
  });

  it('wants who/split/version in submission scores and leaderboard entries', () => {
    const full = { ...report, system_name: 'bm25', split: 'full', dataset_version: 'v1.0' };
    expect(check(submissionScoresValidator, full).ok).toBe(true);
    expect(check(submissionScoresValidator, report).fields).toEqual(['system_name', 'split', 'dataset_version']);
    expect(check(leaderboardValidator, { entries: [full, { ...full, split: 'test' }] }).fields).toEqual([
      'entries[1].split',
    ]);
  });

  it('checks submission metadata', () => {
    const m = { system_name: 'bm25', description: '', split: 'full', dataset_version: 'v1.0', questions_sha256: SHA };
    expect(check(submissionMetadataValidator, m).ok).toBe(true);
    expect(check(submissionMetadataValidator, { ...m, questions_sha256: 'abc' }).fields).toEqual(['questions_sha256']);
  });

  it('checks the manifest, including n_tasks = sum of by_type', () => {
    const m = {
      version: 'v1.0',
      splits: { dev: { n_tasks: 3, by_type: { single_hop: 1, unanswerable: 2 }, questions_sha256: SHA } },
    };
    expect(check(manifestValidator, m).ok).toBe(true);
    const wrongSum = { ...m, splits: { dev: { ...m.splits.dev, n_tasks: 4 } } };
    expect(check(manifestValidator, wrongSum).fields).toEqual(['splits.dev.n_tasks']);
    expect(check(manifestValidator, { ...m, splits: { test: m.splits.dev } }).fields).toEqual(['splits.test']);
    expect(check(manifestValidator, { ...m, splits: {} }).fields).toEqual(['splits']);
  });

  it('checks a judge profile', () => {
    const profile = {
      judge_model: 'm',
      judge_prompt_version: 'v2',
      system: 's',
      gate_max_citations: 3,
      judge_error_abort_ratio: 0.02,
      prompts: { answer: 'A {answer}', aggregation: 'B {answer}', premise_id: 'C {answer}' },
      bootstrap: { iterations: 1000, seed: 20260705, percentiles: [2.5, 97.5] },
    };
    expect(check(judgeProfileValidator, profile).ok).toBe(true);
    expect(
      check(judgeProfileValidator, { ...profile, prompts: { ...profile.prompts, answer: 'no placeholder' } }).fields,
    ).toEqual(['prompts.answer']);
    expect(
      check(judgeProfileValidator, { ...profile, bootstrap: { ...profile.bootstrap, percentiles: [97.5, 2.5] } })
        .fields,
    ).toEqual(['bootstrap.percentiles']);
    expect(check(judgeProfileValidator, { ...profile, gate_max_citations: 0 }).fields).toEqual(['gate_max_citations']);
  });
});

describe('releaseDescriptorValidator', () => {
  const d = {
    id: 'sample',
    title: 'Sample',
    dataset_version: 'v1.0',
    splits: { full: { questions: 'full/questions.jsonl', tasks: 'full/tasks.jsonl' } },
    manifest: 'manifest.json',
    files: { docs: 'corpus/docs.parquet', rejected: 'build/rejected.jsonl' },
    submissions: ['bm25-reference'],
    indexes: { bm25: 'index/bm25.bin' },
    source_url_template: 'https://example.org/docs/{doc_id}.pdf',
    sha256: { 'corpus/docs.parquet': SHA },
  };
  it('accepts a valid descriptor', () => {
    expect(check(releaseDescriptorValidator, d).issues).toEqual([]);
  });
  it('rejects paths that leave the release and unknown file kinds', () => {
    expect(check(releaseDescriptorValidator, { ...d, manifest: '../manifest.json' }).fields).toEqual(['manifest']);
    expect(check(releaseDescriptorValidator, { ...d, files: { docs: '/etc/passwd' } }).fields).toEqual(['files.docs']);
    expect(check(releaseDescriptorValidator, { ...d, files: { docs: 'https://evil/x' } }).fields).toEqual([
      'files.docs',
    ]);
    expect(check(releaseDescriptorValidator, { ...d, files: { tasks: 'x' } }).fields).toEqual(['files.tasks']);
    expect(check(releaseDescriptorValidator, { ...d, submissions: ['Bad Slug'] }).fields).toEqual(['submissions[0]']);
    expect(check(releaseDescriptorValidator, { ...d, source_url_template: 'https://x/' }).fields).toEqual([
      'source_url_template',
    ]);
  });
});
