/** Parquet footers built byte by byte for the tests of the structural check and of its readers. */

/** The Hugging Face shard reader's footer limit, which the attack stays just under. */
export const FOOTER_LIMIT = 16 * 2 ** 20;

/** Thrift metadata bytes followed by their length and "PAR1". */
export function footer(metadata: Uint8Array): Uint8Array {
  const out = new Uint8Array(metadata.byteLength + 8);
  out.set(metadata);
  const view = new DataView(out.buffer);
  view.setUint32(metadata.byteLength, metadata.byteLength, true);
  view.setUint32(metadata.byteLength + 4, 0x31524150, true);
  return out;
}

export function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/**
 * The attack: a FileMetaData whose schema list holds `n` SchemaElements with only an empty name
 * (3 bytes each), well-formed thrift that hyparquet turns into millions of objects.
 */
export function junkSchemaFooter(n: number): Uint8Array {
  const head = [0x15, 0x02, 0x19, 0xfc, ...varint(n)];
  const tail = [0x16, 0x00, 0x19, 0x0c, 0x00];
  const bytes = new Uint8Array(head.length + 3 * n + tail.length);
  bytes.set(head);
  for (let i = 0; i < n; i++) bytes[head.length + 3 * i] = 0x48; // field 4, binary, length 0, stop
  bytes.set(tail, head.length + 3 * n);
  return footer(bytes);
}

/** A whole parquet file ("PAR1", then the attack footer just under the limit). */
export function junkParquetFile(): Uint8Array {
  const junk = junkSchemaFooter(Math.floor((FOOTER_LIMIT - 64) / 3));
  const file = new Uint8Array(junk.byteLength + 4);
  file.set(new TextEncoder().encode('PAR1'));
  file.set(junk, 4);
  return file;
}
