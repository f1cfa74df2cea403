/**
 * Where source documents are read from: a Hugging Face endpoint (as HF_ENDPOINT sets it for the
 * Hugging Face tools), a dataset repository and a revision. Everything a user or a URL gives is
 * checked here before any request is made.
 */

export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';
export const DEFAULT_DATASET = 'aurora2424/Epstein-Files';
export const DEFAULT_REVISION = 'main';

export interface HfSourceSettings {
  /** Origin (and optional base path) of the Hub, without a trailing slash. */
  endpoint: string;
  /** `owner/name` of the dataset repository. */
  dataset: string;
  /** Branch, tag or commit sha. */
  revision: string;
}

export const DEFAULT_SETTINGS: HfSourceSettings = {
  endpoint: DEFAULT_HF_ENDPOINT,
  dataset: DEFAULT_DATASET,
  revision: DEFAULT_REVISION,
};

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** An http(s) URL without credentials, query or fragment; the trailing slash is dropped. */
export function normaliseEndpoint(raw: string): string {
  const text = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new SettingsError(`the Hugging Face endpoint must be an http(s) URL, got ${JSON.stringify(text)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new SettingsError(`the Hugging Face endpoint must be an http(s) URL, got ${parsed.protocol} URL`);
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname))
    throw new SettingsError(
      `the Hugging Face endpoint must use https unless it is this machine (found http://${parsed.host}); plain http could be read or changed on the way`,
    );
  if (parsed.username || parsed.password)
    throw new SettingsError('the Hugging Face endpoint must not hold credentials');
  if (parsed.search || parsed.hash)
    throw new SettingsError('the Hugging Face endpoint must not have a query or fragment');
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

/** This machine: localhost, 127.0.0.0/8, ::1 (plain http stays on the computer). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

const REPO_PART = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

/** `owner/name`, each part as the Hub allows (letters, digits, `.`, `_`, `-`). */
export function checkDataset(raw: string): string {
  const text = raw.trim();
  const parts = text.split('/');
  if (parts.length !== 2 || !parts.every((p) => REPO_PART.test(p) && !p.includes('..')))
    throw new SettingsError(`the dataset must be "owner/name", got ${JSON.stringify(text)}`);
  return text;
}

/** A branch, tag or commit: printable, no spaces, no `..`, at most 200 characters. */
export function checkRevision(raw: string): string {
  const text = raw.trim();
  if (!/^[A-Za-z0-9._/-]{1,200}$/.test(text) || text.includes('..') || text.startsWith('/'))
    throw new SettingsError(`the revision must be a branch, tag or commit, got ${JSON.stringify(text)}`);
  return text;
}

/** Settings from optional user values, defaults for the rest; throws SettingsError on a bad value. */
export function settingsFrom(values: Partial<Record<keyof HfSourceSettings, string | undefined>>): HfSourceSettings {
  return {
    endpoint: normaliseEndpoint(values.endpoint || DEFAULT_HF_ENDPOINT),
    dataset: checkDataset(values.dataset || DEFAULT_DATASET),
    revision: checkRevision(values.revision || DEFAULT_REVISION),
  };
}

/** A commit sha never moves, so what was learned about it never goes stale. */
export function isCommitSha(revision: string): boolean {
  return /^[0-9a-f]{40}$/.test(revision);
}

/** Host name to show the user ("huggingface.co", "127.0.0.1:8080"). */
export function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}

/** A key naming one dataset revision on one endpoint (cache keys start with it). */
export function settingsKey(s: HfSourceSettings): string {
  return `${s.endpoint}|${s.dataset}|${s.revision}`;
}

/**
 * A Hugging Face access token as given (trimmed), or undefined for none. Only printable ASCII
 * without spaces can go in an Authorization header; the error never repeats the value.
 */
export function checkToken(raw: string | undefined): string | undefined {
  const text = raw?.trim() ?? '';
  if (text === '') return undefined;
  if (!/^[\x21-\x7e]{1,1024}$/.test(text))
    throw new SettingsError(
      'the Hugging Face token must be one word of printable characters (as the Hub shows it, hf_...)',
    );
  return text;
}
