import { serializeVerdictsJson } from '../judge/cache.ts';
import { writeJsonl } from '../release/jsonl.ts';
import type { Prediction, SubmissionMetadata, Task } from '../release/types.ts';
import { parsePredictions } from '../scoring/predictions.ts';
import { scoreSubmission, type ScoringOutcome } from '../scoring/score.ts';
import type { Gauntlet } from './gauntlet.ts';
import type { Retriever } from './pool-retriever.ts';
import type { Reader } from './reader.ts';
import { sampleJudgeProfile } from './judge-profile.ts';
import { sampleJudge } from './sample-judge.ts';

/** The SDK's canonical refusal (docs/benchmark-spec.md 1.5). */
export const REFUSAL = 'The corpus does not contain enough information to answer this question.';

export interface ReferenceSubmission {
  slug: string;
  metadata: SubmissionMetadata;
  predictions: Prediction[];
}

export function slugOf(systemName: string): string {
  return systemName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

interface Systems {
  retriever: Retriever;
  reader: Reader;
  gauntlet: Gauntlet;
  docText: (id: string) => string;
}

/**
 * Reference systems of the sample (no LLM): a BM25 reader answering from its top document, a
 * closed-book control answering from base rates, and a control that always refuses.
 */
export function referenceSubmissions(
  tasks: Task[],
  questionsSha256: string,
  datasetVersion: string,
  s: Systems,
): ReferenceSubmission[] {
  const meta = (system_name: string, description: string): SubmissionMetadata => ({
    system_name,
    description,
    split: 'full',
    dataset_version: datasetVersion,
    questions_sha256: questionsSha256,
  });
  const bm25: Prediction[] = tasks.map((t) => {
    const retrieved = s.retriever.search(t.question, 20);
    const top = retrieved[0];
    const answer = top ? s.reader.read(t.question, [s.docText(top)]) : '';
    return answer
      ? { task_id: t.task_id, answer, citations: [top!], retrieved }
      : { task_id: t.task_id, answer: REFUSAL, citations: [], retrieved };
  });
  const closedBook: Prediction[] = tasks.map((t) => ({
    task_id: t.task_id,
    answer: s.gauntlet.closedBookGuess(t.question) || REFUSAL,
    citations: [],
    retrieved: [],
  }));
  const refuse: Prediction[] = tasks.map((t) => ({
    task_id: t.task_id,
    answer: REFUSAL,
    citations: [],
    retrieved: [],
  }));
  const systems: Array<[string, string, Prediction[]]> = [
    [
      'bm25-top-doc sample',
      'BM25 over chunks (k1 1.5, b 0.75), top 20 docs retrieved; a deterministic extractive reader answers from the top document only, or refuses when it finds no span of the expected kind.',
      bm25,
    ],
    [
      'closed-book sample control',
      'No retrieval: answers every question with the commonest answer of the expected kind in the sample world (base rates only).',
      closedBook,
    ],
    ['always-refuse sample control', 'No retrieval: gives the canonical refusal for every task.', refuse],
  ];
  return systems.map(([name, description, predictions]) => ({
    slug: slugOf(name),
    metadata: meta(name, description),
    predictions,
  }));
}

export interface ScoredReferences {
  submissions: Array<{ slug: string; scoresJson: string }>;
  /** leaderboard.json: every submission's report, best overall_cited_correctness first. */
  leaderboard: string;
  /** Every reply of the sample judge, as a verdicts.json map. */
  judgeCache: string;
}

/** Indents a json.dumps(indent=2) text to sit at `depth` levels inside another one. */
function nest(json: string, depth: number): string {
  const pad = ' '.repeat(2 * depth);
  return json
    .split('\n')
    .map((line) => `${pad}${line}`)
    .join('\n');
}

/** Scores each reference submission with the real scorer and the sample judge. */
export async function scoreReferenceSubmissions(
  tasks: Task[],
  submissions: ReferenceSubmission[],
): Promise<ScoredReferences> {
  const profile = sampleJudgeProfile();
  const replies = new Map<string, string>();
  const scored: Array<{ slug: string; outcome: ScoringOutcome }> = [];
  for (const s of submissions) {
    const predictions = parsePredictions(writeJsonl(s.predictions), tasks, { requireAnswerKey: false });
    if (!predictions.ok)
      throw new Error(`sample submission ${s.slug} is invalid: ${predictions.issues[0]?.message ?? ''}`);
    const answers = new Map([...predictions.byTaskId].map(([id, p]) => [id, p.answer]));
    const outcome = await scoreSubmission({
      tasks,
      predictions,
      profile,
      judge: sampleJudge(tasks, answers, replies),
      concurrency: 1,
      extras: {
        system_name: s.metadata.system_name,
        split: s.metadata.split,
        dataset_version: s.metadata.dataset_version,
      },
    });
    scored.push({ slug: s.slug, outcome });
  }
  const ranked = [...scored].sort(
    (a, b) => b.outcome.report.overall_cited_correctness - a.outcome.report.overall_cited_correctness,
  );
  const entries = ranked.map((s) => nest(s.outcome.scoresJson, 2)).join(',\n');
  return {
    submissions: scored.map((s) => ({ slug: s.slug, scoresJson: s.outcome.scoresJson })),
    leaderboard: entries ? `{\n  "entries": [\n${entries}\n  ]\n}` : '{\n  "entries": []\n}',
    judgeCache: serializeVerdictsJson(replies),
  };
}
