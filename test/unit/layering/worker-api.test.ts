/**
 * Every worker exposes its API one way (issue 24, step 5): `const api = ...`, `export type XApi =
 * typeof api`, `Comlink.expose(api)`, and nothing else exposed on the worker's own scope (a port
 * handed over by the page may serve the same service).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/shared.ts';

const dir = path.join(projectRoot, 'workers');
const workers = readdirSync(dir).filter((n) => n.endsWith('.worker.ts'));

describe('worker APIs', () => {
  it('finds the workers', () => {
    expect(workers.length).toBeGreaterThanOrEqual(5);
  });

  it.each(workers)('%s names its API `api`, exports its type and exposes it', (name) => {
    const text = readFileSync(path.join(dir, name), 'utf8');
    expect(text).toMatch(/^const api = /m);
    expect(text).toMatch(/^export type \w+Api = typeof api;$/m);
    const exposed = [...text.matchAll(/Comlink\.expose\(([^,)]+)(?:,\s*([^)]+))?\)/g)];
    expect(exposed.filter((m) => m[2] === undefined).map((m) => m[1])).toEqual(['api']);
  });
});
