/**
 * No import circles (issue 24, step 3): among the files of src/, and among the folders of
 * src/core and of src/app (a folder imports another when any of its files does). Type-only imports count too:
 * they tie the files together for the reader just the same. A failure prints each circle.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/shared.ts';

const src = path.join(projectRoot, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|svelte)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const SPECIFIER =
  /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** The project files a file imports (relative specifiers only). */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const out = new Set<string>();
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec?.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), spec.split('?')[0]!);
    const target = [base, `${base}.ts`, path.join(base, 'index.ts')].find((c) => known.has(c));
    if (target && target !== file) out.add(target);
  }
  return [...out];
}

/** The strongly connected components with more than one node (Tarjan), each as a cycle path. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) visit(v);
  return components.map((c) => cyclePath(graph, new Set(c)));
}

/** One circle through a component, from its first node (by name) back to it. */
function cyclePath(graph: ReadonlyMap<string, readonly string[]>, members: ReadonlySet<string>): string[] {
  const start = [...members].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const cycle = [start];
        for (let x = v; x !== start; x = previous.get(x)!) cycle.splice(1, 0, x);
        return [...cycle, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...members];
}

const files = sourceFiles(src);
const known = new Set(files);
const rel = (f: string) => path.relative(src, f).split(path.sep).join('/');
const fileGraph = new Map(files.map((f) => [rel(f), importsOf(f, known).map(rel)]));

/** Folders of `root` (core, app) as nodes: a folder imports another when any of its files does. */
function folderGraph(root: 'core' | 'app'): Map<string, string[]> {
  const folderOf = (f: string) => (f.startsWith(`${root}/`) && f.split('/').length > 2 ? f.split('/')[1]! : undefined);
  const graph = new Map<string, Set<string>>();
  for (const [from, targets] of fileGraph) {
    const a = folderOf(from);
    if (!a) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    for (const to of targets) {
      const b = folderOf(to);
      if (b && b !== a) graph.get(a)!.add(b);
    }
  }
  return new Map([...graph].map(([k, v]) => [k, [...v]]));
}

const show = (cycles: string[][]) => cycles.map((c) => c.join(' -> ')).join('\n');

describe('import circles', () => {
  it('finds a circle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(cyclesOf(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      cyclesOf(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads imports of every kind', () => {
    expect(fileGraph.get('cli/main.ts')).toEqual(expect.arrayContaining(['cli/cli.ts', 'cli/terminal.ts']));
    expect(fileGraph.size).toBeGreaterThan(200);
  });

  it('no file of src/ imports itself through others', () => {
    expect(show(cyclesOf(fileGraph))).toBe('');
  });

  it('no folder of src/core imports itself through others', () => {
    expect(show(cyclesOf(folderGraph('core')))).toBe('');
  });

  it('no folder of src/app imports itself through others', () => {
    expect(show(cyclesOf(folderGraph('app')))).toBe('');
  });
});
