/** Chunk ids, document ids and the chunk -> document map that every index file carries. */
import { IndexFormatError } from './binary-container.ts';

export interface ChunkTable {
  /** Chunk ids in index order (chunk index i is the i-th chunk given to the builder). */
  chunkIds: string[];
  /** Document ids in order of first appearance among the chunks. */
  docIds: string[];
  /** chunkDoc[chunkIndex] = document index into docIds. */
  chunkDoc: Uint32Array;
}

/** Grows a ChunkTable chunk by chunk, rejecting duplicate chunk ids. */
export class ChunkTableBuilder {
  readonly chunkIds: string[] = [];
  readonly docIds: string[] = [];
  private readonly docIndex = new Map<string, number>();
  private readonly seenChunks = new Set<string>();
  private chunkDoc = new Uint32Array(1024);

  /** Adds one chunk and returns its chunk index. */
  add(chunkId: string, docId: string, where: string): number {
    checkId(chunkId, 'chunk_id', where);
    checkId(docId, 'doc_id', where);
    if (this.seenChunks.has(chunkId)) throw new Error(`${where}: duplicate chunk_id ${JSON.stringify(chunkId)}`);
    this.seenChunks.add(chunkId);
    let d = this.docIndex.get(docId);
    if (d === undefined) {
      d = this.docIds.length;
      this.docIndex.set(docId, d);
      this.docIds.push(docId);
    }
    const c = this.chunkIds.length;
    if (c === this.chunkDoc.length) {
      const grown = new Uint32Array(this.chunkDoc.length * 2);
      grown.set(this.chunkDoc);
      this.chunkDoc = grown;
    }
    this.chunkDoc[c] = d;
    this.chunkIds.push(chunkId);
    return c;
  }

  finish(): ChunkTable {
    return { chunkIds: this.chunkIds, docIds: this.docIds, chunkDoc: this.chunkDoc.slice(0, this.chunkIds.length) };
  }
}

function checkId(id: unknown, field: string, where: string): void {
  if (typeof id !== 'string' || id.length === 0) {
    throw new Error(`${where}: ${field} must be a non-empty string, found ${JSON.stringify(id)}`);
  }
  // NUL separates ids in the files; whitespace would break TREC run and qrels lines.
  if (/[\s\0]/.test(id)) throw new Error(`${where}: ${field} ${JSON.stringify(id)} contains whitespace or NUL`);
}

/** Strings joined by NUL as UTF-8 (ids never contain NUL: the builder rejects it). */
export function encodeStringList(strings: readonly string[]): Uint8Array {
  return new TextEncoder().encode(strings.join('\0'));
}

export function decodeStringList(bytes: Uint8Array, count: number, what: string): string[] {
  if (count === 0) {
    if (bytes.length !== 0) throw new IndexFormatError(`${what}: expected no strings, found ${bytes.length} bytes`);
    return [];
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new IndexFormatError(`${what}: not valid UTF-8`);
  }
  const list = text.split('\0');
  if (list.length !== count) throw new IndexFormatError(`${what}: expected ${count} strings, found ${list.length}`);
  return list;
}

/** 32-bit FNV-1a over the chunk ids, so a dense file can check it belongs to a chunk table. */
export function chunkTableFingerprint(table: ChunkTable): string {
  let h = 0x811c9dc5;
  for (const id of table.chunkIds) {
    for (let i = 0; i < id.length; i++) {
      h ^= id.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0;
    h = Math.imul(h, 0x01000193);
  }
  return `${table.chunkIds.length}:${(h >>> 0).toString(16).padStart(8, '0')}`;
}
