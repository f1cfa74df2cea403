/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { securityHeadersPlugin } from './src/cli/security-headers.ts';
import { delivery } from './src/cli/vite-delivery.ts';
import { staticData } from './src/cli/vite-static-data.ts';

/** Unit test files whose tests may take up to a minute (the reasons are beside `projects` below). */
const SLOW_UNIT_TESTS = [
  'test/unit/core/explorer/**/*.test.ts',
  'test/unit/core/sample/sample-release.test.ts',
  'test/unit/core/scoring/session*.test.ts',
  'test/unit/core/scoring/cached-verdicts.test.ts',
  'test/unit/core/release/real-release.test.ts',
  'test/unit/core/parquet/footer-structure.test.ts',
  'test/unit/core/source-docs/lookup.test.ts',
  'test/unit/cli/**/*.test.ts',
  'test/unit/layering/core-boundary.test.ts',
  'test/unit/readme/readme-commands.test.ts',
  'test/unit/shared-inputs.test.ts',
];

export default defineConfig({
  // Relative asset URLs: one build serves from a host's root or any subpath (GitHub project pages).
  base: './',
  plugins: [svelte(), staticData(), securityHeadersPlugin(), delivery()],
  worker: { format: 'es', rolldownOptions: { checks: { bundlerTimings: false } } },
  optimizeDeps: {
    // They find their own wasm and worker files through import.meta.url: pre-bundling breaks that.
    exclude: ['@duckdb/duckdb-wasm', '@huggingface/transformers', 'onnxruntime-web'],
    // Imported only inside workers, so discovered late; listing them avoids a reload on first dev load.
    include: ['comlink', '@orama/orama', 'apache-arrow', 'hyparquet'],
  },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      // Slow-plugin warnings are for the bundler's developers; `npm start` users take them for errors.
      checks: { bundlerTimings: false },
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        embed: fileURLToPath(new URL('./embed/index.html', import.meta.url)),
      },
    },
  },
  preview: { port: 4173 },
  test: {
    environment: 'node',
    // A test must finish in 15 s, so that a hang shows quickly. The files under `slow` may take a
    // minute on a loaded machine, each for its reason: DuckDB queries over whole releases (explorer),
    // whole releases read, scored or rebuilt through the CLI, the real v1.0 files, a rebuilt model,
    // the README's commands in a fresh clone, eslint run on sample files (layering), and the 16 MB
    // junk footers of the parquet attack tests.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: SLOW_UNIT_TESTS,
          testTimeout: 15_000,
          hookTimeout: 15_000,
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW_UNIT_TESTS, testTimeout: 60_000, hookTimeout: 60_000 } },
    ],
  },
});
