/**
 * src/core runs in the page, in workers and in Node, so lint refuses platform modules, UI code
 * and host globals there (eslint.config.js). Probe sources are linted as if they lived in src/core.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(code: string, filePath = 'src/core/release/probe.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('src/core layering (eslint.config.js)', () => {
  it.each([
    ["import { readFileSync } from 'node:fs';\nexport const f = readFileSync;", 'no-restricted-imports'],
    ["import { readFileSync } from 'fs';\nexport const f = readFileSync;", 'no-restricted-imports'],
    ["import { mount } from 'svelte';\nexport const m = mount;", 'no-restricted-imports'],
    ["import { url } from '../../app/state/url.svelte.ts';\nexport const u = url;", 'no-restricted-imports'],
    ["import { run } from '../../cli/main.ts';\nexport const r = run;", 'no-restricted-imports'],
    ["import { promised } from '../../adapters/browser/idb.ts';\nexport const p = promised;", 'no-restricted-imports'],
    [
      "import type { OfflineRequest } from '../../sw/protocol.ts';\nexport type R = OfflineRequest;",
      'no-restricted-imports',
    ],
    [
      "import type { DataApi } from '../../../workers/data.worker.ts';\nexport type D = DataApi;",
      'no-restricted-imports',
    ],
    ['export const w = window.innerWidth;', 'no-restricted-globals'],
    ['export const h = location.href;', 'no-restricted-globals'],
    ["export const db = indexedDB.open('x');", 'no-restricted-globals'],
    ["export const k = localStorage.getItem('k');", 'no-restricted-globals'],
    ['export const s = self;', 'no-restricted-globals'],
  ])('refuses %j', async (code, rule) => {
    const found = await problems(code);
    expect(
      found.some((p) => p.startsWith(`${rule}:`)),
      found.join('\n'),
    ).toBe(true);
  });

  // Every folder of src/core, the ones added later (net, audit, source-docs) included.
  const folders = readdirSync(path.resolve('src/core'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  it('covers the folders added since the rule was written', () => {
    expect(folders).toEqual(expect.arrayContaining(['net', 'audit', 'source-docs', 'explorer', 'python']));
  });
  it.each(folders)('refuses node:fs and window in src/core/%s', async (folder) => {
    const found = await problems(
      "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\nexport const w = window.innerWidth;",
      `src/core/${folder}/probe.ts`,
    );
    expect(found.filter((p) => p.startsWith('no-restricted-imports:')).length, found.join('\n')).toBe(1);
    expect(found.filter((p) => p.startsWith('no-restricted-globals:')).length, found.join('\n')).toBe(1);
  });

  it('accepts code that uses only what every host has', async () => {
    const code =
      "import { pySum } from '../python/sum.ts';\nexport const total = pySum([1n, 0.5]);\nexport const u = new URL('x', 'http://h/');\nexport const t = new TextDecoder();";
    expect(await problems(code)).toEqual([]);
  });

  it('leaves the page, the workers and the CLI free to use their platform', async () => {
    expect(
      await problems("import { readFileSync } from 'node:fs';\nexport const f = readFileSync;", 'src/cli/probe.ts'),
    ).toEqual([]);
    expect(await problems('export const w = window.innerWidth;', 'src/app/probe.ts')).toEqual([]);
  });
});
