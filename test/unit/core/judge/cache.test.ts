import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenCases, goldenDir, hasShared, sharedNote } from '../../../support/shared.ts';
import {
  cacheFilesToMap,
  mapToCacheFiles,
  MemoryJudgeCache,
  parseVerdictsJson,
  serializeVerdictsJson,
} from '../../../../src/core/judge/cache.ts';
import { readCacheZip, writeCacheZip } from '../../../../src/core/judge/cache-zip.ts';

const KEY_A = 'ab' + '0'.repeat(62);
const KEY_B = '3f' + '1'.repeat(62);

describe('MemoryJudgeCache', () => {
  it('stores and returns replies', async () => {
    const cache = new MemoryJudgeCache([[KEY_A, 'a']]);
    expect(await cache.get(KEY_A)).toBe('a');
    expect(await cache.get(KEY_B)).toBeUndefined();
    await cache.set(KEY_B, 'b');
    expect(await cache.get(KEY_B)).toBe('b');
  });
});

describe('verdicts.json format', () => {
  it('writes sorted keys, indent 1, ASCII escapes and a final newline', () => {
    const map = new Map([
      [KEY_A, '{"correct": true}'],
      [KEY_B, 'ünï ✓ "q"\n\u007f 😀'],
    ]);
    const text = serializeVerdictsJson(map);
    expect(text).toBe(
      `{\n "${KEY_B}": "\\u00fcn\\u00ef \\u2713 \\"q\\"\\n\\u007f \\ud83d\\ude00",\n "${KEY_A}": "{\\"correct\\": true}"\n}\n`,
    );
    expect(parseVerdictsJson(text)).toEqual(map);
    expect(serializeVerdictsJson(new Map())).toBe('{}\n');
  });

  it('rejects malformed maps with the source and key named', () => {
    expect(() => parseVerdictsJson('[1]', 'up.json')).toThrow(/up\.json: expected a JSON object.*found an array/);
    expect(() => parseVerdictsJson('{"nothex": "x"}', 'up.json')).toThrow(/up\.json: key "nothex" is not a 64-hex/);
    expect(() => parseVerdictsJson(`{"${KEY_A}": 3}`, 'up.json')).toThrow(
      new RegExp(`up\\.json: value of key ${KEY_A} should be the reply text \\(a string\\), found number 3`),
    );
    expect(() => parseVerdictsJson('{', 'up.json')).toThrow(/up\.json: not valid JSON/);
  });

  it('matches Python json.dumps string escaping for control characters', () => {
    const text = serializeVerdictsJson(new Map([[KEY_A, '\u0000\u001f\b\f\r\t\\']]));
    expect(text).toBe(`{\n "${KEY_A}": "\\u0000\\u001f\\b\\f\\r\\t\\\\"\n}\n`);
  });
});

describe('on-disk cache layout', () => {
  it('turns file entries into a map and back', () => {
    const map = new Map([
      [KEY_A, '{"identified": true}'],
      [KEY_B, 'reply with "quotes" and é'],
    ]);
    const files = mapToCacheFiles(map, 'build/llm_cache');
    expect(files.map((f) => f.path)).toEqual([`build/llm_cache/3f/${KEY_B}.json`, `build/llm_cache/ab/${KEY_A}.json`]);
    expect(files[1]!.text).toBe('{"text": "{\\"identified\\": true}"}');
    const back = cacheFilesToMap([...files, { path: 'build/llm_cache/README.md', text: 'hi' }]);
    expect(back.map).toEqual(map);
    expect(back.skipped).toEqual(['build/llm_cache/README.md']);
  });

  it('accepts bare and Windows-style paths', () => {
    const files = [
      { path: `ab/${KEY_A}.json`, text: '{"text": "x"}' },
      { path: `llm_cache\\3f\\${KEY_B}.json`, text: '{"text": "y", "extra": 1}' },
    ];
    expect(cacheFilesToMap(files).map).toEqual(
      new Map([
        [KEY_A, 'x'],
        [KEY_B, 'y'],
      ]),
    );
  });

  it('names the file and the problem for bad entries', () => {
    expect(() => cacheFilesToMap([{ path: `cd/${KEY_A}.json`, text: '{"text": "x"}' }])).toThrow(
      new RegExp(`cd/${KEY_A}\\.json: cache file is in folder cd/ but its key starts with ab`),
    );
    expect(() => cacheFilesToMap([{ path: `ab/${KEY_A}.json`, text: '{"reply": "x"}' }])).toThrow(
      /expected \{"text": "<reply>"\}, found an object with keys \["reply"\]/,
    );
    expect(() => cacheFilesToMap([{ path: `ab/${KEY_A}.json`, text: 'nope' }])).toThrow(/not valid JSON/);
  });

  it('round-trips through a zip', async () => {
    const map = new Map([
      [KEY_A, '{"correct": false, "is_refusal": true}'],
      [KEY_B, 'ünïcode'],
    ]);
    const zip = writeCacheZip(map);
    const read = await readCacheZip(zip);
    expect(read.map).toEqual(map);
    expect(read.skipped).toEqual([]);
  });
});

describe.skipIf(!hasShared)(`golden verdicts files (${sharedNote})`, () => {
  for (const name of goldenCases) {
    it(`reads and rewrites ${name}/verdicts.json byte for byte`, () => {
      const text = readFileSync(path.join(goldenDir, 'scoring', name, 'verdicts.json'), 'utf8');
      const map = parseVerdictsJson(text);
      expect(map.size).toBeGreaterThan(10);
      expect(serializeVerdictsJson(map)).toBe(text);
      expect(cacheFilesToMap(mapToCacheFiles(map)).map).toEqual(map);
    });
  }
});
