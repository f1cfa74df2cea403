/**
 * The one place that finds the project's shared inputs (../shared: the real v1.0 files and the
 * canonical scorer's golden outputs). Tests that need them skip only when they are absent, saying
 * so, and never in CI: with CI set, a missing folder fails at import with a message naming it.
 * SHARED_DIR overrides the location (the test of this rule points it at a missing folder).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '../..');

export interface SharedInputs {
  dir: string;
  /** The real v1.0 release files. */
  v10Dir: string;
  /** The canonical scorer's outputs (golden/scoring/<case>/...). */
  goldenDir: string;
  present: boolean;
  /** Why tests that need the folder are skipped, for their titles. */
  skipNote: string;
}

/** Where the shared inputs are under `env`; throws when CI is set and any of them is missing. */
export function locateShared(env: Record<string, string | undefined>): SharedInputs {
  const dir = path.resolve(env.SHARED_DIR ?? path.join(projectRoot, '../shared'));
  const v10Dir = path.join(dir, 'epstein-bench-v1.0');
  const goldenDir = path.join(dir, 'golden');
  const missing = [v10Dir, goldenDir].filter((d) => !existsSync(d));
  if (missing.length > 0 && isSet(env.CI)) {
    throw new Error(
      `CI is set but the shared test inputs are missing: ${missing.join(', ')}. ` +
        `Parity tests (golden scorer outputs, the real v1.0 files) must run in CI, not skip: ` +
        `put ../shared next to the project, or set SHARED_DIR to the folder holding ` +
        `epstein-bench-v1.0/ and golden/.`,
    );
  }
  const present = missing.length === 0;
  return {
    dir,
    v10Dir,
    goldenDir,
    present,
    skipNote: present ? `from ${dir}` : `SKIPPED: ${missing.join(' and ')} absent`,
  };
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

const shared = locateShared(process.env);
export const sharedDir = shared.dir;
export const v10Dir = shared.v10Dir;
export const goldenDir = shared.goldenDir;
export const hasShared = shared.present;
export const sharedNote = shared.skipNote;
/** The canonical scorer's golden cases. */
export const goldenCases = ['dev-seed7', 'sample-a-seed5', 'sample-a-edge-seed9'] as const;

/** A file under ../shared as text. */
export function readShared(...parts: string[]): string {
  return readFileSync(path.join(sharedDir, ...parts), 'utf8');
}

/** A file of the real v1.0 release. */
export function releaseBytes(file: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(v10Dir, file)));
}

export function releaseText(file: string): string {
  return readFileSync(path.join(v10Dir, file), 'utf8');
}
