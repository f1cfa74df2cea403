/** Locates ../shared (golden outputs and the public v1.0 files); tests skip only when it is absent. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const projectRootDir = projectRoot;
export const sharedDir = path.resolve(projectRoot, '../shared');
export const hasShared = existsSync(sharedDir);
export const sharedSkipReason = `skipped: ${sharedDir} (../shared relative to the project root) is absent`;
export const goldenCases = ['dev-seed7', 'sample-a-seed5', 'sample-a-edge-seed9'] as const;

export function readShared(...parts: string[]): string {
  return readFileSync(path.join(sharedDir, ...parts), 'utf8');
}
