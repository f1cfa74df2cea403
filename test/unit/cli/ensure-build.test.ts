/** npm start rebuilds when a source, the build's configuration or the lockfile is newer than dist/. */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_INPUTS, changedSinceBuild } from '../../../src/cli/ensure-build.ts';

/** A checkout whose every input was written at t=1000 s and dist/index.html at t=2000 s. */
function builtCheckout(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ebx-build-'));
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'dist'));
  for (const file of [
    'src/main.ts',
    'vite.config.ts',
    'svelte.config.js',
    'tsconfig.json',
    'package.json',
    'package-lock.json',
  ]) {
    writeFileSync(path.join(root, file), '{}');
    utimesSync(path.join(root, file), 1000, 1000);
  }
  utimesSync(path.join(root, 'src'), 1000, 1000);
  writeFileSync(path.join(root, 'dist/index.html'), '<!doctype html>');
  utimesSync(path.join(root, 'dist/index.html'), 2000, 2000);
  return root;
}

describe('changedSinceBuild', () => {
  it('finds nothing when dist/ is newer than every input', () => {
    expect(changedSinceBuild(builtCheckout())).toEqual([]);
  });

  it.each(['package-lock.json', 'svelte.config.js', 'tsconfig.json', 'vite.config.ts', 'src/main.ts'])(
    'names %s when it changed after the build',
    (file) => {
      const root = builtCheckout();
      utimesSync(path.join(root, file), 3000, 3000);
      expect(changedSinceBuild(root)).toEqual([file.split('/')[0]]);
    },
  );

  it('lists only inputs that exist in a checkout (no embed.html)', () => {
    expect(BUILD_INPUTS).not.toContain('embed.html');
    expect(BUILD_INPUTS).toContain('embed');
  });

  it('names every existing input when dist/ was never built', () => {
    const root = builtCheckout();
    rmSync(path.join(root, 'dist/index.html'));
    expect(changedSinceBuild(root)).toEqual([
      'src',
      'vite.config.ts',
      'svelte.config.js',
      'tsconfig.json',
      'package.json',
      'package-lock.json',
    ]);
  });
});
