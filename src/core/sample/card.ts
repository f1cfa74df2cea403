import type { Task, TaskType } from '../release/types.ts';
import { TASK_TYPES } from '../release/types.ts';
import { groupThousands } from './calendar.ts';
import { CHUNK_STEP, CHUNK_TOKENS } from '../text/chunks.ts';
import { GENERATOR_MODEL, ADJUDICATOR_MODEL, POOL_JUDGE_MODEL } from './context.ts';
import { yearSpan } from './corpus.ts';
import type { SamplePipelineResult } from './pipeline.ts';
import { JUDGE_EXCERPT, MAX_SUPPORTS, POOL_DEPTH, STABILITY_EXCERPT } from './pooling.ts';
import type { ReferenceSubmission } from './submissions.ts';

/** DATASET_CARD.md of the sample release; every figure is computed from the release's data. */
export function datasetCard(r: SamplePipelineResult, submissions: ReferenceSubmission[], version: string): string {
  const n = (x: number) => groupThousands(x);
  const pct = (a: number, b: number) => (b === 0 ? '0.0' : ((100 * a) / b).toFixed(1));
  const count = <T>(xs: T[], key: (x: T) => string) => {
    const m = new Map<string, number>();
    for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
    return m;
  };
  const types = (tasks: Task[]) => count(tasks, (t) => t.type);
  const fullTypes = types(r.full);
  const devTypes = types(r.dev);
  const quality = count(r.docs, (d) => d.quality);
  const kinds = count(r.docs, (d) => d.kind);
  const long = r.docs.filter((d) => d.tokens > CHUNK_TOKENS).length;
  const borderline = r.docs.filter((d) => d.screen.borderline);
  const [y0, y1] = yearSpan(r.world);
  const candTypes = count(r.candidates, (c) => c.type);
  const rejTypes = new Map<string, Map<string, number>>();
  for (const x of r.rejected) {
    const stage = x.reason.split(':')[0]!;
    const m = rejTypes.get(x.type) ?? new Map<string, number>();
    m.set(stage, (m.get(stage) ?? 0) + 1);
    rejTypes.set(x.type, m);
  }
  const dropTypes = count(r.dropped, (d) => r.candidates.find((c) => c.task_id === d.task_id)!.type);
  const adjudication = count(
    r.rejected.filter((x) => x.reason.startsWith('adjudication:')),
    (x) => x.reason.slice('adjudication:'.length),
  );
  const pooled = r.full.filter((t) => t.provenance.pool_size !== undefined);
  const poolSizes = pooled.map((t) => t.provenance.pool_size!).sort((a, b) => a - b);
  const goldSizes = pooled.map((t) => t.gold_docs.length).sort((a, b) => a - b);
  const median = (xs: number[]) => (xs.length === 0 ? 0 : xs[Math.floor((xs.length - 1) / 2)]!);
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  const judgements = count(r.pool, (p) => p.judgement);
  const stages = ['standalone', 'answerability', 'necessity', 'adjudication', 'error'];
  const rows = (m: Map<string, number>, order: readonly string[]) =>
    order.filter((k) => m.has(k)).map((k) => `| ${k} | ${n(m.get(k)!)} |`);
  const typeOrder = TASK_TYPES as readonly TaskType[];

  return (
    [
      `# Epstein Bench sample release (${version})`,
      '',
      '**Everything in this release is fictional.** The people, companies, towns, islands, aircraft and events were invented by a seeded generator (`npm run sample`, seed ' +
        `${r.seed}); any resemblance to real persons or businesses is accidental. The release has the shape of Epstein Bench v1.0 (same files, fields, key order and byte format) so that the explorer and the scorer can be developed and tested without the real corpus, which the benchmark does not publish.`,
      '',
      '## Summary',
      '',
      `- **${n(r.full.length)} tasks** in the full split (dev: ${n(r.dev.length)}), six types, written fact first from the generator's world and verified by a deterministic gauntlet.`,
      `- **Corpus:** ${n(r.docs.length)} documents (${n(r.chunks.length)} chunks) dated ${y0}-${y1}: emails, flight logs and passenger manifests, deposition transcripts, calendars, invoices and wire confirmations, scanned letters and court notices.`,
      `- **World:** ${n(r.world.people.length)} invented people, ${n(r.world.orgs.length)} organisations, ${n(r.world.places.length)} places, ${n(r.world.aircraft.length)} aircraft, ${n(r.world.events.length)} dated events.`,
      `- **Gold:** pooled from the top ${POOL_DEPTH} of each retriever (${r.poolRetrievers.join(', ')}) plus source and alias-index documents, judged supports / partial / irrelevant.`,
      `- **Models:** generator \`${GENERATOR_MODEL}\`, adjudicator \`${ADJUDICATOR_MODEL}\`, pool judge \`${POOL_JUDGE_MODEL}\`: deterministic programs, not LLMs.`,
      '',
      '## Task types',
      '',
      '| type | full | dev |',
      '|---|---|---|',
      ...typeOrder
        .filter((t) => fullTypes.has(t))
        .map((t) => `| ${t} | ${n(fullTypes.get(t)!)} | ${n(devTypes.get(t) ?? 0)} |`),
      `| **total** | **${n(r.full.length)}** | **${n(r.dev.length)}** |`,
      '',
      'The dev split holds the answerable tasks whose source documents all fall inside a seeded subset of the clean documents, topped up with the unanswerable tasks, plus a few false_premise tasks at the end (as the benchmark selects it). false_premise tasks come last in both splits.',
      '',
      '## Corpus',
      '',
      '| quality | docs |',
      '|---|---|',
      ...rows(quality, ['clean', 'degraded', 'garbage']),
      '',
      `Quality screen as the benchmark's: under 200 chars is garbage; garbage ratio g > 0.25 is garbage; dictionary ratio d < 0.45 is degraded; otherwise borderline when |g - 0.15| <= 0.10 or |d - 0.55| <= 0.10, else clean when g <= 0.15 and d >= 0.55. The dictionary is a built-in list of common English words. ${n(borderline.length)} documents were borderline; the LLM readability check on them is replaced by a documented rule (at least 85% of the words look like language and at most 10% of the characters are junk), which called ${n(borderline.filter((d) => d.screen.readable).length)} readable (clean) and ${n(borderline.filter((d) => !d.screen.readable).length)} not (degraded).`,
      '',
      '| document kind | docs |',
      '|---|---|',
      ...[...kinds.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `| ${k} | ${n(v)} |`),
      '',
      `${n(long)} documents (${pct(long, r.docs.length)}%) are longer than ${CHUNK_TOKENS} whitespace tokens. Chunking as the benchmark: ${CHUNK_TOKENS}-token windows with step ${CHUNK_STEP}; garbage documents are not chunked. The entity alias index has ${n(Object.keys(r.entities).length)} names found in at least 3 non-garbage documents; targets.json lists ${n(Object.keys(r.targets).length)} target people.`,
      '',
      '## Verification gauntlet',
      '',
      `${n(r.funnel.candidates)} candidates were drafted (the drafter adds realistic flaws on purpose: deictic wording, wrong or embellished answers, trivial targets, leaked answers, missing scope, lists from a single document). ${n(r.funnel.verified)} passed the gauntlet, ${n(r.dropped.length)} were dropped at pooling, and ${n(r.funnel.shipped)} were shipped: ${n(r.funnel.candidates)} = ${n(r.funnel.shipped)} shipped + ${n(r.rejected.length)} rejected + ${n(r.dropped.length)} dropped.`,
      '',
      '| stage | rejected |',
      '|---|---|',
      ...stages.filter((s) => r.funnel.rejected[s]).map((s) => `| ${s} | ${n(r.funnel.rejected[s]!)} |`),
      ...Object.entries(r.funnel.dropped).map(([k, v]) => `| pooling: ${k} | ${n(v)} |`),
      '',
      'Per type:',
      '',
      `| type | candidates | ${stages.join(' | ')} | dropped | shipped |`,
      `|---|---|${stages.map(() => '---|').join('')}---|---|`,
      ...typeOrder.map((t) => {
        const m = rejTypes.get(t) ?? new Map<string, number>();
        return `| ${t} | ${n(candTypes.get(t) ?? 0)} | ${stages.map((s) => n(m.get(s) ?? 0)).join(' | ')} | ${n(dropTypes.get(t) ?? 0)} | ${n(fullTypes.get(t) ?? 0)} |`;
      }),
      '',
      'Adjudication categories: ' +
        [...adjudication.entries()]
          .sort()
          .map(([k, v]) => `${k} ${n(v)}`)
          .join(', ') +
        '.',
      '',
      'Stages: **standalone** (no deixis such as "this email", names an entity of the corpus, target is not boilerplate); **answerability** (a deterministic extractive reader must recover the answer from the source documents with token-F1 >= 0.10; list items and timeline dates must be stated in their documents); **necessity** (the answer is not in the question and a closed-book guess from base rates does not match it; for multi-document types no single document may suffice); **adjudication** (a judge that knows the world checks the fact, its salience and uniqueness; false_premise tasks pass an absence check on the top-5 BM25 documents and a corpus-wide support check). Every rejection has a human-readable record in `build/rejection-details.jsonl`.',
      '',
      '## Pooled gold',
      '',
      `Pool size per answerable task: median ${median(poolSizes)}, mean ${mean(poolSizes).toFixed(1)}, range ${poolSizes[0] ?? 0}-${poolSizes[poolSizes.length - 1] ?? 0}. Gold documents per task: median ${median(goldSizes)}, mean ${mean(goldSizes).toFixed(1)}. Judgements over all pools: ${['supports', 'partial', 'irrelevant'].map((j) => `${j} ${n(judgements.get(j) ?? 0)}`).join(', ')}. The pool judge reads the first ${n(JUDGE_EXCERPT)} characters of each document, as the v1.0 judges did; a task is dropped as source_not_supportive when a source document is not judged supportive, and as unstable_pool when it has more than ${MAX_SUPPORTS} supports or fewer than half of them survive a re-judgement on ${n(STABILITY_EXCERPT)} characters.`,
      '',
      '## Reference submissions',
      '',
      ...submissions.map(
        (s) => `- \`submissions/${s.slug}/\`: **${s.metadata.system_name}**. ${s.metadata.description}`,
      ),
      '',
      "Their scores are not part of this build yet: they will be computed with the explorer's scorer and this release's judge profile (`judge-profile.json`, judge `sample-judge-1`, prompt version `sample-v1`).",
      '',
      '## Limitations',
      '',
      '- The text is template-generated: far more regular than real scanned records, so retrieval and reading are easier than on the real corpus.',
      "- The gauntlet, pool judge and reference systems are deterministic programs standing in for LLM calls; they reproduce the pipeline's structure and failure modes, not an LLM's judgement.",
      '- Regeneration is byte-for-byte from the seed (`npm run sample`).',
    ].join('\n') + '\n'
  );
}
