/**
 * numpy's PCG64 bit generator (XSL-RR 128/64, default multiplier) with numpy's uint32
 * buffering, seeded exactly like numpy.random.default_rng(seed). The 128-bit state is kept
 * as eight 16-bit limbs in doubles so that every partial product is exact and no BigInt is
 * needed on the hot path.
 */
import { seedSequenceState64 } from './seed-sequence.ts';

const MULTIPLIER = 0x2360ed051fc65da44385df649fccf645n;
const LIMBS = 8;

function toLimbs(value: bigint): Float64Array {
  const limbs = new Float64Array(LIMBS);
  let v = BigInt.asUintN(128, value);
  for (let i = 0; i < LIMBS; i++) {
    limbs[i] = Number(v & 0xffffn);
    v >>= 16n;
  }
  return limbs;
}

function fromLimbs(limbs: Float64Array): bigint {
  let v = 0n;
  for (let i = LIMBS - 1; i >= 0; i--) v = (v << 16n) | BigInt(limbs[i]!);
  return v;
}

export class Pcg64 {
  private readonly state: Float64Array;
  private readonly inc: Float64Array;
  private readonly mult = toLimbs(MULTIPLIER);
  private hasUint32 = false;
  private bufferedUint32 = 0;
  /** High and low 32-bit halves of the last 64-bit output. */
  private outHi = 0;
  private outLo = 0;

  private constructor(state: bigint, inc: bigint) {
    this.state = toLimbs(state);
    this.inc = toLimbs(inc);
  }

  /** Generator state as numpy reports it in bit_generator.state['state']. */
  static fromState(state: bigint, inc: bigint): Pcg64 {
    return new Pcg64(state, inc);
  }

  /** numpy.random.default_rng(seed).bit_generator. */
  static fromSeed(seed: number | bigint): Pcg64 {
    const [s0, s1, i0, i1] = seedSequenceState64(seed, 4) as [bigint, bigint, bigint, bigint];
    const initState = (s0 << 64n) | s1;
    const initSeq = (i0 << 64n) | i1;
    const rng = new Pcg64(0n, BigInt.asUintN(128, (initSeq << 1n) | 1n));
    rng.step();
    rng.setState(BigInt.asUintN(128, rng.getState().state + initState));
    rng.step();
    return rng;
  }

  getState(): { state: bigint; inc: bigint } {
    return { state: fromLimbs(this.state), inc: fromLimbs(this.inc) };
  }

  private setState(state: bigint): void {
    this.state.set(toLimbs(state));
  }

  /** state = state * MULTIPLIER + inc (mod 2^128), column by column over 16-bit limbs. */
  private step(): void {
    const s = this.state;
    const m = this.mult;
    const c = this.inc;
    const s0 = s[0]!,
      s1 = s[1]!,
      s2 = s[2]!,
      s3 = s[3]!,
      s4 = s[4]!,
      s5 = s[5]!,
      s6 = s[6]!,
      s7 = s[7]!;
    const m0 = m[0]!,
      m1 = m[1]!,
      m2 = m[2]!,
      m3 = m[3]!,
      m4 = m[4]!,
      m5 = m[5]!,
      m6 = m[6]!,
      m7 = m[7]!;
    let col: number;
    let carry = 0;
    col = carry + c[0]! + s0 * m0;
    carry = Math.floor(col / 65536);
    s[0] = col - carry * 65536;
    col = carry + c[1]! + s0 * m1 + s1 * m0;
    carry = Math.floor(col / 65536);
    s[1] = col - carry * 65536;
    col = carry + c[2]! + s0 * m2 + s1 * m1 + s2 * m0;
    carry = Math.floor(col / 65536);
    s[2] = col - carry * 65536;
    col = carry + c[3]! + s0 * m3 + s1 * m2 + s2 * m1 + s3 * m0;
    carry = Math.floor(col / 65536);
    s[3] = col - carry * 65536;
    col = carry + c[4]! + s0 * m4 + s1 * m3 + s2 * m2 + s3 * m1 + s4 * m0;
    carry = Math.floor(col / 65536);
    s[4] = col - carry * 65536;
    col = carry + c[5]! + s0 * m5 + s1 * m4 + s2 * m3 + s3 * m2 + s4 * m1 + s5 * m0;
    carry = Math.floor(col / 65536);
    s[5] = col - carry * 65536;
    col = carry + c[6]! + s0 * m6 + s1 * m5 + s2 * m4 + s3 * m3 + s4 * m2 + s5 * m1 + s6 * m0;
    carry = Math.floor(col / 65536);
    s[6] = col - carry * 65536;
    col = carry + c[7]! + s0 * m7 + s1 * m6 + s2 * m5 + s3 * m4 + s4 * m3 + s5 * m2 + s6 * m1 + s7 * m0;
    carry = Math.floor(col / 65536);
    s[7] = col - carry * 65536;
  }

  /** One 64-bit output, left in outHi/outLo. */
  private next64(): void {
    this.step();
    const s = this.state;
    const xHi = ((s[7]! * 65536 + s[6]!) ^ (s[3]! * 65536 + s[2]!)) >>> 0;
    const xLo = ((s[5]! * 65536 + s[4]!) ^ (s[1]! * 65536 + s[0]!)) >>> 0;
    const rot = s[7]! >>> 10;
    if (rot === 0) {
      this.outHi = xHi;
      this.outLo = xLo;
    } else if (rot < 32) {
      this.outHi = ((xHi >>> rot) | (xLo << (32 - rot))) >>> 0;
      this.outLo = ((xLo >>> rot) | (xHi << (32 - rot))) >>> 0;
    } else if (rot === 32) {
      this.outHi = xLo;
      this.outLo = xHi;
    } else {
      const r = rot - 32;
      this.outHi = ((xLo >>> r) | (xHi << (32 - r))) >>> 0;
      this.outLo = ((xHi >>> r) | (xLo << (32 - r))) >>> 0;
    }
  }

  /** bit_generator.random_raw(): one uint64. */
  nextUint64(): bigint {
    this.next64();
    return (BigInt(this.outHi) << 32n) | BigInt(this.outLo);
  }

  /** numpy's next_uint32: low half of a fresh 64-bit output first, the high half next time. */
  nextUint32(): number {
    if (this.hasUint32) {
      this.hasUint32 = false;
      return this.bufferedUint32;
    }
    this.next64();
    this.hasUint32 = true;
    this.bufferedUint32 = this.outHi;
    return this.outLo;
  }

  /** Generator.random(): (uint64 >> 11) * 2^-53. */
  nextDouble(): number {
    this.next64();
    return (this.outHi * 2097152 + (this.outLo >>> 11)) / 9007199254740992;
  }
}
