import path from 'node:path';
import { parseArgs, UsageError, usageExit } from '../args.ts';
import { DEFAULT_SEED, writeSampleRelease } from '../sample/write-release.ts';

const USAGE = `usage: npm run cli -- sample --out <folder> [--seed <int>]

Generates the embedded sample release (a fictional world, its corpus, tasks, gauntlet logs,
pools, reference submissions and dataset card) into <folder>, byte for byte from the seed.
An existing <folder> is replaced only when it holds a previous sample release.

  --out <folder>  where to write (npm run sample uses static-data/sample)
  --seed <int>    generator seed (default ${DEFAULT_SEED})
  --help          this text
`;

export async function run(args: string[]): Promise<number> {
  try {
    const parsed = parseArgs(args, ['out', 'seed']);
    if (parsed.switches.has('help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (parsed.switches.size > 0 || parsed.positional.length > 0) {
      throw new UsageError(
        `unexpected argument: ${[...parsed.switches]
          .map((s) => `--${s}`)
          .concat(parsed.positional)
          .join(' ')}`,
      );
    }
    const out = parsed.flags.get('out');
    if (!out) throw new UsageError('--out is required');
    const seedText = parsed.flags.get('seed') ?? String(DEFAULT_SEED);
    if (!/^\d{1,10}$/.test(seedText) || Number(seedText) > 0xffffffff)
      throw new UsageError(`--seed must be an integer from 0 to 4294967295, got "${seedText}"`);
    const started = Date.now();
    const result = await writeSampleRelease(path.resolve(out), Number(seedText), (message) =>
      process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}\n`),
    );
    const total = result.files.reduce((s, f) => s + f.bytes, 0);
    const f = result.pipeline.funnel;
    process.stdout.write(
      `wrote ${result.files.length} files (${(total / 1e6).toFixed(2)} MB) to ${result.outDir} in ${(result.millis / 1000).toFixed(1)} s\n` +
        `docs ${result.pipeline.docs.length}, chunks ${result.pipeline.chunks.length}, tasks full ${result.pipeline.full.length} / dev ${result.pipeline.dev.length}\n` +
        `funnel: ${f.candidates} candidates = ${f.shipped} shipped + ${result.pipeline.rejected.length} rejected + ${result.pipeline.dropped.length} dropped\n`,
    );
    return 0;
  } catch (error) {
    return usageExit(error, USAGE);
  }
}
