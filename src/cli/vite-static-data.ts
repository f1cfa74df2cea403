import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { serveStatic } from './static-files.ts';

/**
 * static-data/ (the embedded releases) is served at <base>static-data/ in dev and copied into
 * dist/ at build, so `vite preview` and any static host serve it with range requests.
 */
export function staticData(dir = 'static-data'): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'epstein-bench-static-data',
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      const root = path.resolve(server.config.root, dir);
      server.middlewares.use((req, res, next) => {
        if (!serveStatic(root, `${server.config.base}${dir}/`, req, res)) next();
      });
    },
    // writeBundle, not closeBundle: the delivery plugin compresses and lists these files at closeBundle.
    writeBundle() {
      if (config.command !== 'build') return;
      const from = path.resolve(config.root, dir);
      if (existsSync(from)) cpSync(from, path.resolve(config.build.outDir, dir), { recursive: true });
    },
  };
}
