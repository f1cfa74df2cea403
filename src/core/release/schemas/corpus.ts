/** Corpus records: docs, chunks, the entity alias index and targets (spec 1.7, 1.9). */
import type { Chunk, CorpusDoc, EntityIndex } from '../types.ts';
import {
  anyString,
  arrayOf,
  docId,
  nonEmptyString,
  object,
  oneOf,
  recordOf,
  refine,
  report,
  str,
  type Validator,
} from '../validate.ts';
import { docIds } from './common.ts';

export const corpusDocValidator: Validator<CorpusDoc> = object({
  doc_id: docId,
  text: anyString,
  quality: oneOf(['clean', 'degraded', 'garbage']),
  meta: object({ file_name: anyString, file_type: anyString, online_url: anyString }),
});

export const CHUNK_ID_RE = /^(.+)#(0|[1-9][0-9]*)$/;

/** `EFTA00432308#3` -> the doc id and the chunk's index, or undefined. */
export function splitChunkId(chunkId: string): { docId: string; index: number } | undefined {
  const m = CHUNK_ID_RE.exec(chunkId);
  return m ? { docId: m[1] as string, index: Number(m[2]) } : undefined;
}

export const chunkValidator: Validator<Chunk> = refine(
  object({
    chunk_id: str({ pattern: CHUNK_ID_RE, expected: 'a chunk id like EFTA00432308#0 (doc id, "#", index from 0)' }),
    doc_id: docId,
    text: anyString,
  }),
  (row, ctx, issues) => {
    if (splitChunkId(row.chunk_id)?.docId === row.doc_id) return true;
    report(issues, ctx, `a chunk id starting with "${row.doc_id}#" (its doc_id)`, row.chunk_id, 'chunk_id');
    return false;
  },
);

export const entityIndexValidator: Validator<EntityIndex> = recordOf(
  object({ aliases: arrayOf(nonEmptyString), doc_ids: docIds }),
  { key: str({ minLength: 1 }) },
);
