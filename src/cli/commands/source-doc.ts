/** `npm run cli -- source-doc <doc_id>`: one document of the Hugging Face source, by range reads. */
import { MAX_INPUT_FILE_BYTES, readRegularFileSync } from '../../adapters/node/regular-file.ts';
import { parseArgs, UsageError, refuseUnknownSwitches, usageExit } from '../args.ts';
import { errorMessage } from '../../core/error-message.ts';
import { SourceError } from '../../core/source-docs/http.ts';
import { LocatorError, parseLocator, SOURCE_DOC_ID_RE, type SourceLocator } from '../../core/source-docs/locator.ts';
import { HfSourceDocs } from '../../core/source-docs/lookup.ts';
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

const USAGE = `usage: npm run cli -- source-doc <doc_id> [options]

Reads one document of the Hugging Face source (doc_id, file_name, file_type, online_url,
text_content) by HTTP range reads of the text columns only, and prints its fields.

${SOURCE_OPTIONS_HELP}
  --locator FILE     a source-locate output: go straight to the document's row
  --json             print one JSON object instead of the fields

Exit: 0 printed, 1 the source has no such doc_id or could not be read (a token needed or
refused, a rate limit that would take too long to wait out), 2 wrong usage.
`;

export async function run(args: string[]): Promise<number> {
  let docId: string;
  let source: HfSourceDocs;
  let json: boolean;
  let tokenFrom: string | undefined;
  try {
    const parsed = parseArgs(args, [...SOURCE_VALUED_FLAGS, 'locator']);
    if (parsed.switches.has('help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    refuseUnknownSwitches(parsed.switches, ['json', ...SOURCE_SWITCHES]);
    if (parsed.positional.length !== 1) throw new UsageError('expected one doc_id');
    docId = parsed.positional[0]!;
    if (!SOURCE_DOC_ID_RE.test(docId))
      throw new UsageError(`${JSON.stringify(docId.slice(0, 80))} is not a doc id (like EFTA00432308)`);
    json = parsed.switches.has('json');
    const options = sourceOptions(parsed);
    const { settings, cache } = options;
    tokenFrom = options.tokenFrom;
    let locator: SourceLocator | undefined;
    const locatorFile = parsed.flags.get('locator');
    if (locatorFile) {
      let text: string;
      try {
        text = new TextDecoder().decode(readRegularFileSync(locatorFile, MAX_INPUT_FILE_BYTES));
      } catch (e) {
        throw new UsageError(`cannot read ${locatorFile}: ${errorMessage(e)}`);
      }
      try {
        locator = parseLocator(text, locatorFile);
      } catch (e) {
        if (e instanceof LocatorError) throw new UsageError(e.message);
        throw e;
      }
    }
    source = new HfSourceDocs({ settings, fetch: (u, i) => fetch(u, i), cache, locator, ...hubConnection(options) });
    if (locator && !source.usesLocator)
      process.stderr.write(
        `note: ${locatorFile} was made for ${locator.dataset} at ${locator.revision}, not ${settings.dataset} at ${settings.revision}; not used\n`,
      );
  } catch (e) {
    return usageExit(e, USAGE);
  }

  const { settings } = source;
  try {
    const progress = progressLines();
    const doc = await source.get(docId, (p) =>
      progress(
        `${p.phase} ${p.total > 1 ? `${p.done}/${p.total} ` : ''}(${p.requests} requests, ${p.bytes.toLocaleString('en')} bytes)`,
      ),
    );
    if (!doc) {
      process.stderr.write(
        `${docId} is not in ${settings.dataset} at revision ${settings.revision} (${hostOf(settings.endpoint)}): no row has this doc_id\n`,
      );
      return 1;
    }
    if (json) {
      process.stdout.write(`${JSON.stringify({ ...doc.row, location: doc.location, truncated: doc.truncated })}\n`);
    } else {
      const r = doc.row;
      const field = (name: string, value: string | null) =>
        process.stdout.write(`${name}: ${value === null ? '(null)' : value}\n`);
      field('doc_id', r.doc_id);
      field('file_name', r.file_name);
      field('file_type', r.file_type);
      field('online_url', r.online_url);
      process.stdout.write(
        `source: ${doc.location.shard}, row group ${doc.location.rowGroup}, row ${doc.location.row} (row ${doc.location.shardRow} of the shard)\n`,
      );
      process.stdout.write(
        `text_content: ${r.text_content.length.toLocaleString('en')} characters${doc.truncated ? ' (cut at the limit)' : ''}\n\n`,
      );
      process.stdout.write(`${r.text_content}\n`);
    }
    process.stderr.write(
      `read via ${doc.via}: ${doc.cost.requests} requests, ${doc.cost.bytes.toLocaleString('en')} bytes from ${hostOf(settings.endpoint)}${doc.fileHost ? ` and ${doc.fileHost}` : ''}${tokenFrom ? ` (with the Hugging Face token of ${tokenFrom})` : ''}${rateNote(source.rateStats)}\n`,
    );
    return 0;
  } catch (e) {
    if (e instanceof SourceError) {
      process.stderr.write(`cannot read ${docId}: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
