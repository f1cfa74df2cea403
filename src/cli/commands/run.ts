/** `npm run cli -- run <release-folder> --method ... --out <file>`: a retriever over every task. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SplitName } from '../../core/release/types.ts';
import { isSearchMethod, SearchSession, SEARCH_METHODS, type EvalReport } from '../../core/search/index.ts';
import { parseArgs, UsageError, refuseUnknownSwitches, usageExit } from '../args.ts';
import { FolderSource } from '../../adapters/node/folder-source.ts';
import { DEFAULT_EMBEDDINGS_BASE, nodeEmbedderFor } from '../index-build/node-embedder.ts';

const USAGE = `usage: npm run cli -- run <release-folder> --method bm25|dense|hybrid --out <file>
                        [--k 20] [--split full|dev] [--format trec|predictions]

Ranks documents for every task's question of the split with the release's indexes (see
build-index) and writes either a TREC run ("task_id Q0 doc_id rank score ebx-<method>", the
default) or predictions.jsonl lines whose "retrieved" lists hold the ranking (answer "",
citations []; at most 20 ids). Prints the retrieval diagnostics of the answerable tasks
(recall@5, recall@20, nDCG@10) and trec_eval -c measures.

  --method   bm25, dense or hybrid (RRF k=60 of BM25 and dense, each asked for 2k)
  --k        documents per question (default 20, at most 1000)
  --split    full (default) or dev
  --format   trec (default) or predictions
  --embeddings-base <url>  OpenAI-compatible base for releases whose vectors come from a
             hosted model (default ${DEFAULT_EMBEDDINGS_BASE}; key from OPENAI_API_KEY)

Exit codes: 0 written, 1 failed (no index, no tasks), 2 usage.
`;

export async function run(args: string[]): Promise<number> {
  try {
    const parsed = parseArgs(args, ['method', 'k', 'out', 'split', 'format', 'embeddings-base']);
    if (parsed.switches.has('help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    refuseUnknownSwitches(parsed.switches);
    if (parsed.positional.length !== 1) throw new UsageError('give exactly one release folder');
    const method = parsed.flags.get('method');
    if (!isSearchMethod(method))
      throw new UsageError(`--method must be one of ${SEARCH_METHODS.join(', ')}, got ${method ?? 'nothing'}`);
    const out = parsed.flags.get('out');
    if (!out) throw new UsageError('--out is required');
    const kText = parsed.flags.get('k') ?? '20';
    if (!/^\d{1,4}$/.test(kText) || Number(kText) < 1 || Number(kText) > 1000)
      throw new UsageError(`--k must be an integer from 1 to 1000, got ${kText}`);
    const split = parsed.flags.get('split') ?? 'full';
    if (split !== 'full' && split !== 'dev') throw new UsageError(`--split must be full or dev, got ${split}`);
    const format = parsed.flags.get('format') ?? 'trec';
    if (format !== 'trec' && format !== 'predictions')
      throw new UsageError(`--format must be trec or predictions, got ${format}`);

    const session = await SearchSession.open(new FolderSource(path.resolve(parsed.positional[0]!)), {
      embedderFor: nodeEmbedderFor({
        base: parsed.flags.get('embeddings-base') ?? DEFAULT_EMBEDDINGS_BASE,
        key: process.env['OPENAI_API_KEY'],
      }),
    });
    if (!session.hasMethod(method)) {
      process.stderr.write(
        `run: this release has no ${method === 'bm25' ? 'BM25 index' : 'dense vectors + model manifest'} in release.json "indexes"; run build-index first\n`,
      );
      return 1;
    }
    const started = performance.now();
    const result = await session.evaluate(method, split as SplitName, Number(kText));
    mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    writeFileSync(out, format === 'trec' ? result.trecRun : result.predictions);
    process.stdout.write(summary(result.report, split, (performance.now() - started) / 1000, out));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) return usageExit(e, USAGE);
    if (e instanceof Error) {
      process.stderr.write(`run: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

function summary(r: EvalReport, split: string, secs: number, out: string): string {
  const f = (x: number) => x.toFixed(4);
  const lines = [
    `${r.method} on ${split}: ranked ${r.n + r.excluded} questions in ${secs.toFixed(2)} s -> ${out}`,
    `answerable tasks ${r.n} (${r.excluded} unanswerable/false_premise left out${r.emptyGold ? `, ${r.emptyGold} with empty gold` : ''})`,
    `type              n  recall@5  recall@20  nDCG@10`,
    ...r.perType.map(
      (t) =>
        `${t.type.padEnd(14)} ${String(t.n).padStart(4)}  ${f(t['recall@5'])}    ${f(t['recall@20'])}     ${f(t['ndcg@10'])}`,
    ),
    `${'all'.padEnd(14)} ${String(r.n).padStart(4)}  ${f(r.overall['recall@5'])}    ${f(r.overall['recall@20'])}     ${f(r.overall['ndcg@10'])}`,
    `trec_eval -c (num_q ${r.trecNumQ}): map ${f(r.trec.map)}  recip_rank ${f(r.trec.recip_rank)}  P_5 ${f(r.trec.P_5)}  recall_20 ${f(r.trec.recall_20)}  ndcg_cut_10 ${f(r.trec.ndcg_cut_10)}`,
  ];
  return `${lines.join('\n')}\n`;
}
