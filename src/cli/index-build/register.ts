/** Writes built index files into a release folder and names them in its release.json. */
import { sha256HexSync } from '../../adapters/node/sha256.ts';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ReleaseDescriptor } from '../../core/release/types.ts';
import {
  MAX_INPUT_FILE_BYTES,
  pathInside,
  readRegularFileSync,
  writablePathInside,
} from '../../adapters/node/regular-file.ts';

/** Adds (or replaces) `indexes` after `submissions`, keeping the other keys in place. */
export function withIndexes(
  descriptor: ReleaseDescriptor,
  indexes: NonNullable<ReleaseDescriptor['indexes']>,
): ReleaseDescriptor {
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const [key, value] of Object.entries(descriptor)) {
    if (key === 'indexes') continue;
    if (!placed && (key === 'source_url_template' || key === 'sha256')) {
      out['indexes'] = indexes;
      placed = true;
    }
    out[key] = value;
  }
  if (!placed) out['indexes'] = indexes;
  return out as unknown as ReleaseDescriptor;
}

export function sha256(data: Uint8Array): string {
  return sha256HexSync(data);
}

/**
 * Writes the files; updates release.json (indexes, and sha256 pins when it keeps pins). A path
 * that a symbolic link would take outside the release folder is refused before anything is written.
 */
export function writeIndexFiles(
  releaseDir: string,
  files: ReadonlyMap<string, Uint8Array>,
  indexes: NonNullable<ReleaseDescriptor['indexes']>,
  extraPins: ReadonlyMap<string, Uint8Array> = new Map(),
): { descriptorUpdated: 'updated' | 'unchanged' | 'absent' } {
  for (const rel of [...files.keys(), 'release.json']) pathInside(releaseDir, rel);
  for (const [rel, bytes] of files) writeFileSync(writablePathInside(releaseDir, rel), bytes);
  const descriptorFile = pathInside(releaseDir, 'release.json');
  if (!existsSync(descriptorFile)) return { descriptorUpdated: 'absent' };
  const original = new TextDecoder().decode(readRegularFileSync(descriptorFile, MAX_INPUT_FILE_BYTES));
  const descriptor = JSON.parse(original) as ReleaseDescriptor;
  const updated = withIndexes(descriptor, indexes);
  if (updated.sha256) {
    const pins = { ...updated.sha256 };
    for (const [rel, bytes] of [...files, ...extraPins]) pins[rel] = sha256(bytes);
    updated.sha256 = Object.fromEntries(Object.entries(pins).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  // The file keeps its own convention for a final newline, so an unchanged release stays byte for byte.
  const text = `${JSON.stringify(updated, null, 2)}${original.endsWith('\n') ? '\n' : ''}`;
  if (text === original) return { descriptorUpdated: 'unchanged' };
  writeFileSync(descriptorFile, text);
  return { descriptorUpdated: 'updated' };
}

/** Every file under a folder, as release-relative paths with '/'. */
export function listFolder(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFolder(root, child));
    else out.push(child);
  }
  return out.sort();
}

/** The one transformers.js model folder under <release>/models/, if there is exactly one. */
export function findReleaseModel(releaseDir: string): string | undefined {
  const models = path.join(releaseDir, 'models');
  if (!existsSync(models)) return undefined;
  const found = readdirSync(models, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(models, e.name, 'config.json')))
    .map((e) => `models/${e.name}`);
  return found.length === 1 ? found[0] : undefined;
}
