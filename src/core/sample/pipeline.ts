import type {
  Candidate,
  Chunk,
  EntityIndex,
  PoolDropped,
  PoolEntry,
  Rejected,
  RejectionDetail,
  Task,
  TaskType,
} from '../release/types.ts';
import { TASK_TYPES } from '../release/types.ts';
import { chunkCorpus } from './chunking.ts';
import type { PipelineContext } from './context.ts';
import { ADJUDICATOR_MODEL, POOL_JUDGE_MODEL } from './context.ts';
import { buildCorpus, type SampleDoc } from './corpus.ts';
import { Drafter, type Draft } from './drafting.ts';
import { buildEntityIndex } from './entity-index.ts';
import { Gauntlet } from './gauntlet.ts';
import { bm25PoolRetriever, type Retriever } from './pool-retriever.ts';
import { poolTask } from './pooling.ts';
import { Prng } from './prng.ts';
import { Reader } from './reader.ts';
import type { World } from './world.ts';
import { buildWorld, fullName, nameVariants } from './world.ts';

/** Shipped tasks per type (the quota loop drafts until each is met). */
export const TASK_TARGETS: Record<TaskType, number> = {
  single_hop: 90,
  aggregation: 20,
  timeline: 10,
  dossier: 5,
  unanswerable: 10,
  false_premise: 15,
};
export const N_TARGET_PEOPLE = 15;
export const DEV_SUBSET_SHARE = 0.16;
export const DEV_FALSE_PREMISE = 6;
export const MAX_DEV_UNANSWERABLE = 150;

export interface FunnelCounts {
  candidates: number;
  rejected: Record<string, number>;
  verified: number;
  dropped: Record<string, number>;
  shipped: number;
}

export interface SamplePipelineResult {
  seed: number;
  world: World;
  docs: SampleDoc[];
  chunks: Chunk[];
  entities: EntityIndex;
  targets: EntityIndex;
  candidates: Candidate[];
  verified: Candidate[];
  pooled: Task[];
  rejected: Rejected[];
  details: RejectionDetail[];
  dropped: PoolDropped[];
  pool: PoolEntry[];
  full: Task[];
  dev: Task[];
  funnel: FunnelCounts;
  /** Type of every candidate, for per-type funnel statistics. */
  drafts: Draft[];
  gauntlet: Gauntlet;
  gauntletReader: Reader;
  /** The first pool retriever (BM25), which also serves the reference submission and absence checks. */
  retriever: Retriever;
  /** Names of every pool retriever, in pooling order. */
  poolRetrievers: string[];
}

export interface PipelineOptions {
  /** Replace the pool retrievers (e.g. the real BM25/dense/hybrid of src/core/retrieval). */
  retrievers?: (chunks: Chunk[]) => Retriever[];
}

export function runSamplePipeline(seed: number, options: PipelineOptions = {}): SamplePipelineResult {
  const world = buildWorld(Prng.derive(seed, 'world'));
  const docs = buildCorpus(world, seed);
  const docById = new Map(docs.map((d) => [d.doc_id, d]));
  const chunks = chunkCorpus(docs);
  const entities = buildEntityIndex(docs);
  const targets = buildTargets(world, docs);
  const statedIn = new Map<string, string[]>();
  for (const d of docs) {
    if (d.quality === 'garbage') continue;
    for (const key of d.states.keys()) statedIn.set(key, [...(statedIn.get(key) ?? []), d.doc_id]);
  }
  const retrievers = options.retrievers?.(chunks) ?? [bm25PoolRetriever(chunks)];
  const ctx: PipelineContext = {
    world,
    docs,
    docById,
    statedIn,
    entities,
    targets,
    retrievers,
    reader: new Reader(world),
    boilerplateLines: boilerplateLines(docs),
  };
  const drafter = new Drafter(ctx, Prng.derive(seed, 'drafting'));
  const gauntlet = new Gauntlet(ctx);

  const candidates: Candidate[] = [];
  const drafts: Draft[] = [];
  const verified: Candidate[] = [];
  const pooled: Task[] = [];
  const rejected: Rejected[] = [];
  const details: RejectionDetail[] = [];
  const dropped: PoolDropped[] = [];
  const pool: PoolEntry[] = [];
  const shipped: Record<string, number> = {};
  const seen = new Set<string>();
  const misses: Record<string, number> = {};
  const open = () => TASK_TYPES.filter((t) => (shipped[t] ?? 0) < TASK_TARGETS[t] && (misses[t] ?? 0) < 500);
  for (let round = 0; open().length > 0 && round < 20_000; round++) {
    for (const type of open()) {
      const draft = drafter.draft(type);
      if (!draft || seen.has(draft.candidate.question)) {
        misses[type] = (misses[type] ?? 0) + 1;
        continue;
      }
      seen.add(draft.candidate.question);
      candidates.push(draft.candidate);
      drafts.push(draft);
      const failure = gauntlet.check(draft);
      if (failure) {
        rejected.push({ task_id: draft.candidate.task_id, type, reason: failure.reason });
        details.push({
          task_id: draft.candidate.task_id,
          stage: failure.stage,
          reason: failure.reason,
          saw: failure.saw,
          why: failure.why,
        });
        continue;
      }
      const ok: Candidate = {
        ...draft.candidate,
        provenance: { ...draft.candidate.provenance, verified: true, adjudicator_model: ADJUDICATOR_MODEL },
      };
      verified.push(ok);
      if (type === 'unanswerable' || type === 'false_premise') {
        pooled.push(toTask(ok, []));
        shipped[type] = (shipped[type] ?? 0) + 1;
        continue;
      }
      const outcome = poolTask(ctx, ok, draft.spec);
      pool.push(...outcome.entries);
      if (outcome.dropped) {
        dropped.push({ task_id: ok.task_id, reason: outcome.dropped });
        details.push({
          task_id: ok.task_id,
          stage: 'pool',
          reason: `pool:${outcome.dropped}`,
          saw: `pool of ${outcome.entries.length} docs`,
          why: outcome.detail ?? outcome.dropped,
        });
        continue;
      }
      ok.provenance = { ...ok.provenance, pool_size: outcome.entries.length, pool_judge_model: POOL_JUDGE_MODEL };
      pooled.push(toTask(ok, outcome.gold));
      shipped[type] = (shipped[type] ?? 0) + 1;
    }
  }

  const { full, dev } = finalizeSplits(pooled, docs, seed);
  const funnel: FunnelCounts = {
    candidates: candidates.length,
    rejected: countBy(rejected.map((r) => r.reason.split(':')[0]!)),
    verified: verified.length,
    dropped: countBy(dropped.map((d) => d.reason)),
    shipped: full.length,
  };
  return {
    seed,
    world,
    docs,
    chunks,
    entities,
    targets,
    candidates,
    verified,
    pooled,
    rejected,
    details,
    dropped,
    pool,
    full,
    dev,
    funnel,
    drafts,
    gauntlet,
    gauntletReader: ctx.reader,
    retriever: retrievers[0]!,
    poolRetrievers: retrievers.map((r) => r.name),
  };
}

function toTask(c: Candidate, gold: string[]): Task {
  return {
    task_id: c.task_id,
    type: c.type,
    answer: c.answer,
    items: c.items,
    source_doc_ids: c.source_doc_ids,
    provenance: c.provenance,
    question: c.question,
    ...(c.false_element !== undefined ? { false_element: c.false_element } : {}),
    gold_docs: [...gold].sort(),
  };
}

/**
 * As the benchmark's finalize: shuffle with seed+6, false_premise appended at the end; dev =
 * tasks whose source docs all lie in a seeded subset of clean docs, topped up with unanswerable
 * tasks, plus a few false_premise tasks at the end.
 */
export function finalizeSplits(pooled: Task[], docs: SampleDoc[], seed: number): { full: Task[]; dev: Task[] } {
  const rng = Prng.derive(seed + 6, 'finalize');
  const fp = pooled.filter((t) => t.type === 'false_premise');
  const full = [...rng.shuffle(pooled.filter((t) => t.type !== 'false_premise')), ...fp];
  const clean = docs.filter((d) => d.quality === 'clean').map((d) => d.doc_id);
  const subset = new Set(rng.sample(clean, Math.round(clean.length * DEV_SUBSET_SHARE)));
  let unanswerable = 0;
  const devIds = new Set<string>();
  for (const t of full) {
    if (t.type === 'false_premise') continue;
    if (t.type === 'unanswerable') {
      if (unanswerable++ < MAX_DEV_UNANSWERABLE) devIds.add(t.task_id);
    } else if (t.source_doc_ids.length > 0 && t.source_doc_ids.every((id) => subset.has(id))) devIds.add(t.task_id);
  }
  for (const t of rng.sample(fp, DEV_FALSE_PREMISE)) devIds.add(t.task_id);
  const dev = [
    ...full.filter((t) => t.type !== 'false_premise' && devIds.has(t.task_id)),
    ...fp.filter((t) => devIds.has(t.task_id)),
  ];
  return { full, dev };
}

/** targets.json: the most documented people, with every variant of their name the corpus uses. */
function buildTargets(world: World, docs: SampleDoc[]): EntityIndex {
  const live = docs.filter((d) => d.quality !== 'garbage');
  const ranked = world.people
    .map((p) => ({ p, n: live.filter((d) => d.people.has(p.id)).length }))
    .sort((a, b) => b.n - a.n || (a.p.id < b.p.id ? -1 : 1))
    .filter(({ p }) => !['pilot', 'judge'].includes(p.role))
    .slice(0, N_TARGET_PEOPLE);
  const out: EntityIndex = {};
  for (const { p } of ranked.sort((a, b) => (fullName(a.p) < fullName(b.p) ? -1 : 1))) {
    const variants = nameVariants(p).filter((v) => v.includes(' '));
    const hits = live.filter((d) => variants.some((v) => d.text.includes(v)));
    out[fullName(p).toLowerCase()] = {
      aliases: variants.filter((v) => hits.some((d) => d.text.includes(v))).sort(),
      doc_ids: hits.map((d) => d.doc_id).sort(),
    };
  }
  return out;
}

/** Lines of >= 8 words that recur verbatim in at least 40 docs. */
function boilerplateLines(docs: SampleDoc[]): string[] {
  const counts = new Map<string, number>();
  for (const d of docs) {
    if (d.quality === 'garbage') continue;
    for (const line of new Set(d.text.split('\n').map((l) => l.trim()))) {
      if (line.split(/\s+/).length >= 8) counts.set(line, (counts.get(line) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .filter(([, n]) => n >= 40)
    .map(([l]) => l)
    .sort();
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
