/**
 * The options the source commands share: where the Hub is, which dataset, the cache, the token;
 * and how they talk to it from Node (redirects followed here, one line while a wait lasts).
 */
import { FsSourceCache, defaultSourceCacheDir } from '../adapters/node/source-cache-fs.ts';
import { MemorySourceCache, type SourceCache } from '../core/source-docs/cache.ts';
import { inWords, waitingLine, type RateStats, type RateWait } from '../core/source-docs/rate-gate.ts';
import { checkToken, SettingsError, settingsFrom, type HfSourceSettings } from '../core/source-docs/settings.ts';
import { TOKEN_HINT_CLI } from '../core/source-docs/hub.ts';
import { UsageError, type ParsedArgs } from './args.ts';

export const SOURCE_VALUED_FLAGS = ['hf-endpoint', 'dataset', 'revision', 'hf-token-env', 'cache'] as const;
export const SOURCE_SWITCHES = ['no-cache'] as const;

/** The flags of the Hub, the dataset and the token (the lines every source command prints). */
export const HUB_OPTIONS_HELP = `  --hf-endpoint URL  the Hub (default: $HF_ENDPOINT, else https://huggingface.co)
  --dataset REPO     dataset repository (default aurora2424/Epstein-Files)
  --revision REV     branch, tag or commit (default main)
  --hf-token-env VAR read a Hugging Face token from the environment variable VAR, for a gated
                     or private dataset (default: $HF_TOKEN when set, as huggingface_hub does,
                     unless HF_HUB_DISABLE_IMPLICIT_TOKEN is set); sent to the Hub only, never
                     to its file host, never printed`;

export const SOURCE_OPTIONS_HELP = `${HUB_OPTIONS_HELP}
  --cache DIR        keep footers, doc_id lists and locations here
                     (default: $XDG_CACHE_HOME or ~/.cache, /epstein-bench-explorer/hf-source)
  --no-cache         keep nothing between runs`;

export interface SourceOptions {
  settings: HfSourceSettings;
  cache: SourceCache;
  cacheLabel: string;
  /** The Hugging Face token, when one is given (never printed). */
  token?: string;
  /** Where the token came from, for messages: `$HF_TOKEN`. */
  tokenFrom?: string;
}

/** huggingface_hub's reading of a boolean variable. */
const isTrue = (value: string | undefined) => ['1', 'ON', 'YES', 'TRUE'].includes((value ?? '').trim().toUpperCase());

/**
 * The token: from the variable --hf-token-env names (which must be set), else $HF_TOKEN. No
 * message repeats a value: a token passed where the variable's name goes is refused unseen.
 */
export function tokenOption(
  parsed: ParsedArgs,
  env: NodeJS.ProcessEnv = process.env,
): { token: string; from: string } | undefined {
  const name = parsed.flags.get('hf-token-env');
  let raw: string | undefined;
  let from: string;
  if (name !== undefined) {
    // Hub tokens are hf_ and 34 letters and digits; a variable's name is rarely so.
    if (/^hf_[A-Za-z0-9]{20,}$/.test(name))
      throw new UsageError(
        '--hf-token-env takes the name of an environment variable that holds the token (as HF_TOKEN), not the token itself',
      );
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name))
      throw new UsageError('--hf-token-env takes the name of an environment variable (letters, digits and _)');
    raw = env[name];
    from = `$${name}`;
    if (raw === undefined) throw new UsageError(`--hf-token-env ${name}: the environment variable ${name} is not set`);
    if (raw.trim() === '') throw new UsageError(`--hf-token-env ${name}: the environment variable ${name} is empty`);
  } else {
    if (isTrue(env.HF_HUB_DISABLE_IMPLICIT_TOKEN)) return undefined;
    raw = env.HF_TOKEN;
    from = '$HF_TOKEN';
  }
  try {
    const token = checkToken(raw);
    return token === undefined ? undefined : { token, from };
  } catch (e) {
    if (e instanceof SettingsError) throw new UsageError(`${from}: ${e.message}`);
    throw e;
  }
}

/** The Hub settings alone (the source check keeps nothing). */
export function hubSettings(parsed: ParsedArgs, env: NodeJS.ProcessEnv = process.env): HfSourceSettings {
  try {
    return settingsFrom({
      endpoint: parsed.flags.get('hf-endpoint') ?? env.HF_ENDPOINT,
      dataset: parsed.flags.get('dataset'),
      revision: parsed.flags.get('revision'),
    });
  } catch (e) {
    if (e instanceof SettingsError) throw new UsageError(e.message);
    throw e;
  }
}

export function sourceOptions(parsed: ParsedArgs, env: NodeJS.ProcessEnv = process.env): SourceOptions {
  const settings = hubSettings(parsed, env);
  const given = tokenOption(parsed, env);
  const token = given ? { token: given.token, tokenFrom: given.from } : {};
  if (parsed.switches.has('no-cache')) {
    if (parsed.flags.has('cache')) throw new UsageError('--cache and --no-cache exclude each other');
    return { settings, cache: new MemorySourceCache(), cacheLabel: 'none', ...token };
  }
  const dir = parsed.flags.get('cache') ?? defaultSourceCacheDir(env);
  return { settings, cache: new FsSourceCache(dir), cacheLabel: dir, ...token };
}

/**
 * How the CLI talks to the Hub: redirects followed here ('manual': Node shows them, so each hop's
 * limits are seen and the token stays on the Hub's origin), the token, and one stderr line when a
 * wait on the Hub or its file host begins ("waiting for the Hub's rate limit, resumes in 42 s").
 */
export function hubConnection(
  options: Pick<SourceOptions, 'token'>,
  now: () => number = () => Date.now(),
): { redirects: 'manual'; token?: string; tokenHint: string; onWait: (wait: RateWait | undefined) => void } {
  let shown = false;
  return {
    redirects: 'manual',
    tokenHint: TOKEN_HINT_CLI,
    ...(options.token ? { token: options.token } : {}),
    onWait: (wait) => {
      if (!wait) {
        shown = false;
        return;
      }
      if (shown) return;
      shown = true;
      process.stderr.write(`${waitingLine(wait, now())}\n`);
    },
  };
}

/** "; waited 42 s on the Hub's limits (1 × 429)" when the session waited, else nothing. */
export function rateNote(r: RateStats): string {
  if (r.waits === 0 && r.limited === 0 && r.unavailable === 0) return '';
  const answers = [r.limited ? `${r.limited} × 429` : '', r.unavailable ? `${r.unavailable} × 503` : '']
    .filter(Boolean)
    .join(', ');
  return `; waited ${inWords(r.waitMs).slice(3)} on the Hub's limits${answers ? ` (${answers})` : ''}`;
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
