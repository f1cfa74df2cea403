import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeMap, type BenchmarkMap } from '../../../../src/core/map/layout.ts';
import { MapFileError, mapFileText, parseMapFile } from '../../../../src/core/map/map-file.ts';
import { neighbourShare } from '../../../../src/core/map/quality.ts';
import { nearestNeighbours, termVectors } from '../../../../src/core/map/term-vectors.ts';
import { tokenize } from '../../../../src/core/retrieval/tokenize.ts';
import { hasShared, projectRoot, sharedNote, v10Dir } from '../../../support/shared.ts';

interface Question {
  task_id: string;
  question: string;
}

const questionsOf = (file: string): Question[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Question);

const mapOf = (qs: Question[]) => computeMap(qs.map((q) => ({ id: q.task_id, text: q.question })));

/** The share of each task's map neighbours among its vector-space neighbours, and chance's. */
function keptNeighbours(qs: Question[], map: BenchmarkMap, kMap: number, kVectors: number) {
  const vectorNear = nearestNeighbours(termVectors(qs.map((q) => q.question)).rows, kVectors + 1).indices.map((r) =>
    r.slice(1),
  );
  return neighbourShare(map.points, vectorNear, kMap, kVectors);
}

const sample = questionsOf(path.join(projectRoot, 'static-data/sample/full/questions.jsonl'));
const sampleMap = mapOf(sample);

describe('the map of the sample', () => {
  it("keeps neighbours: a task's 10 nearest on the map are among its 10 nearest questions ≥ 8 times as often as chance", () => {
    // With 150 tasks, "10 on the map among 50 in the vectors" can be at most 2.98 times chance
    // (a share is at most 1, chance is 50/149); the neighbourhoods are scaled to the sample's size.
    const { share, chance } = keptNeighbours(sample, sampleMap, 10, 10);
    expect(share / chance).toBeGreaterThanOrEqual(8);
  });

  it('is the same for the same release, and another seed gives another layout', () => {
    expect(mapFileText(mapOf(sample))).toBe(mapFileText(sampleMap));
    const other = computeMap(
      sample.map((q) => ({ id: q.task_id, text: q.question })),
      { seed: 7 },
    );
    expect(other.points.map((p) => [p.x, p.y])).not.toEqual(sampleMap.points.map((p) => [p.x, p.y]));
  });

  it('labels each region with words its questions use, and counts its points', () => {
    expect(sampleMap.regions.length).toBeGreaterThanOrEqual(2);
    for (const r of sampleMap.regions) {
      const members = sample.filter((_, i) => sampleMap.points[i]!.region === r.region);
      expect(members.length).toBe(r.count);
      const words = r.label.split(', ');
      expect(words.length).toBeGreaterThan(0);
      for (const word of words) {
        const using = members.filter((q) => tokenize(q.question).includes(word));
        expect(using.length, `"${word}" in region ${r.region}`).toBeGreaterThanOrEqual(Math.min(2, r.count));
      }
    }
  });

  it('places every point in [0, 1] with four decimals', () => {
    for (const p of sampleMap.points) {
      for (const v of [p.x, p.y]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
        expect(Math.round(v * 1e4) / 1e4).toBe(v);
      }
    }
  });
});

describe.skipIf(!hasShared)(`the map of v1.0 (${sharedNote})`, () => {
  it("keeps neighbours: a task's 10 nearest on the map are among its 50 nearest questions ≥ 8 times as often as chance", () => {
    const qs = questionsOf(path.join(v10Dir, 'full/questions.jsonl'));
    const map = mapOf(qs);
    const { share, chance } = keptNeighbours(qs, map, 10, 50);
    expect(share / chance).toBeGreaterThanOrEqual(8);
  });
});

describe('the map file', () => {
  it('reads back what it writes', () => {
    expect(parseMapFile(mapFileText(sampleMap))).toEqual(sampleMap);
  });

  it.each([
    ['{"id":"a","layer":"task","x":0.5,"y":2,"region":0}\n{"region":0,"label":"x","count":1}', 'line 1: "x" and "y"'],
    ['{"id":"a","layer":"chunk","x":0.5,"y":0.5,"region":0}', 'line 1: "layer" must be one of task'],
    [
      '{"region":0,"label":"x","count":1}\n{"id":"a","layer":"task","x":0.5,"y":0.5,"region":0}',
      'line 2: a point after',
    ],
    ['{"id":"a","layer":"task","x":0.5,"y":0.5,"region":3}', 'names region 3, which no line defines'],
    ['{"id":"a"', 'line 1: not JSON'],
  ])('refuses %s, saying where', (text, message) => {
    expect(() => parseMapFile(text, 'map.jsonl')).toThrow(MapFileError);
    expect(() => parseMapFile(text, 'map.jsonl')).toThrow(message);
  });
});
