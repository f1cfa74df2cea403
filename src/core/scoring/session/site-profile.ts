/**
 * A judge profile the site ships for a release that has none as a file (the benchmark repository
 * keeps its judge in code): static-data/judge-profiles/<id>.json, named and pinned by sha256 in
 * the release's entry of static-data/releases.json, with its provenance inside.
 */
import { errorMessage } from '../../error-message.ts';
import { bodyBytes } from '../../net/body-bytes.ts';
import { sha256Hex } from '../../release/sha256.ts';
import type { JudgeProfile } from '../../release/types.ts';
import { parseJudgeProfile } from '../scoring-inputs.ts';

/** Where the site's copy is and its pin, as a release entry gives them (url already resolved). */
export interface SiteJudgeProfileRef {
  url: string;
  sha256: string;
}

/** Where a profile was recorded from: the benchmark's repository, its commit and the file read. */
export interface ProfileProvenance {
  benchmark_repository?: string;
  benchmark_commit?: string;
  read_from?: string;
}

export const MAX_PROFILE_BYTES = 1024 * 1024;
/** A profile is a few KB: a host silent this long, or not done after PROFILE_TOTAL_MS, is not read from. */
export const PROFILE_IDLE_MS = 20_000;
export const PROFILE_TOTAL_MS = 60_000;

/** The profile and a one-line account of where it comes from, or why the site's copy was refused. */
export type SiteProfileResult = { profile: JudgeProfile; source: string } | { error: string };

function provenanceOf(value: unknown): ProfileProvenance {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const r = value as Record<string, unknown>;
  const text = (k: string) => (typeof r[k] === 'string' ? { [k]: r[k] } : {});
  return { ...text('benchmark_repository'), ...text('benchmark_commit'), ...text('read_from') };
}

/** "the site's copy (<repo> at <commit8>, read from <file>)": what the Score page names as the profile's source. */
export function describeSiteProfile(file: string, provenance: ProfileProvenance): string {
  const repo = provenance.benchmark_repository?.replace(/^https:\/\/github\.com\//, '');
  const at = provenance.benchmark_commit ? ` at ${provenance.benchmark_commit.slice(0, 8)}` : '';
  const read = provenance.read_from ? `, read from ${provenance.read_from.split(/[ ,]/)[0]}` : '';
  return `the site's copy, ${file}${repo ? ` (${repo}${at}${read})` : ''}`;
}

/** Reads, checks against its pin and parses the site's copy; every failure names the file and the reason. */
export async function readSiteJudgeProfile(
  ref: SiteJudgeProfileRef,
  fetchFn: typeof fetch = (...args) => fetch(...args),
): Promise<SiteProfileResult> {
  const file = new URL(ref.url).pathname.split('/').pop() ?? ref.url;
  let response: Response;
  try {
    response = await fetchFn(ref.url, { credentials: 'omit', signal: AbortSignal.timeout(PROFILE_TOTAL_MS) });
  } catch (error) {
    return { error: `${file}: ${errorMessage(error)}` };
  }
  if (!response.ok) return { error: `${file}: HTTP ${response.status}` };
  const length = Number(response.headers.get('content-length') ?? 0);
  if (length > MAX_PROFILE_BYTES)
    return { error: `${file}: ${length} bytes, more than the ${MAX_PROFILE_BYTES} allowed` };
  let bytes: Uint8Array;
  try {
    // each error of the read names the file and the reason
    bytes = await bodyBytes(response, {
      what: file,
      maxBytes: MAX_PROFILE_BYTES,
      idleMs: PROFILE_IDLE_MS,
      totalMs: PROFILE_TOTAL_MS,
    });
  } catch (error) {
    return { error: errorMessage(error) };
  }
  const actual = await sha256Hex(bytes);
  if (actual !== ref.sha256.toLowerCase())
    return { error: `${file}: sha256 ${actual} differs from its pin ${ref.sha256} in releases.json; not used` };
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8').decode(bytes));
  } catch (error) {
    return { error: `${file}: expected a JSON judge profile, found invalid JSON (${errorMessage(error)})` };
  }
  try {
    const profile = parseJudgeProfile(value, file);
    const provenance = provenanceOf((value as Record<string, unknown>).provenance);
    return { profile, source: describeSiteProfile(file, provenance) };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}
