/**
 * Minimal zip support for judge-cache import/export: a writer that stores files uncompressed and a
 * reader for stored and deflated entries (via DecompressionStream('deflate-raw'), in browsers and
 * Node 20). No zip64, no encryption, no multi-disk archives.
 */
import { errorMessage } from '../error-message.ts';

export interface ZipFileInput {
  path: string;
  data: Uint8Array | string;
}

export interface ZipFile {
  path: string;
  data: Uint8Array;
}

export interface ZipReadLimits {
  maxEntries?: number;
  /** Sum of all uncompressed sizes (zip-bomb guard). */
  maxTotalBytes?: number;
  maxEntryBytes?: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_UTF8 = 0x0800;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
const VERSION = 20;
// Made by Unix: unzip tools then take names as the raw UTF-8 bytes they are, not as CP437.
const VERSION_MADE_BY_UNIX = (3 << 8) | VERSION;
const UNIX_FILE_MODE_ATTR = (0o100644 << 16) >>> 0;
const MAX_U16 = 0xffff;
const MAX_U32 = 0xffffffff;

const DEFAULT_LIMITS: Required<ZipReadLimits> = {
  maxEntries: 250_000,
  maxTotalBytes: 512 * 1024 * 1024,
  maxEntryBytes: 64 * 1024 * 1024,
};

let crcTable: Uint32Array | undefined;

export function crc32(data: Uint8Array): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = (crcTable[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** MS-DOS date and time fields (2-second resolution, years 1980..2107). */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getUTCFullYear(), 1980), 2107);
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** A zip archive holding the files uncompressed (method 0), in the given order. */
export function writeStoredZip(files: readonly ZipFileInput[], modified = new Date(Date.UTC(1980, 0, 1))): Uint8Array {
  if (files.length > MAX_U16) throw new Error(`zip: ${files.length} files, more than ${MAX_U16} (zip64 unsupported)`);
  const encoder = new TextEncoder();
  const stamp = dosDateTime(modified);
  const prepared = files.map((file) => {
    const name = encoder.encode(file.path);
    const data = typeof file.data === 'string' ? encoder.encode(file.data) : file.data;
    if (name.length === 0 || name.length > MAX_U16) throw new Error(`zip: bad file name length for ${file.path}`);
    if (data.length >= MAX_U32) throw new Error(`zip: ${file.path} is too large (zip64 unsupported)`);
    return { name, data, crc: crc32(data) };
  });
  const localSize = prepared.reduce((sum, f) => sum + 30 + f.name.length + f.data.length, 0);
  const centralSize = prepared.reduce((sum, f) => sum + 46 + f.name.length, 0);
  if (localSize + centralSize >= MAX_U32) throw new Error('zip: archive larger than 4 GiB (zip64 unsupported)');
  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  let pos = 0;
  const offsets: number[] = [];
  for (const f of prepared) {
    offsets.push(pos);
    view.setUint32(pos, SIG_LOCAL, true);
    view.setUint16(pos + 4, VERSION, true);
    view.setUint16(pos + 6, FLAG_UTF8, true);
    view.setUint16(pos + 8, METHOD_STORED, true);
    view.setUint16(pos + 10, stamp.time, true);
    view.setUint16(pos + 12, stamp.date, true);
    view.setUint32(pos + 14, f.crc, true);
    view.setUint32(pos + 18, f.data.length, true);
    view.setUint32(pos + 22, f.data.length, true);
    view.setUint16(pos + 26, f.name.length, true);
    view.setUint16(pos + 28, 0, true);
    out.set(f.name, pos + 30);
    out.set(f.data, pos + 30 + f.name.length);
    pos += 30 + f.name.length + f.data.length;
  }
  const centralStart = pos;
  prepared.forEach((f, i) => {
    view.setUint32(pos, SIG_CENTRAL, true);
    view.setUint16(pos + 4, VERSION_MADE_BY_UNIX, true);
    view.setUint16(pos + 6, VERSION, true);
    view.setUint16(pos + 8, FLAG_UTF8, true);
    view.setUint16(pos + 10, METHOD_STORED, true);
    view.setUint16(pos + 12, stamp.time, true);
    view.setUint16(pos + 14, stamp.date, true);
    view.setUint32(pos + 16, f.crc, true);
    view.setUint32(pos + 20, f.data.length, true);
    view.setUint32(pos + 24, f.data.length, true);
    view.setUint16(pos + 28, f.name.length, true);
    // extra length, comment length, disk number and internal attributes stay zero
    view.setUint32(pos + 38, UNIX_FILE_MODE_ATTR, true);
    view.setUint32(pos + 42, offsets[i] as number, true);
    out.set(f.name, pos + 46);
    pos += 46 + f.name.length;
  });
  view.setUint32(pos, SIG_END, true);
  view.setUint16(pos + 8, prepared.length, true);
  view.setUint16(pos + 10, prepared.length, true);
  view.setUint32(pos + 12, pos - centralStart, true);
  view.setUint32(pos + 16, centralStart, true);
  return out;
}

/** The files of a zip archive (folders left out), checked against their CRC-32. */
export async function readZip(bytes: Uint8Array, limits: ZipReadLimits = {}): Promise<ZipFile[]> {
  const max = { ...DEFAULT_LIMITS, ...limits };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfCentralDirectory(view);
  const count = view.getUint16(end + 10, true);
  const centralSize = view.getUint32(end + 12, true);
  const centralStart = view.getUint32(end + 16, true);
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0) {
    throw new Error('zip: multi-disk archives are not supported');
  }
  if (count === MAX_U16 || centralStart === MAX_U32 || centralSize === MAX_U32) {
    throw new Error('zip: zip64 archives are not supported');
  }
  if (centralStart + centralSize > end) throw new Error('zip: central directory lies outside the file');
  if (count > max.maxEntries) throw new Error(`zip: ${count} entries, more than the ${max.maxEntries} allowed`);

  const decoder = new TextDecoder();
  const files: ZipFile[] = [];
  let totalBytes = 0;
  let pos = centralStart;
  for (let i = 0; i < count; i++) {
    if (pos + 46 > end || view.getUint32(pos, true) !== SIG_CENTRAL) {
      throw new Error(`zip: central directory entry ${i + 1} is damaged`);
    }
    const flags = view.getUint16(pos + 8, true);
    const method = view.getUint16(pos + 10, true);
    const crc = view.getUint32(pos + 16, true);
    const compressedSize = view.getUint32(pos + 20, true);
    const size = view.getUint32(pos + 24, true);
    const nameLength = view.getUint16(pos + 28, true);
    const extraLength = view.getUint16(pos + 30, true);
    const commentLength = view.getUint16(pos + 32, true);
    const localOffset = view.getUint32(pos + 42, true);
    const path = decoder.decode(bytes.subarray(pos + 46, pos + 46 + nameLength));
    pos += 46 + nameLength + extraLength + commentLength;
    if (path.endsWith('/')) continue;
    if (flags & FLAG_ENCRYPTED) throw new Error(`zip: ${path} is encrypted`);
    if (size > max.maxEntryBytes) throw new Error(`zip: ${path} is ${size} bytes, more than ${max.maxEntryBytes}`);
    totalBytes += size;
    if (totalBytes > max.maxTotalBytes) throw new Error(`zip: contents exceed ${max.maxTotalBytes} bytes`);
    const raw = entryData(view, bytes, localOffset, compressedSize, path);
    let data: Uint8Array;
    if (method === METHOD_STORED) {
      if (compressedSize !== size) throw new Error(`zip: ${path} is stored but its sizes differ`);
      data = raw.slice();
    } else if (method === METHOD_DEFLATE) {
      data = await inflateRaw(raw, size, path);
    } else {
      throw new Error(`zip: ${path} uses compression method ${method}; only stored (0) and deflate (8) are supported`);
    }
    if (crc32(data) !== crc) throw new Error(`zip: ${path} fails its CRC-32 check (damaged archive)`);
    files.push({ path, data });
  }
  return files;
}

function findEndOfCentralDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - 22 - MAX_U16);
  for (let pos = view.byteLength - 22; pos >= lowest; pos--) {
    if (view.getUint32(pos, true) === SIG_END) return pos;
  }
  throw new Error('zip: no end-of-central-directory record (not a zip file, or truncated)');
}

function entryData(view: DataView, bytes: Uint8Array, offset: number, size: number, path: string): Uint8Array {
  if (offset + 30 > view.byteLength || view.getUint32(offset, true) !== SIG_LOCAL) {
    throw new Error(`zip: local header of ${path} is damaged`);
  }
  const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
  if (start + size > view.byteLength) throw new Error(`zip: data of ${path} runs past the end of the file`);
  return bytes.subarray(start, start + size);
}

async function inflateRaw(compressed: Uint8Array, expectedSize: number, path: string): Promise<Uint8Array> {
  const input = new ReadableStream<BufferSource>({
    start(controller) {
      controller.enqueue(compressed.slice());
      controller.close();
    },
  });
  const reader = input.pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const out = new Uint8Array(expectedSize);
  let filled = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (filled + value.length > expectedSize) {
        await reader.cancel();
        throw new Error(`zip: ${path} inflates to more than its declared ${expectedSize} bytes`);
      }
      out.set(value, filled);
      filled += value.length;
    }
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('zip:')) throw error;
    throw new Error(`zip: ${path} has damaged deflate data (${errorMessage(error)})`, {
      cause: error,
    });
  }
  if (filled !== expectedSize) throw new Error(`zip: ${path} inflates to ${filled} bytes, declared ${expectedSize}`);
  return out;
}
