/**
 * numpy.random.SeedSequence(entropy).generate_state(n, uint64) for a non-negative integer
 * entropy and no spawn key: the seeding step of numpy.random.default_rng(seed).
 * All arithmetic is uint32 with wrap-around, as in numpy's bit_generator.pyx.
 */
const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const XSHIFT = 16;
const POOL_SIZE = 4;

function entropyWords(seed: bigint): number[] {
  if (seed < 0n) throw new RangeError('SeedSequence entropy must be non-negative');
  if (seed === 0n) return [0];
  const words: number[] = [];
  for (let s = seed; s > 0n; s >>= 32n) words.push(Number(s & 0xffffffffn));
  return words;
}

function mix(x: number, y: number): number {
  let result = (Math.imul(MIX_MULT_L, x) - Math.imul(MIX_MULT_R, y)) >>> 0;
  result = (result ^ (result >>> XSHIFT)) >>> 0;
  return result;
}

function mixEntropy(entropy: readonly number[]): number[] {
  let hashConst = INIT_A;
  const hashmix = (value: number): number => {
    let v = (value ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_A) >>> 0;
    v = Math.imul(v, hashConst) >>> 0;
    return (v ^ (v >>> XSHIFT)) >>> 0;
  };
  const pool: number[] = [];
  for (let i = 0; i < POOL_SIZE; i++) pool.push(hashmix(i < entropy.length ? entropy[i]! : 0));
  for (let src = 0; src < POOL_SIZE; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) {
      if (src !== dst) pool[dst] = mix(pool[dst]!, hashmix(pool[src]!));
    }
  }
  for (let src = POOL_SIZE; src < entropy.length; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) pool[dst] = mix(pool[dst]!, hashmix(entropy[src]!));
  }
  return pool;
}

/** generate_state(nWords, np.uint64): little-endian pairs of the uint32 stream. */
export function seedSequenceState64(seed: number | bigint, nWords: number): bigint[] {
  const pool = mixEntropy(entropyWords(BigInt(seed)));
  let hashConst = INIT_B;
  const words32: number[] = [];
  for (let i = 0; i < nWords * 2; i++) {
    let v = (pool[i % POOL_SIZE]! ^ hashConst) >>> 0;
    hashConst = Math.imul(hashConst, MULT_B) >>> 0;
    v = Math.imul(v, hashConst) >>> 0;
    words32.push((v ^ (v >>> XSHIFT)) >>> 0);
  }
  const out: bigint[] = [];
  for (let i = 0; i < nWords; i++) out.push((BigInt(words32[2 * i + 1]!) << 32n) | BigInt(words32[2 * i]!));
  return out;
}
