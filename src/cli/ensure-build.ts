/** Builds the site when any of its sources is newer than dist/ (npm start, npm run bench). */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

const INPUTS = ['src', 'workers', 'public', 'static-data', 'index.html', 'embed', 'vite.config.ts', 'package.json'];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newestMtime(path.join(p, name))), st.mtimeMs);
}

export async function ensureBuild(log: (line: string) => void): Promise<void> {
  const builtAt = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
  if (Math.max(...INPUTS.map(newestMtime)) > builtAt) {
    log('Building the site (sources changed since the last build)…');
    await build({ logLevel: 'warn' });
  } else {
    log('dist/ is up to date.');
  }
}
