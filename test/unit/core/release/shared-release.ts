/** Locates the public v1.0 files in ../shared; tests that need them skip only when that folder is absent. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const sharedDir = path.resolve(projectRoot, '../shared');
export const releaseDir = path.join(sharedDir, 'epstein-bench-v1.0');
export const hasShared = existsSync(sharedDir);
export const sharedNote = hasShared
  ? `from ${releaseDir}`
  : `SKIPPED: ${sharedDir} (../shared relative to the project root) is absent`;

export function releaseBytes(file: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(releaseDir, file)));
}

export function releaseText(file: string): string {
  return readFileSync(path.join(releaseDir, file), 'utf8');
}
