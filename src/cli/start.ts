/**
 * `npm start`: builds the site when any source is newer than dist/, then serves dist/ with
 * vite preview and prints its URL. The site opens on the embedded sample release.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { build, preview } from 'vite';

const INPUTS = [
  'src',
  'workers',
  'public',
  'static-data',
  'index.html',
  'embed.html',
  'vite.config.ts',
  'package.json',
];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newestMtime(path.join(p, name))), st.mtimeMs);
}

const builtAt = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
const changedAt = Math.max(...INPUTS.map(newestMtime));
if (changedAt > builtAt) {
  process.stdout.write('Building the site (sources changed since the last build)…\n');
  await build({ logLevel: 'warn' });
} else {
  process.stdout.write('dist/ is up to date.\n');
}
const port = Number(process.env.PORT ?? 4173);
const server = await preview({ preview: { port, host: process.env.HOST ?? 'localhost', open: false } });
const urls = server.resolvedUrls?.local ?? [`http://localhost:${port}/`];
process.stdout.write(`\nEpstein Bench Explorer is running at ${urls[0]}\n(Ctrl+C to stop)\n`);
