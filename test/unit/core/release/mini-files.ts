/** The mini fixture release as a map of files, with helpers to change a file and re-pin it. */
import { sha256HexSync } from '../../../../src/adapters/node/sha256.ts';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const miniDir = path.resolve(import.meta.dirname, '../../../fixtures/mini-release');

export function readFolder(dir: string, prefix = ''): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) for (const [k, v] of readFolder(full, `${prefix}${name}/`)) out.set(k, v);
    else out.set(`${prefix}${name}`, new Uint8Array(readFileSync(full)));
  }
  return out;
}

export const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);
export const bytesOf = (s: string): Uint8Array => new TextEncoder().encode(s);

interface Descriptor {
  files: Record<string, string>;
  sha256: Record<string, string>;
  [key: string]: unknown;
}

/** Edits release.json of a file map. */
export function editDescriptor(files: Map<string, Uint8Array>, change: (d: Descriptor) => void): void {
  const descriptor = JSON.parse(text(files.get('release.json'))) as Descriptor;
  change(descriptor);
  files.set('release.json', bytesOf(JSON.stringify(descriptor, null, 2)));
}

/** Replaces a file and updates its release.json pin to the new bytes (only the manifest may still disagree). */
export function replacePinned(files: Map<string, Uint8Array>, file: string, bytes: Uint8Array): void {
  files.set(file, bytes);
  editDescriptor(files, (d) => {
    d.sha256[file] = sha256HexSync(bytes);
  });
}

/** Writes a file map to a fresh temporary folder (for the CLI). */
export function writeFolder(files: Map<string, Uint8Array>): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'ebx-hardening-')), 'release');
  for (const [rel, bytes] of files) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), bytes);
  }
  return dir;
}
