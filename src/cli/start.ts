/**
 * `npm start`: builds the site when any source is newer than dist/, then serves dist/ (with
 * the build's precompressed copies and long cache lifetimes for hashed assets) and prints its
 * URL. The site opens on the embedded sample release. `--no-build` serves dist/ as it is.
 */
import { existsSync } from 'node:fs';
import { ensureBuild } from './ensure-build.ts';
import { startSiteServer } from './site-server.ts';
import { stopWithParent } from './stop-with-parent.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);
if (!process.argv.includes('--no-build')) await ensureBuild(log);
else if (!existsSync('dist/index.html')) throw new Error('dist/ is missing: run `npm run build` first');
const site = await startSiteServer({
  root: 'dist',
  port: Number(process.env.PORT ?? 4173),
  host: process.env.HOST ?? 'localhost',
  // BASE_PATH=/explorer/ serves the site as a project site sits, to try it there before publishing.
  base: process.env.BASE_PATH ?? '/',
});
stopWithParent(() => site.close());
log(`\nEpstein Bench Explorer is running at ${site.url}\n(Ctrl+C to stop)`);
