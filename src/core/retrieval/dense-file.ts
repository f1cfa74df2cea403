/**
 * The dense vectors file (binary container, magic "EBDENSE\0"): header JSON with kind, model,
 * dim, count, chunkFingerprint (ties the file to the BM25 file's chunk table), hasInt8,
 * hasFloat32; sections mean (f32[dim]), scales (f32[dim]), codes (u32[count * ceil(dim/32)]),
 * then optionally int8 (i8[count * dim]) and float32 (f32[count * dim]).
 */
import {
  IndexFormatError,
  headerNumber,
  headerString,
  readContainer,
  typedView,
  writeContainer,
} from './binary-container.ts';
import { type ChunkTable, chunkTableFingerprint } from './chunk-table.ts';
import { DenseIndex } from './dense.ts';
import { codeWords } from './hamming.ts';

export const DENSE_MAGIC = 'EBDENSE\0';
export const DENSE_FORMAT_VERSION = 1;
const WHAT = 'dense vectors file';

export interface DenseWriteOptions {
  /** Store the float32 rows too (4x the int8 size). Default false. */
  includeFloat32?: boolean;
}

export function serializeDense(index: DenseIndex, options: DenseWriteOptions = {}): Uint8Array {
  const d = index.data;
  const sections: { name: string; data: ArrayBufferView }[] = [
    { name: 'mean', data: d.mean },
    { name: 'scales', data: d.scales },
    { name: 'codes', data: d.codes },
  ];
  if (d.int8) sections.push({ name: 'int8', data: d.int8 });
  const withFloat = Boolean(options.includeFloat32 && d.float32);
  if (withFloat) sections.push({ name: 'float32', data: d.float32! });
  return writeContainer(
    DENSE_MAGIC,
    DENSE_FORMAT_VERSION,
    {
      kind: 'dense',
      model: d.model,
      dim: d.dim,
      count: d.count,
      chunkFingerprint: chunkTableFingerprint(index.chunks),
      hasInt8: d.int8 !== null,
      hasFloat32: withFloat,
    },
    sections,
  );
}

/** Loads a dense file for the given chunk table (from the BM25 file of the same build). */
export function loadDense(data: ArrayBuffer | Uint8Array, chunks: ChunkTable): DenseIndex {
  const file = readContainer(data, DENSE_MAGIC, DENSE_FORMAT_VERSION, WHAT);
  const h = file.header;
  const model = headerString(h, 'model', WHAT);
  const dim = headerNumber(h, 'dim', WHAT, true);
  const count = headerNumber(h, 'count', WHAT, true);
  const fingerprint = headerString(h, 'chunkFingerprint', WHAT);
  const expected = chunkTableFingerprint(chunks);
  if (fingerprint !== expected) {
    throw new IndexFormatError(`${WHAT}: built for chunk table ${fingerprint}, but the BM25 index has ${expected}`);
  }
  if (dim === 0 || dim > 65535) throw new IndexFormatError(`${WHAT}: dim ${dim} out of range`);
  const hasInt8 = h['hasInt8'] === true;
  const hasFloat32 = h['hasFloat32'] === true;
  if (!hasInt8 && !hasFloat32) throw new IndexFormatError(`${WHAT}: holds neither int8 nor float32 rows`);
  return new DenseIndex(
    {
      model,
      dim,
      count,
      mean: typedView(Float32Array, file.section('mean'), dim, `${WHAT} section mean`),
      scales: typedView(Float32Array, file.section('scales'), dim, `${WHAT} section scales`),
      codes: typedView(Uint32Array, file.section('codes'), count * codeWords(dim), `${WHAT} section codes`),
      int8: hasInt8 ? typedView(Int8Array, file.section('int8'), count * dim, `${WHAT} section int8`) : null,
      float32: hasFloat32
        ? typedView(Float32Array, file.section('float32'), count * dim, `${WHAT} section float32`)
        : null,
    },
    chunks,
  );
}
