/**
 * `map <release-folder> [--split S] [--out FILE]`: the map of a split's tasks as the site draws
 * it (the same method, seed and rounding), one JSON line per point then one per region, the same
 * bytes on every run, so that a project site can publish a fixed map. Exit 0 ok, 1 the release
 * is refused, 2 usage.
 */
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { FolderSource } from '../../adapters/node/folder-source.ts';
import { errorMessage } from '../../core/error-message.ts';
import { computeMap } from '../../core/map/layout.ts';
import { mapFileText } from '../../core/map/map-file.ts';
import { loadRelease } from '../../core/release/load.ts';
import { SPLITS, type SplitName } from '../../core/release/types.ts';
import { exitIfRefused } from '../refused.ts';
import { parseArgs, refuseUnknownSwitches, UsageError } from '../args.ts';

const USAGE = `usage: npm run cli -- map <release-folder> [--split full|dev] [--out FILE]

Lays out every task of the split (default: full) by what its question says (TF-IDF, then UMAP,
seeded) and writes one JSON line per point {"id","layer","x","y","region"}, then one per region
{"region","label","count"}, to FILE or stdout. The same release gives the same bytes.

exit codes: 0 ok, 1 the release is refused, 2 usage
`;

export async function run(args: string[]): Promise<number> {
  let folder: string;
  let out: string | undefined;
  let split: SplitName;
  try {
    const { positional, flags, switches } = parseArgs(args, ['out', 'split']);
    if (switches.has('help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    refuseUnknownSwitches(switches);
    if (positional.length !== 1) throw new UsageError('expected one release folder');
    folder = positional[0]!;
    out = flags.get('out');
    const named = flags.get('split') ?? 'full';
    if (!(SPLITS as readonly string[]).includes(named))
      throw new UsageError(`--split must be one of ${SPLITS.join(', ')}, not "${named}"`);
    split = named as SplitName;
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${folder} is not a folder`);
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n\n${USAGE}`);
    return 2;
  }
  try {
    const release = await loadRelease(new FolderSource(folder));
    const questions = release.splits[split]?.questions;
    if (!questions) {
      process.stderr.write(`${folder} has no ${split} split\n`);
      return 1;
    }
    const started = performance.now();
    const map = computeMap(questions.map((q) => ({ id: q.task_id, text: q.question })));
    const text = mapFileText(map);
    if (out) await writeFile(out, text, 'utf8');
    else process.stdout.write(text);
    process.stderr.write(
      `${out ? `wrote ${out}: ` : ''}${map.points.length} tasks in ${map.regions.length} regions ` +
        `(${Math.round(performance.now() - started)} ms)\n`,
    );
    return 0;
  } catch (error) {
    return exitIfRefused(error);
  }
}
