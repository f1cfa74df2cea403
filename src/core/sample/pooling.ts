import type { Candidate, PoolEntry, PoolJudgement } from '../release/types.ts';
import type { PipelineContext } from './context.ts';
import type { DraftSpec } from './drafting.ts';
import { factKey } from './facts.ts';

/** docs/benchmark-spec.md 3: pooling takes the top 20 of each retriever. */
export const POOL_DEPTH = 20;
/** The v1.0 pool judge read 2,500 chars of each doc (spec 6). */
export const JUDGE_EXCERPT = 2500;
/** Stability re-judge with a shorter excerpt; the pool is unstable when most supports vanish. */
export const STABILITY_EXCERPT = 1500;
export const MAX_SUPPORTS = 30;

export interface PoolOutcome {
  entries: PoolEntry[];
  gold: string[];
  /** Set when the task is dropped: source_not_supportive | unstable_pool. */
  dropped?: string;
  detail?: string;
}

/**
 * Pools a verified task and judges every pooled doc. The deterministic judge knows which doc
 * states which fact, but like the LLM judge it only reads an excerpt: a fact written past the
 * excerpt does not count as support.
 */
export function poolTask(ctx: PipelineContext, candidate: Candidate, spec: DraftSpec): PoolOutcome {
  const from = new Map<string, string[]>();
  const add = (id: string, source: string) => {
    const list = from.get(id) ?? [];
    if (!list.includes(source)) list.push(source);
    from.set(id, list);
  };
  for (const r of ctx.retrievers) for (const id of r.search(candidate.question, POOL_DEPTH)) add(id, r.name);
  for (const id of candidate.source_doc_ids) add(id, 'source');
  for (const id of candidate.provenance.candidate_doc_ids ?? []) add(id, 'alias');

  const facts = taskFacts(ctx, candidate, spec);
  const judge = (docId: string, excerpt: number): PoolJudgement => {
    const doc = ctx.docById.get(docId);
    if (!doc) return 'irrelevant';
    const head = doc.text.slice(0, excerpt);
    let partial = false;
    for (const key of facts) {
      const surface = doc.states.get(key);
      if (surface !== undefined) {
        if (head.includes(surface)) return 'supports';
        partial = true;
      }
    }
    if (spec.events.some((e) => doc.mentions.has(e))) partial = true;
    return partial ? 'partial' : 'irrelevant';
  };
  const ids = [...from.keys()].sort();
  const entries: PoolEntry[] = ids.map((id) => ({
    task_id: candidate.task_id,
    doc_id: id,
    judgement: judge(id, JUDGE_EXCERPT),
    from: from.get(id)!,
  }));
  const gold = entries.filter((e) => e.judgement === 'supports').map((e) => e.doc_id);
  const unsupported = candidate.source_doc_ids.filter((id) => !gold.includes(id));
  if (unsupported.length > 0) {
    return {
      entries,
      gold,
      dropped: 'source_not_supportive',
      detail: `the pool judge, reading the first ${JUDGE_EXCERPT} chars, does not find the fact in source doc(s) ${unsupported.join(', ')}`,
    };
  }
  const stable = gold.filter((id) => judge(id, STABILITY_EXCERPT) === 'supports');
  if (gold.length > MAX_SUPPORTS || stable.length * 2 < gold.length) {
    return {
      entries,
      gold,
      dropped: 'unstable_pool',
      detail: `${gold.length} supports at ${JUDGE_EXCERPT} chars, ${stable.length} at ${STABILITY_EXCERPT} chars (max ${MAX_SUPPORTS} supports, at least half must hold)`,
    };
  }
  return { entries, gold };
}

/** The facts whose statement makes a doc supportive, per task type. */
function taskFacts(ctx: PipelineContext, candidate: Candidate, spec: DraftSpec): string[] {
  const w = ctx.world;
  switch (candidate.type) {
    case 'single_hop': {
      const attr = spec.attrKey?.split('.')[1];
      const e = spec.events[0] ? w.eventById.get(spec.events[0]) : undefined;
      return e && attr ? [factKey(e, attr)] : [];
    }
    case 'timeline':
      return spec.events.map((id) => `${id}.date`);
    default:
      return spec.itemFacts ?? [];
  }
}
