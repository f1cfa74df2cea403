/** `npm run cli -- source-check`: can the product read this Hugging Face source, and at what cost. */
import { parseArgs, refuseUnknownSwitches, UsageError, usageExit } from '../args.ts';
import { SourceError } from '../../core/source-docs/http.ts';
import { checkSource, sourceCheckLines } from '../../core/source-docs/source-check.ts';
import type { HfSourceSettings } from '../../core/source-docs/settings.ts';
import { HUB_OPTIONS_HELP, hubConnection, hubSettings, progressLines, tokenOption } from '../source-options.ts';

const USAGE = `usage: npm run cli -- source-check [options]

Reads the shard list of the Hugging Face source and a handful of footers, and prints what the
product depends on: shard count and sizes, the text columns' types, codecs and encodings
against the schema it reads (doc_id, file_name, file_type, online_url, text_content), whether
doc ids are sorted across shards (which lookup applies), row-group sizes, and the estimated
requests and bytes of a first document and of the v1.0 audit, with the Hub's rate-limit
windows that implies. Run it once online before relying on a source.

${HUB_OPTIONS_HELP}
  --sample N         footers to read, spread over the shard list (default 5, at most 50)
  --json             print the report as one JSON object

Exit: 0 the product can read the source, 1 it cannot (the reason is printed: among them a token
needed or refused, a rate limit too long to wait out), 2 wrong usage.
`;

export async function run(args: string[]): Promise<number> {
  let settings: HfSourceSettings;
  let sample: number;
  let json: boolean;
  let token: string | undefined;
  try {
    const parsed = parseArgs(args, ['hf-endpoint', 'dataset', 'revision', 'hf-token-env', 'sample']);
    if (parsed.switches.has('help')) {
      process.stdout.write(USAGE);
      return 0;
    }
    refuseUnknownSwitches(parsed.switches, ['json']);
    if (parsed.positional.length > 0) throw new UsageError(`unexpected argument ${parsed.positional[0]}`);
    settings = hubSettings(parsed);
    token = tokenOption(parsed)?.token;
    const raw = parsed.flags.get('sample') ?? '5';
    sample = Number(raw);
    if (!/^\d+$/.test(raw) || sample < 1 || sample > 50)
      throw new UsageError(`--sample must be a whole number from 1 to 50, got ${JSON.stringify(raw)}`);
    json = parsed.switches.has('json');
  } catch (e) {
    return usageExit(e, USAGE);
  }
  try {
    const report = await checkSource({
      settings,
      fetch: (u, i) => fetch(u, i),
      sample,
      onProgress: progressLines(),
      ...hubConnection(token ? { token } : {}),
    });
    process.stdout.write(json ? `${JSON.stringify(report)}\n` : `${sourceCheckLines(report).join('\n')}\n`);
    return report.problems.length ? 1 : 0;
  } catch (e) {
    if (e instanceof SourceError) {
      process.stdout.write(`CANNOT READ ${settings.dataset} at ${settings.revision}: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}
