import { sha256HexSync } from '../../../../src/adapters/node/sha256.ts';
import { describe, expect, it } from 'vitest';
import { Sha256, sha256Hex } from '../../../../src/core/release/sha256.ts';
import { mulberry32 } from '../../../../src/core/random.ts';

describe('Sha256 (streamed)', () => {
  it('equals Web Crypto and node:crypto for every length around the block and padding edges, fed in pieces', async () => {
    const rand = mulberry32(7);
    for (const length of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 1000, 70_001]) {
      const bytes = Uint8Array.from({ length }, () => Math.floor(rand() * 256));
      const expected = sha256HexSync(bytes);
      expect(await sha256Hex(bytes)).toBe(expected);
      const hash = new Sha256();
      for (let at = 0; at < length;) {
        const step = 1 + Math.floor(rand() * 200);
        hash.update(bytes.subarray(at, at + step));
        at += step;
      }
      expect(hash.hex()).toBe(expected);
    }
  });
});
