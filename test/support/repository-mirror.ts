/**
 * The benchmark repository's layout over ../shared/epstein-bench-v1.0 (a flat copy of some of
 * its files): repository paths map onto that folder, and a localhost server serves them the way
 * raw.githubusercontent.com serves a commit (`/<owner>/<repo>/<sha>/<path>`, CORS, 404 for the rest).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { listenLocal } from './local-server.ts';

const DATASET = 'dataset/v1.0/';

/** The file of the flat folder that holds a repository path, or undefined when the folder lacks it. */
export function flatPathOf(repoPath: string): string | undefined {
  if (repoPath === `${DATASET}manifest.json`) return 'manifest.json';
  if (repoPath.startsWith(`${DATASET}full/`) || repoPath.startsWith(`${DATASET}dev/`))
    return repoPath.slice(DATASET.length);
  if (repoPath === 'docs/leaderboard.json') return 'leaderboard.json';
  if (repoPath.startsWith('submissions/')) return repoPath;
  return undefined;
}

function listFlat(dir: string, prefix = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? listFlat(full, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

/** Every file of the flat folder under its repository path (files with no repository place are left out). */
export function repositoryFiles(flatDir: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const flat of listFlat(flatDir)) {
    const repoPath =
      flat === 'manifest.json'
        ? `${DATASET}manifest.json`
        : flat.startsWith('full/') || flat.startsWith('dev/')
          ? `${DATASET}${flat}`
          : flat === 'leaderboard.json'
            ? 'docs/leaderboard.json'
            : flat.startsWith('submissions/')
              ? flat
              : undefined;
    if (repoPath && flatPathOf(repoPath) === flat)
      out.set(repoPath, new Uint8Array(readFileSync(path.join(flatDir, flat))));
  }
  return out;
}

export interface RepositoryMirror {
  /** Base URL of the commit, ending in "/". */
  url: string;
  /** Every request and the bytes of its body (0 for a 404). */
  log: Array<{ path: string; status: number; bytes: number }>;
  close(): Promise<void>;
}

/**
 * Serves `flatDir` in the repository layout under `prefix` (e.g. "/owner/repo/<sha>/"), with the
 * CORS header raw.githubusercontent.com sends. `override` replaces the bytes of a repository path.
 */
export async function startRepositoryMirror(
  flatDir: string,
  prefix: string,
  override: ReadonlyMap<string, Uint8Array> = new Map(),
): Promise<RepositoryMirror> {
  const log: RepositoryMirror['log'] = [];
  const server = await listenLocal((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const repoPath = urlPath.startsWith(prefix) ? urlPath.slice(prefix.length) : undefined;
    const flat = repoPath === undefined ? undefined : flatPathOf(repoPath);
    const file = flat === undefined ? undefined : path.join(flatDir, flat);
    const body =
      repoPath !== undefined && override.has(repoPath)
        ? override.get(repoPath)
        : file && existsSync(file) && statSync(file).isFile()
          ? readFileSync(file)
          : undefined;
    if (!body) {
      log.push({ path: urlPath, status: 404, bytes: 0 });
      res.statusCode = 404;
      res.end('404: Not Found');
      return;
    }
    log.push({ path: urlPath, status: 200, bytes: body.byteLength });
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.byteLength });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return { url: `${server.origin}${prefix}`, log, close: server.close };
}
