/**
 * The GitHub Pages workflow (.github/workflows/pages.yml) publishes what its build command
 * writes: that command, run exactly as the workflow runs it, must write a dist/ whose pages load
 * their files by relative URLs (a project site sits under /<repository>/) and must print no
 * bundler timing warnings (they read like errors).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const workflow = readFileSync(path.join(root, '.github/workflows/pages.yml'), 'utf8');

/** The `run:` commands of the workflow's steps, in order. */
function runCommands(yaml: string): string[] {
  return [...yaml.matchAll(/^\s+run:\s*(.+)$/gm)].map((m) => m[1]!.trim());
}

/** Every src= and href= of a page that is not relative (root-absolute or another origin). */
function absoluteRefs(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!).filter((u) => /^(\/|[a-z]+:)/i.test(u));
}

describe('the GitHub Pages workflow', () => {
  it('installs, builds with the package build command and publishes dist/', () => {
    expect(runCommands(workflow)).toEqual(['npm ci --no-audit --no-fund', 'npm run build']);
    expect(workflow).toMatch(/upload-pages-artifact@v\d+\n\s+with:\n\s+path: dist\n/);
    expect(workflow).toMatch(/deploy-pages@v\d+/);
  });

  it('its build command writes a dist/ that runs from any path and prints no timing warnings', () => {
    const build = runCommands(workflow).at(-1)!;
    // Into a folder of its own, so that the dist/ the e2e tests and benches serve is left alone;
    // and without vitest's NODE_ENV=test, which the workflow's runner does not set and with which
    // Vite makes a development build (import.meta.env.DEV true: the site root taken from the page).
    const out = mkdtempSync(path.join(os.tmpdir(), 'ebx-pages-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV'));
    try {
      const output = execFileSync('sh', ['-c', `${build} -- --outDir ${out} --emptyOutDir 2>&1`], {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 600_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(output).not.toMatch(/PLUGIN_TIMINGS|bundlerTimings/);
      for (const page of ['index.html', 'embed/index.html']) {
        const html = readFileSync(path.join(out, page), 'utf8');
        expect(absoluteRefs(html), page).toEqual([]);
        expect(html).toMatch(/<script type="module" crossorigin src="\.{1,2}\/assets\//);
      }
      for (const file of ['sw.js', 'embed.js', 'boot-check.js', 'static-data/releases.json']) {
        expect(existsSync(path.join(out, file)), file).toBe(true);
      }
      // A production build finds the site's root from its scripts' own URL, never from the page's
      // (the embed page sits one folder down, and would look for static-data/ under embed/).
      const scripts = readdirSync(path.join(out, 'assets')).filter((f) => f.endsWith('.js'));
      const fromPage = scripts.filter((f) =>
        readFileSync(path.join(out, 'assets', f), 'utf8').includes('new URL(`./`,location.href)'),
      );
      expect(fromPage).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 600_000);
});
