/**
 * `npm run bench` (= `bench all`): every benchmark, printing figures. `bench retrieval` is the
 * Node part; the browser parts are Playwright scripts under test/bench/.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs, UsageError, refuseUnknownSwitches, usageExit } from '../args.ts';
import { runRetrievalBench } from '../bench/retrieval-bench.ts';
import { ensureBuild } from '../ensure-build.ts';

const BROWSER_BENCHES: ReadonlyArray<[string, string[]]> = [
  ['search (Chromium, full-scale synthetic indexes)', ['test/bench/search.bench.ts']],
  ['explorer (Chromium, navigation to tasks table and task detail)', ['test/bench/explorer.bench.ts']],
  ['scoring (Chromium, 1,038 predictions)', ['test/bench/score.bench.ts']],
  [
    'delivery (Chromium: first views, embeds, task page, beside the figures recorded at the last landed build)',
    ['test/bench/delivery.bench.ts'],
  ],
  ['map (Node: UMAP against PCA; Chromium: the v1.0 Map page cold and cached)', ['test/bench/map.bench.ts']],
];

const SOURCE_BENCH = 'test/bench/source-docs.bench.ts';

const USAGE = `usage: npm run cli -- bench all|retrieval|source [--scale full|small] [--out dir]

all: the retrieval bench below, then the browser benches (search, explorer, scoring, delivery, map) in
Chromium, on a build of the site (made first when the sources changed), then the source-documents
bench.
source: only the source-documents bench: requests and bytes per document lookup over a local
imitation of the Hugging Face Hub, cold and warm, the estimated cost of the v1.0 locator, the
lookups at the real scale, and the v1.0 audit batch under a rate window like the Hub's.

Builds BM25 and dense indexes over a deterministic synthetic corpus of the v1.0 shape
(full: 83,810 docs / 159,564 chunks / 1,000 queries; small: a tenth), writes the index files,
queries and query vectors to --out (default .bench/retrieval) for the browser bench, and
prints build time, sizes, load time and query p50/p95 against naive baselines.
Full scale takes about 3 minutes and ~2 GB of memory.
`;

/** Reported apart from the retrieval benches: it measures the network, not the CPU. */
function runSourceBench(): number {
  process.stdout.write('\n== source documents (mock Hugging Face Hub, Node) ==\n');
  return spawnSync('npx', ['tsx', SOURCE_BENCH], { stdio: 'inherit' }).status === 0 ? 0 : 1;
}

export async function run(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  try {
    const parsed = parseArgs(args, ['scale', 'out']);
    const [suite, ...extra] = parsed.positional;
    if ((suite !== 'retrieval' && suite !== 'all' && suite !== 'source') || extra.length > 0)
      throw new UsageError(
        suite ? `unknown bench: ${[suite, ...extra].join(' ')}` : 'which bench? (all, retrieval, source)',
      );
    refuseUnknownSwitches(parsed.switches);
    const scale = parsed.flags.get('scale') ?? 'full';
    if (scale !== 'full' && scale !== 'small') throw new UsageError(`--scale must be full or small, got ${scale}`);
    const outDir = parsed.flags.get('out') ?? '.bench/retrieval';
    if (suite === 'source') return runSourceBench();
    runRetrievalBench({ scale, outDir, log: (line) => process.stdout.write(`${line}\n`) });
    if (suite === 'retrieval') return 0;
    await ensureBuild((line) => process.stdout.write(`${line}\n`));
    let failed = 0;
    for (const [title, script] of BROWSER_BENCHES) {
      process.stdout.write(`\n== ${title} ==\n`);
      const args = script[0] === 'test/bench/search.bench.ts' ? [...script, '--dir', outDir] : script;
      const result = spawnSync('npx', ['tsx', ...args], { stdio: 'inherit' });
      if (result.status !== 0) failed++;
    }
    if (runSourceBench() !== 0) failed++;
    return failed === 0 ? 0 : 1;
  } catch (e) {
    return usageExit(e, USAGE);
  }
}
