/**
 * One-file binary container shared by the BM25 and dense index files.
 *
 * Layout (little endian):
 *   bytes 0..7   magic (8 ASCII bytes, names the file kind)
 *   bytes 8..11  u32 format version
 *   bytes 12..15 u32 byte length J of the JSON header
 *   bytes 16..   J bytes of UTF-8 JSON: the kind's own fields plus
 *                `sections: [{name, offset, byteLength}]` (offsets from the file start)
 *   then the sections, each starting on an 8-byte boundary so typed arrays can view the
 *   buffer in place without copying.
 * Only the small header is JSON; bulk data is never parsed as text.
 */

export interface SectionEntry {
  name: string;
  offset: number;
  byteLength: number;
}

export interface ContainerHeader {
  sections: SectionEntry[];
  [key: string]: unknown;
}

export class IndexFormatError extends Error {
  override name = 'IndexFormatError';
}

const PREFIX_BYTES = 16;
const ALIGN = 8;
/** A header larger than this is not a header we wrote. */
const MAX_HEADER_BYTES = 1 << 20;

const littleEndianHost = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function alignUp(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

function assertLittleEndianHost(): void {
  // Every browser and Node platform we target is little endian; typed arrays use host order.
  if (!littleEndianHost) throw new IndexFormatError('index files need a little-endian host');
}

/** Serialises a header object and named typed-array sections into one file. */
export function writeContainer(
  magic: string,
  version: number,
  header: Record<string, unknown>,
  sections: ReadonlyArray<{ name: string; data: ArrayBufferView }>,
): Uint8Array {
  assertLittleEndianHost();
  if (magic.length !== 8 || [...magic].some((ch) => ch.charCodeAt(0) > 0x7e))
    throw new Error('magic must be 8 ASCII chars');
  // Offsets depend on the header length and the header lists the offsets: grow the room left
  // for the header until the header fits in it (the header only grows with the offsets).
  let entries: SectionEntry[] = [];
  let json: Uint8Array;
  for (let room = 0; ; room = json.length) {
    let offset = alignUp(PREFIX_BYTES + room);
    entries = sections.map((s) => {
      const e = { name: s.name, offset, byteLength: s.data.byteLength };
      offset = alignUp(offset + s.data.byteLength);
      return e;
    });
    json = new TextEncoder().encode(JSON.stringify({ ...header, sections: entries }));
    if (PREFIX_BYTES + json.length <= alignUp(PREFIX_BYTES + room)) break;
  }
  const last = entries[entries.length - 1];
  const total = last ? last.offset + last.byteLength : alignUp(PREFIX_BYTES + json.length);
  const out = new Uint8Array(total);
  for (let i = 0; i < 8; i++) out[i] = magic.charCodeAt(i);
  const dv = new DataView(out.buffer);
  dv.setUint32(8, version, true);
  dv.setUint32(12, json.length, true);
  out.set(json, PREFIX_BYTES);
  sections.forEach((s, i) => out.set(bytesOf(s.data), entries[i]!.offset));
  return out;
}

export interface Container {
  header: ContainerHeader;
  /** The bytes of a section (a view, no copy). Throws if the section is missing. */
  section(name: string): Uint8Array;
}

/** Parses the prefix and JSON header of a container file and checks the section table. */
export function readContainer(data: ArrayBuffer | Uint8Array, magic: string, version: number, what: string): Container {
  assertLittleEndianHost();
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes.length < PREFIX_BYTES) throw new IndexFormatError(`${what}: file too short (${bytes.length} bytes)`);
  const found = String.fromCharCode(...bytes.subarray(0, 8));
  if (found !== magic) {
    throw new IndexFormatError(`${what}: expected magic ${JSON.stringify(magic)}, found ${JSON.stringify(found)}`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fileVersion = dv.getUint32(8, true);
  if (fileVersion !== version) {
    throw new IndexFormatError(`${what}: expected format version ${version}, found ${fileVersion}`);
  }
  const jsonLength = dv.getUint32(12, true);
  if (jsonLength > MAX_HEADER_BYTES || PREFIX_BYTES + jsonLength > bytes.length) {
    throw new IndexFormatError(`${what}: header length ${jsonLength} does not fit the file`);
  }
  let header: unknown;
  try {
    header = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + jsonLength)),
    );
  } catch (e) {
    throw new IndexFormatError(`${what}: header is not valid UTF-8 JSON (${(e as Error).message})`);
  }
  if (typeof header !== 'object' || header === null || !Array.isArray((header as { sections?: unknown }).sections)) {
    throw new IndexFormatError(`${what}: header has no "sections" list`);
  }
  const sections = new Map<string, SectionEntry>();
  for (const raw of (header as { sections: unknown[] }).sections) {
    const e = raw as Partial<SectionEntry>;
    if (
      typeof e.name !== 'string' ||
      !Number.isInteger(e.offset) ||
      !Number.isInteger(e.byteLength) ||
      e.offset! % ALIGN !== 0 ||
      e.offset! < PREFIX_BYTES + jsonLength ||
      e.byteLength! < 0 ||
      e.offset! + e.byteLength! > bytes.length
    ) {
      throw new IndexFormatError(`${what}: bad section entry ${JSON.stringify(raw)} (file is ${bytes.length} bytes)`);
    }
    sections.set(e.name, e as SectionEntry);
  }
  return {
    header: header as ContainerHeader,
    section(name: string): Uint8Array {
      const e = sections.get(name);
      if (!e) throw new IndexFormatError(`${what}: missing section "${name}"`);
      return bytes.subarray(e.offset, e.offset + e.byteLength);
    },
  };
}

type TypedCtor<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

/** Views section bytes as a typed array of `length` elements (copies only if misaligned). */
export function typedView<T>(ctor: TypedCtor<T>, bytes: Uint8Array, length: number, what: string): T {
  const size = ctor.BYTES_PER_ELEMENT;
  if (bytes.byteLength !== length * size) {
    throw new IndexFormatError(`${what}: expected ${length * size} bytes, found ${bytes.byteLength}`);
  }
  if (bytes.byteOffset % size === 0) return new ctor(bytes.buffer, bytes.byteOffset, length);
  const copy = bytes.slice();
  return new ctor(copy.buffer, 0, length);
}

/** Reads a required finite number field of a header. */
export function headerNumber(header: ContainerHeader, key: string, what: string, integer = false): number {
  const v = header[key];
  if (typeof v !== 'number' || !Number.isFinite(v) || (integer && (!Number.isInteger(v) || v < 0))) {
    throw new IndexFormatError(
      `${what}: header field "${key}" must be a ${integer ? 'non-negative integer' : 'number'}, found ${JSON.stringify(v)}`,
    );
  }
  return v;
}

export function headerString(header: ContainerHeader, key: string, what: string): string {
  const v = header[key];
  if (typeof v !== 'string')
    throw new IndexFormatError(`${what}: header field "${key}" must be a string, found ${JSON.stringify(v)}`);
  return v;
}
