/** The options source-doc and source-locate share: where the Hub is, which dataset, the cache. */
import { FsSourceCache, defaultSourceCacheDir } from '../adapters/node/source-cache-fs.ts';
import { MemorySourceCache, type SourceCache } from '../core/source-docs/cache.ts';
import { SettingsError, settingsFrom, type HfSourceSettings } from '../core/source-docs/settings.ts';
import { UsageError, type ParsedArgs } from './args.ts';

export const SOURCE_VALUED_FLAGS = ['hf-endpoint', 'dataset', 'revision', 'cache'] as const;
export const SOURCE_SWITCHES = ['no-cache'] as const;

export const SOURCE_OPTIONS_HELP = `  --hf-endpoint URL  the Hub (default: $HF_ENDPOINT, else https://huggingface.co)
  --dataset REPO     dataset repository (default aurora2424/Epstein-Files)
  --revision REV     branch, tag or commit (default main)
  --cache DIR        keep footers, doc_id lists and locations here
                     (default: $XDG_CACHE_HOME or ~/.cache, /epstein-bench-explorer/hf-source)
  --no-cache         keep nothing between runs`;

export function sourceOptions(
  parsed: ParsedArgs,
  env: NodeJS.ProcessEnv = process.env,
): { settings: HfSourceSettings; cache: SourceCache; cacheLabel: string } {
  let settings: HfSourceSettings;
  try {
    settings = settingsFrom({
      endpoint: parsed.flags.get('hf-endpoint') ?? env.HF_ENDPOINT,
      dataset: parsed.flags.get('dataset'),
      revision: parsed.flags.get('revision'),
    });
  } catch (e) {
    if (e instanceof SettingsError) throw new UsageError(e.message);
    throw e;
  }
  if (parsed.switches.has('no-cache')) {
    if (parsed.flags.has('cache')) throw new UsageError('--cache and --no-cache exclude each other');
    return { settings, cache: new MemorySourceCache(), cacheLabel: 'none' };
  }
  const dir = parsed.flags.get('cache') ?? defaultSourceCacheDir(env);
  return { settings, cache: new FsSourceCache(dir), cacheLabel: dir };
}

/**
 * Progress for a terminal: a line at most every `everyMs` (the CLI's terminal guard escapes the
 * carriage return a redrawn line would need).
 */
export function progressLines(everyMs = 2000): (line: string) => void {
  let last = 0;
  return (line) => {
    if (!process.stderr.isTTY) return;
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    process.stderr.write(`${line}\n`);
  };
}
