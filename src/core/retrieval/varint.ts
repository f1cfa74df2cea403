/** Unsigned LEB128 varints (7 bits per byte, high bit = more), for values < 2^32. */

export class ByteWriter {
  private buf: Uint8Array;
  length = 0;

  constructor(initial = 1 << 16) {
    this.buf = new Uint8Array(initial);
  }

  writeVarint(value: number): void {
    if (this.length + 5 > this.buf.length) {
      const grown = new Uint8Array(Math.max(this.buf.length * 2, this.length + 5));
      grown.set(this.buf.subarray(0, this.length));
      this.buf = grown;
    }
    let v = value >>> 0;
    while (v >= 0x80) {
      this.buf[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[this.length++] = v;
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
