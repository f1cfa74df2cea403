/**
 * What the build adds for delivery, once every file is in dist/ (static-data is copied at
 * writeBundle, this runs at closeBundle):
 * 1. sw.js, the service worker (src/sw/service-worker.ts without its types), told which files
 *    to precache;
 * 2. a .br and a .gz copy of every text and wasm file that compresses, for `npm start` and any
 *    static host that serves precompressed files. Compressing the 100 MB of engine wasm takes
 *    minutes at brotli's best quality, so copies are cached by content hash in
 *    node_modules/.cache and big files use a faster quality.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { transformWithOxc, type Plugin, type ResolvedConfig } from 'vite';
import type { OfflineBuild } from '../sw/protocol.ts';
import { sha256HexSync } from '../adapters/node/sha256.ts';

const COMPRESSIBLE = /\.(html|js|mjs|css|json|jsonl|md|svg|txt|wasm|bin|onnx|webmanifest)$/i;
/**
 * Below this a copy saves less than a request's headers weigh. The many small chunks the lazy
 * pages share (0.3–1 KB each) are above it: compressed, they save an embed about 5 KB.
 */
const MIN_BYTES = 256;
/** A copy must save at least 5 % to be written. */
const MIN_GAIN = 0.95;
const BIG = 4 * 1024 * 1024;
/**
 * Not precached by the service worker: the MVP DuckDB bundle (browsers with wasm exceptions use
 * the EH one), onnxruntime and transformers.js (cached when a dense ranking first uses them).
 */
const NOT_PRECACHED = /(duckdb-mvp|duckdb-browser-mvp|ort-wasm|transformers-embedder)/;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function walk(dir: string, rel = ''): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? walk(dir, p) : [p];
  });
}

/** Paths the service worker fetches at install: the app without static-data and the on-demand engines. */
export function precacheList(files: readonly string[]): string[] {
  return files
    .filter(
      (f) =>
        !/\.(br|gz|map)$/.test(f) &&
        f !== 'sw.js' &&
        (!f.startsWith('static-data/') || f === 'static-data/releases.json') &&
        !NOT_PRECACHED.test(f),
    )
    .sort();
}

async function writeServiceWorker(out: string, root: string): Promise<void> {
  const source = path.join(root, 'src/sw/service-worker.ts');
  const transformed = await transformWithOxc(readFileSync(source, 'utf8'), source, { lang: 'ts' });
  // A service worker is a classic script: the module marker left by the erased type import must go.
  const code = transformed.code.replace(/^export \{\};?\s*$/m, '');
  const precache = precacheList(walk(out));
  const version = createHash('sha256')
    .update(precache.map((f) => `${f}:${statSync(path.join(out, f)).size}`).join('\n'))
    .update(code)
    .digest('hex')
    .slice(0, 16);
  const build: OfflineBuild = { version, precache };
  writeFileSync(path.join(out, 'sw.js'), `self.EBX_BUILD = ${JSON.stringify(build)};\n${code}`);
}

async function compressOne(file: string, cacheDir: string): Promise<void> {
  const bytes = readFileSync(file);
  const hash = sha256HexSync(bytes);
  const big = bytes.byteLength > BIG;
  for (const [suffix, make] of [
    [
      '.br',
      () =>
        brotli(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: big ? 6 : 11,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        }),
    ],
    ['.gz', () => gzip(bytes, { level: big ? 6 : 9 })],
  ] as const) {
    const cached = path.join(cacheDir, `${hash}${suffix}`);
    const skipped = `${cached}.skip`;
    if (existsSync(skipped)) continue;
    let packed: Buffer;
    if (existsSync(cached)) packed = readFileSync(cached);
    else {
      packed = await make();
      if (packed.byteLength > bytes.byteLength * MIN_GAIN) {
        writeFileSync(skipped, '');
        continue;
      }
      writeFileSync(cached, packed);
    }
    writeFileSync(file + suffix, packed);
  }
}

/** Writes .br and .gz copies beside every compressible file below `out` (cached by content hash in `cacheDir`). */
export async function precompressFolder(out: string, cacheDir: string): Promise<void> {
  mkdirSync(cacheDir, { recursive: true });
  const files = walk(out)
    .filter((f) => COMPRESSIBLE.test(f) && statSync(path.join(out, f)).size >= MIN_BYTES)
    .map((f) => path.join(out, f));
  // Two at a time: zlib runs on libuv's threads, and the machine may have two cores.
  const queue = [...files];
  await Promise.all(
    [0, 1].map(async () => {
      for (let f = queue.shift(); f; f = queue.shift()) await compressOne(f, cacheDir);
    }),
  );
}

export function delivery(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'epstein-bench-delivery',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const out = path.resolve(config.root, config.build.outDir);
      if (!existsSync(path.join(out, 'index.html'))) return;
      await writeServiceWorker(out, config.root);
      await precompressFolder(out, path.resolve(config.root, 'node_modules/.cache/ebx-precompress'));
    },
  };
}
