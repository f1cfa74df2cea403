/** `npm run cli -- bench retrieval [--scale full|small] [--out dir]`: retrieval figures. */
import { parseArgs, UsageError } from '../args.ts';
import { runRetrievalBench } from '../bench/retrieval-bench.ts';

const USAGE = `usage: npm run cli -- bench retrieval [--scale full|small] [--out dir]

Builds BM25 and dense indexes over a deterministic synthetic corpus of the v1.0 shape
(full: 83,810 docs / 159,564 chunks / 1,000 queries; small: a tenth), writes the index files,
queries and query vectors to --out (default .bench/retrieval) for the browser bench, and
prints build time, sizes, load time and query p50/p95 against naive baselines.
Full scale takes about 3 minutes and ~2 GB of memory.
`;

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  try {
    const parsed = parseArgs(args, ['scale', 'out']);
    const [suite, ...extra] = parsed.positional;
    if (suite !== 'retrieval' || extra.length > 0)
      throw new UsageError(suite ? `unknown bench: ${[suite, ...extra].join(' ')}` : 'which bench? (retrieval)');
    if (parsed.switches.size > 0) throw new UsageError(`unknown option --${[...parsed.switches][0]}`);
    const scale = parsed.flags.get('scale') ?? 'full';
    if (scale !== 'full' && scale !== 'small') throw new UsageError(`--scale must be full or small, got ${scale}`);
    runRetrievalBench({
      scale,
      outDir: parsed.flags.get('out') ?? '.bench/retrieval',
      log: (line) => process.stdout.write(`${line}\n`),
    });
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
  }
}
