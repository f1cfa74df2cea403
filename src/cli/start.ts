/**
 * `npm start`: builds the site when any source is newer than dist/, then serves dist/ (with
 * the build's precompressed copies and long cache lifetimes for hashed assets) and prints its
 * URL. The site opens on the embedded sample release. `--no-build` serves dist/ as it is.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { startSiteServer } from './site-server.ts';

const INPUTS = ['src', 'workers', 'public', 'static-data', 'index.html', 'embed', 'vite.config.ts', 'package.json'];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newestMtime(path.join(p, name))), st.mtimeMs);
}

const builtAt = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
const changedAt = Math.max(...INPUTS.map(newestMtime));
if (process.argv.includes('--no-build')) {
  if (!builtAt) throw new Error('dist/ is missing: run `npm run build` first');
} else if (changedAt > builtAt) {
  process.stdout.write('Building the site (sources changed since the last build)…\n');
  await build({ logLevel: 'warn' });
} else {
  process.stdout.write('dist/ is up to date.\n');
}
const site = await startSiteServer({
  root: 'dist',
  port: Number(process.env.PORT ?? 4173),
  host: process.env.HOST ?? 'localhost',
});
process.stdout.write(`\nEpstein Bench Explorer is running at ${site.url}\n(Ctrl+C to stop)\n`);
