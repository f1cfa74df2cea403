/** Builds the site when any of its sources is newer than dist/ (npm start, npm run bench). */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

/** Everything the build reads: sources, data, pages, the build's configuration and the installed packages. */
export const BUILD_INPUTS = [
  'src',
  'workers',
  'public',
  'static-data',
  'index.html',
  'embed',
  'vite.config.ts',
  'svelte.config.js',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newestMtime(path.join(p, name))), st.mtimeMs);
}

/** The build inputs under `root` changed after dist/index.html was written (all of them when it is missing). */
export function changedSinceBuild(root: string): string[] {
  const built = path.join(root, 'dist/index.html');
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  return BUILD_INPUTS.filter((input) => newestMtime(path.join(root, input)) > builtAt);
}

export async function ensureBuild(log: (line: string) => void): Promise<void> {
  const changed = changedSinceBuild('.');
  if (changed.length > 0) {
    log(`Building the site (changed since the last build: ${changed.join(', ')})…`);
    await build({ logLevel: 'warn' });
  } else {
    log('dist/ is up to date.');
  }
}
