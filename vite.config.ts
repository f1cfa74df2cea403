/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { securityHeadersPlugin } from './src/cli/security-headers.ts';
import { delivery } from './src/cli/vite-delivery.ts';
import { staticData } from './src/cli/vite-static-data.ts';

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
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
