/**
 * `map <release-folder> [--split S] [--layer L] [--out FILE]`: the map of a split's tasks (or of
 * the gauntlet's candidates, or of the corpus's documents) as the site draws
 * it (the same method, seed and rounding), one JSON line per point then one per region, the same
 * bytes on every run, so that a project site can publish a fixed map. Exit 0 ok, 1 the release
 * is refused, 2 usage.
 */
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { FolderSource } from '../../adapters/node/folder-source.ts';
import { errorMessage } from '../../core/error-message.ts';
import { memoryDocs, ParquetDocs } from '../../core/explorer/docs-index.ts';
import { DOC_OPENING, DOC_POINTS } from '../../core/map/doc-layer.ts';
import { computeMap, type MapInput, type MapLayer } from '../../core/map/layout.ts';
import type { LoadedRelease } from '../../core/release/loaded.ts';
import { mapFileText } from '../../core/map/map-file.ts';
import { loadRelease } from '../../core/release/load.ts';
import { SPLITS, type SplitName } from '../../core/release/types.ts';
import { exitIfRefused } from '../refused.ts';
import { parseArgs, refuseUnknownSwitches, UsageError } from '../args.ts';

const USAGE = `usage: npm run cli -- map <release-folder> [--split full|dev] [--layer tasks|candidates|docs] [--out FILE]

Lays out every task of the split (default: full) by what its question says (TF-IDF, then UMAP,
seeded) and writes one JSON line per point {"id","layer","x","y","region"}, then one per region
{"region","label","count"}, to FILE or stdout. The same release gives the same bytes.
--layer candidates lays out the gauntlet's candidates (build/candidates.jsonl) by their questions;
--layer docs the corpus's first ${DOC_POINTS.toLocaleString('en')} documents by their text's first ${DOC_OPENING.toLocaleString('en')} characters.

exit codes: 0 ok, 1 the release is refused, 2 usage
`;

export async function run(args: string[]): Promise<number> {
  let folder: string;
  let out: string | undefined;
  let split: SplitName;
  let layer: Layer;
  try {
    const { positional, flags, switches } = parseArgs(args, ['out', 'split', 'layer']);
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
    const asked = flags.get('layer') ?? 'tasks';
    if (!(LAYERS as readonly string[]).includes(asked))
      throw new UsageError(`--layer must be one of ${LAYERS.join(', ')}, not "${asked}"`);
    layer = asked as Layer;
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${folder} is not a folder`);
  } catch (error) {
    process.stderr.write(`${errorMessage(error)}\n\n${USAGE}`);
    return 2;
  }
  try {
    const release = await loadRelease(new FolderSource(folder));
    const inputs = await inputsOf(release, layer, split);
    if (typeof inputs === 'string') {
      process.stderr.write(`${folder} ${inputs}\n`);
      return 1;
    }
    const started = performance.now();
    const map = computeMap(inputs, { layer: POINT_LAYER[layer] });
    const text = mapFileText(map);
    if (out) await writeFile(out, text, 'utf8');
    else process.stdout.write(text);
    const noun = { tasks: 'task', candidates: 'candidate', docs: 'document' }[layer];
    process.stderr.write(
      `${out ? `wrote ${out}: ` : ''}${map.points.length} ${noun}s in ${map.regions.length} regions ` +
        `(${Math.round(performance.now() - started)} ms)\n`,
    );
    return 0;
  } catch (error) {
    return exitIfRefused(error);
  }
}

const LAYERS = ['tasks', 'candidates', 'docs'] as const;
type Layer = (typeof LAYERS)[number];
const POINT_LAYER: Record<Layer, MapLayer> = { tasks: 'task', candidates: 'candidate', docs: 'doc' };

/** The points of the layer with the text that places them, or why the release has none. */
async function inputsOf(release: LoadedRelease, layer: Layer, split: SplitName): Promise<MapInput[] | string> {
  if (layer === 'candidates') {
    if (!release.candidates) return 'has no build logs (build/candidates.jsonl)';
    return release.candidates.map((c) => ({ id: c.task_id, text: c.question ?? '' }));
  }
  if (layer === 'docs') {
    const parquet = release.parquet.find((p) => p.kind === 'docs');
    const docs = release.docs
      ? memoryDocs(release.docs)
      : parquet && (await ParquetDocs.open(parquet.file, parquet.path));
    const openings = docs ? await docs.openings(DOC_POINTS, DOC_OPENING) : [];
    if (openings.length === 0) return 'has no corpus with text (docs.jsonl or docs.parquet)';
    return openings.map((d) => ({ id: d.doc_id, text: d.text }));
  }
  const questions = release.splits[split]?.questions;
  if (!questions) return `has no ${split} split`;
  return questions.map((q) => ({ id: q.task_id, text: q.question }));
}
