/**
 * The Hamming distances of the dense scan in WebAssembly SIMD: per row, xor 16 bytes of code with
 * the query, i8x16.popcnt, add; one horizontal sum per row. About 3x faster than the unrolled
 * SWAR popcount in JS, which stays as the fallback where SIMD is missing (hamming.ts).
 *
 * The module is a few dozen bytes, assembled here rather than shipped as a .wasm file, so the
 * core stays a plain TS module that runs unchanged in the page, workers and Node.
 */

// Opcodes (WebAssembly core spec, binary format; SIMD ones follow the 0xfd prefix).
const I32 = 0x7f;
const V128 = 0x7b;
const BLOCK = 0x02;
const LOOP = 0x03;
const VOID = 0x40;
const END = 0x0b;
const BR_IF = 0x0d;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_STORE16 = 0x3b;
const I32_CONST = 0x41;
const I32_EQZ = 0x45;
const I32_LT_U = 0x49;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_SHL = 0x74;
const SIMD = 0xfd;
const V128_LOAD = 0x00;
const I8X16_SPLAT = 0x0f;
const I32X4_EXTRACT_LANE = 0x1b;
const V128_XOR = 0x51;
const I8X16_POPCNT = 0x62;
const I8X16_ADD = 0x6e;
const I16X8_EXTADD_PAIRWISE_I8X16_U = 0x7d;
const I32X4_EXTADD_PAIRWISE_I16X8_U = 0x7f;

// scan(codes, rows, vecs, query, out): out[r] = popcount(code[r] xor query), codes of vecs x 16 bytes.
const [CODES, ROWS, VECS, QUERY, OUT, R, V, P, Q, ACC] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;

function scanBody(): number[] {
  const get = (i: number) => [LOCAL_GET, i];
  const set = (i: number) => [LOCAL_SET, i];
  const add = (i: number, n: number) => [...get(i), I32_CONST, n, I32_ADD, ...set(i)];
  const lane = (n: number) => [...get(ACC), SIMD, I32X4_EXTRACT_LANE, n];
  return [
    ...[2, 4, I32, 1, V128], // locals: r, v, p, q (i32); acc (v128)
    ...get(CODES),
    ...set(P),
    ...[BLOCK, VOID, ...get(ROWS), I32_EQZ, BR_IF, 0],
    ...[LOOP, VOID],
    ...[I32_CONST, 0, SIMD, I8X16_SPLAT, ...set(ACC), ...get(QUERY), ...set(Q), ...get(VECS), ...set(V)],
    ...[LOOP, VOID],
    ...[...get(ACC), ...get(P), SIMD, V128_LOAD, 0, 0, ...get(Q), SIMD, V128_LOAD, 0, 0],
    ...[SIMD, V128_XOR, SIMD, I8X16_POPCNT, SIMD, I8X16_ADD, ...set(ACC)],
    ...add(P, 16),
    ...add(Q, 16),
    ...[...get(V), I32_CONST, 1, I32_SUB, LOCAL_TEE, V, BR_IF, 0, END],
    ...[...get(OUT), ...get(R), I32_CONST, 1, I32_SHL, I32_ADD],
    ...[...get(ACC), SIMD, I16X8_EXTADD_PAIRWISE_I8X16_U, SIMD, I32X4_EXTADD_PAIRWISE_I16X8_U, ...set(ACC)],
    ...[...lane(0), ...lane(1), I32_ADD, ...lane(2), I32_ADD, ...lane(3), I32_ADD],
    ...[I32_STORE16, 1, 0],
    ...[...get(R), I32_CONST, 1, I32_ADD, LOCAL_TEE, R, ...get(ROWS), I32_LT_U, BR_IF, 0, END],
    ...[END, END],
  ];
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    const byte = n & 0x7f;
    n >>>= 7;
    out.push(n > 0 ? byte | 0x80 : byte);
  } while (n > 0);
  return out;
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function name(text: string): number[] {
  return [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];
}

export function hammingModuleBytes(): Uint8Array<ArrayBuffer> {
  const body = scanBody();
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, 1]),
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('scan'), 0x00, 0]),
    ...section(10, [1, ...uleb(body.length), ...body]),
  ]);
}

/** Code widths the scan handles: whole 16-byte vectors, at most 31 (the per-byte sums stay < 256). */
export function wasmScanFits(words: number): boolean {
  return words % 4 === 0 && words / 4 >= 1 && words / 4 <= 31;
}

let compiled: WebAssembly.Module | null | undefined;

function hammingModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    const bytes = hammingModuleBytes();
    try {
      compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      compiled = null; // e.g. a Content-Security-Policy without 'wasm-unsafe-eval': the JS scan serves
    }
  }
  return compiled;
}

/** Holds a copy of the codes in wasm memory; distances() fills one u16 per row. */
export class WasmHammingScan {
  private readonly scan: (codes: number, rows: number, vecs: number, query: number, out: number) => void;
  private readonly queryAt: number;
  private readonly outAt: number;
  private readonly queryBytes: Uint8Array;
  private readonly out: Uint16Array;

  private constructor(
    instance: WebAssembly.Instance,
    codes: Uint32Array,
    private readonly words: number,
    private readonly rows: number,
  ) {
    const memory = instance.exports['memory'] as WebAssembly.Memory;
    this.scan = instance.exports['scan'] as WasmHammingScan['scan'];
    this.queryAt = rows * words * 4;
    this.outAt = this.queryAt + words * 4;
    const pages = Math.ceil((this.outAt + rows * 2) / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
    new Uint32Array(memory.buffer, 0, rows * words).set(codes.subarray(0, rows * words));
    this.queryBytes = new Uint8Array(memory.buffer, this.queryAt, words * 4);
    this.out = new Uint16Array(memory.buffer, this.outAt, rows);
  }

  /** A scanner for these codes, or undefined where WebAssembly SIMD is unavailable or the width does not fit. */
  static create(codes: Uint32Array, words: number, rows: number): WasmHammingScan | undefined {
    if (!wasmScanFits(words) || rows === 0) return undefined;
    const module = hammingModule();
    if (!module) return undefined;
    return new WasmHammingScan(new WebAssembly.Instance(module), codes, words, rows);
  }

  /** Hamming distance of every row's code to `query` (a view into wasm memory, valid until the next call). */
  distances(query: Uint32Array): Uint16Array {
    this.queryBytes.set(new Uint8Array(query.buffer, query.byteOffset, this.words * 4));
    this.scan(0, this.rows, this.words / 4, this.queryAt, this.outAt);
    return this.out;
  }
}
