/**
 * `npm run cli -- source-locate <release> --out FILE`: where every document the release refers
 * to lives in the Hugging Face source, as a locator file the release can ship.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { parseArgs, UsageError, refuseUnknownSwitches, usageExit } from '../args.ts';
import { FolderSource } from '../../adapters/node/folder-source.ts';
import { loadRelease, ReleaseRefused } from '../../core/release/load.ts';
import { SourceError } from '../../core/source-docs/http.ts';
import { buildLocator, locatorJson } from '../../core/source-docs/locator.ts';
import { HfSourceDocs } from '../../core/source-docs/lookup.ts';
import { REFERENCE_KINDS, referencedDocIds } from '../../core/source-docs/referenced.ts';
import { hostOf } from '../../core/source-docs/settings.ts';
import {
  hubConnection,
  progressLines,
  rateNote,
  SOURCE_OPTIONS_HELP,
  SOURCE_SWITCHES,
  SOURCE_VALUED_FLAGS,
  sourceOptions,
} from '../source-options.ts';

const USAGE = `usage: npm run cli -- source-locate <release-folder> --out FILE [options]

Collects every doc id the release refers to (gold docs, list items, source, candidate and
absence docs, pool members, submission citations and retrieved lists), finds each one's shard,
row group and row in the Hugging Face source (footers, then the doc_id column of the row groups
whose statistics can hold a wanted id; never the text or media columns), and writes a locator
file (format in the README). Name it in release.json as files.source_locator.

${SOURCE_OPTIONS_HELP}
  --dry-run          count the referenced ids and stop (no network)

Exit: 0 written (ids the source lacks are listed in the file's "missing"), 1 the release or the
source could not be read (a token needed or refused, a rate limit too long to wait out), 2 wrong
usage.
`;

export async function run(args: string[]): Promise<number> {
  let folder: string;
  let out: string | undefined;
  let dryRun: boolean;
  let options: ReturnType<typeof sourceOptions>;
  try {
    const parsed = parseArgs(args, [...SOURCE_VALUED_FLAGS, 'out']);
    if (parsed.switches.has('help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    refuseUnknownSwitches(parsed.switches, ['dry-run', ...SOURCE_SWITCHES]);
    if (parsed.positional.length !== 1) throw new UsageError('expected one release folder');
    folder = parsed.positional[0]!;
    if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${folder} is not a folder`);
    dryRun = parsed.switches.has('dry-run');
    out = parsed.flags.get('out');
    if (!out && !dryRun) throw new UsageError('--out FILE is required');
    options = sourceOptions(parsed);
  } catch (e) {
    return usageExit(e, USAGE);
  }

  let ids: ReturnType<typeof referencedDocIds>;
  try {
    ids = referencedDocIds(await loadRelease(new FolderSource(folder), { deferParquet: false }));
  } catch (e) {
    if (e instanceof ReleaseRefused) {
      process.stderr.write(`cannot read the release ${folder}: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  process.stdout.write(`${ids.all.length.toLocaleString('en')} distinct doc ids referenced:\n`);
  for (const kind of REFERENCE_KINDS)
    if (ids.byKind[kind].size)
      process.stdout.write(`  ${kind.padEnd(10)} ${ids.byKind[kind].size.toLocaleString('en')}\n`);
  if (dryRun) return 0;

  const { settings, cache } = options;
  const source = new HfSourceDocs({
    settings,
    fetch: (u, i) => fetch(u, i),
    cache,
    keepRowGroupIds: false,
    ...hubConnection(options),
  });
  const started = performance.now();
  try {
    const progress = progressLines();
    const result = await source.locate(ids.all, (p) =>
      progress(
        `shards ${p.done}/${p.total}, found ${p.found}/${ids.all.length}, ${p.requests} requests, ${(p.bytes / 1e6).toFixed(1)} MB`,
      ),
    );
    const locator = buildLocator(settings.dataset, settings.revision, result.found, result.missing);
    writeFileSync(out!, locatorJson(locator));
    process.stdout.write(
      `found ${result.found.size.toLocaleString('en')} in ${locator.shards.length} of ${result.shards.length} shards of ${settings.dataset}@${settings.revision} (${hostOf(settings.endpoint)}); ${result.missing.length} missing\n`,
    );
    if (result.missing.length)
      process.stdout.write(
        `  missing: ${result.missing.slice(0, 10).join(', ')}${result.missing.length > 10 ? ', ...' : ''}\n`,
      );
    process.stdout.write(
      `read ${result.cost.requests.toLocaleString('en')} requests, ${result.cost.bytes.toLocaleString('en')} bytes in ${((performance.now() - started) / 1000).toFixed(1)} s${rateNote(source.rateStats)}; wrote ${out}\n`,
    );
    return 0;
  } catch (e) {
    if (e instanceof SourceError) {
      process.stderr.write(`cannot locate the documents: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
