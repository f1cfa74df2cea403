import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

export default ts.config(
  { ignores: ['dist/', 'node_modules/', 'static-data/', 'public/', 'test-results/', 'playwright-report/', '.bench/'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'svelte/no-at-html-tags': 'error',
    },
  },
  {
    // src/core runs in the page, in workers and in Node: no platform modules, no UI, no globals of one host
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^node:',
              message: 'src/core runs in browsers too: put Node I/O in src/adapters/node or src/cli.',
            },
            {
              regex: '^(fs|path|os|url|crypto|child_process|zlib|http|https|stream)(/|$)',
              message: 'src/core runs in browsers too: no Node built-ins.',
            },
            { regex: '^svelte', message: 'src/core has no UI: Svelte belongs to src/app.' },
            {
              regex: '(^|/)(app|cli|adapters|sw)/',
              message: 'src/core depends on nothing outside it: pass what it needs in.',
            },
            {
              regex: '(^|/)workers/',
              message: 'src/core depends on nothing outside it: workers wire core to comlink.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'self',
          'location',
          'indexedDB',
          'localStorage',
          'sessionStorage',
          'navigator',
          'process',
        ].map((name) => ({
          name,
          message: `src/core runs in the page, workers and Node: take ${name} as a parameter instead.`,
        })),
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      parserOptions: { projectService: true, extraFileExtensions: ['.svelte'], parser: ts.parser, svelteConfig },
    },
  },
);
