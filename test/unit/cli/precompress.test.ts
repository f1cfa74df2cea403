import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressFolder } from '../../../src/cli/vite-delivery.ts';

describe('precompressFolder', () => {
  it('compresses the small chunks a lazy page shares, not a file below a request header, nor a copy that gains nothing', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ebx-precompress-'));
    const cache = mkdtempSync(path.join(os.tmpdir(), 'ebx-precompress-cache-'));
    const chunk = `import{a as e}from"./theme.js";${'export const label=`Rank with BM25`;'.repeat(20)}`;
    writeFileSync(path.join(dir, 'small-chunk.js'), chunk);
    writeFileSync(path.join(dir, 'tiny.js'), 'export{};'.repeat(20));
    // Random bytes do not compress: no copy is written.
    writeFileSync(path.join(dir, 'noise.bin'), randomBytes(600));
    await precompressFolder(dir, cache);
    expect(chunk.length).toBeLessThan(1024);
    expect(brotliDecompressSync(readFileSync(path.join(dir, 'small-chunk.js.br'))).toString()).toBe(chunk);
    expect(gunzipSync(readFileSync(path.join(dir, 'small-chunk.js.gz'))).toString()).toBe(chunk);
    expect(readFileSync(path.join(dir, 'small-chunk.js.br')).byteLength).toBeLessThan(chunk.length / 2);
    expect(existsSync(path.join(dir, 'tiny.js.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'noise.bin.br'))).toBe(false);
  });
});
