/**
 * Where the audits get document text: an injected provider, so that the same audits run on a
 * release that ships its corpus (docs.parquet, docs.jsonl), on texts already loaded, and on a
 * reader of the Hugging Face source when one is plugged in.
 */
import { type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { readParquetRows } from '../parquet/read-rows.ts';
import { readParquetFooter } from '../parquet/checked-metadata.ts';
import type { CorpusDoc } from '../release/types.ts';

export type DocTextProgress = (done: number, total: number) => void;

export interface DocTextProvider {
  /** Where the texts come from, as reports name it. */
  readonly label: string;
  /** The texts of those ids it can read; ids it cannot read are absent. Never throws for an unknown id. */
  read(ids: readonly string[], onProgress?: DocTextProgress): Promise<Map<string, string>>;
}

/** Texts held in memory (texts already loaded, tests). */
export function mapProvider(label: string, texts: ReadonlyMap<string, string>): DocTextProvider {
  return {
    label,
    async read(ids, onProgress) {
      const out = new Map<string, string>();
      for (const id of ids) {
        const t = texts.get(id);
        if (t !== undefined) out.set(id, t);
      }
      onProgress?.(ids.length, ids.length);
      return out;
    },
  };
}

/** A release without corpus text: reads nothing, and says so in its progress (none of them read). */
export function noTextProvider(label: string): DocTextProvider {
  return {
    label,
    async read(ids, onProgress) {
      onProgress?.(0, ids.length);
      return new Map();
    },
  };
}

/** Asks each provider in turn for the ids the ones before could not read. */
export function chainProviders(providers: readonly DocTextProvider[]): DocTextProvider {
  if (providers.length === 1) return providers[0]!;
  return {
    label: providers.map((p) => p.label).join(', then '),
    async read(ids, onProgress) {
      const out = new Map<string, string>();
      let missing = [...ids];
      for (const p of providers) {
        if (missing.length === 0) break;
        const base = ids.length - missing.length;
        const got = await p.read(missing, (d) => onProgress?.(base + d, ids.length));
        for (const [k, v] of got) out.set(k, v);
        missing = missing.filter((id) => !out.has(id));
      }
      onProgress?.(ids.length, ids.length);
      return out;
    },
  };
}

/**
 * Asks a one-document reader (a cache, a remote source) with a few requests in flight. A
 * document that fails to read counts as not read; `onError` hears why.
 */
export function perDocProvider(
  label: string,
  readOne: (docId: string) => Promise<string | undefined>,
  concurrency = 4,
  onError?: (docId: string, error: unknown) => void,
): DocTextProvider {
  return {
    label,
    async read(ids, onProgress) {
      const out = new Map<string, string>();
      let next = 0;
      let done = 0;
      const worker = async (): Promise<void> => {
        while (next < ids.length) {
          const id = ids[next++]!;
          try {
            const t = await readOne(id);
            if (t !== undefined) out.set(id, t);
          } catch (error) {
            onError?.(id, error);
          }
          onProgress?.(++done, ids.length);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, ids.length)) }, worker));
      return out;
    },
  };
}

/** docs.jsonl (or a docs.parquet read whole) already parsed. */
export function corpusDocsProvider(label: string, docs: readonly CorpusDoc[]): DocTextProvider {
  return mapProvider(label, new Map(docs.map((d) => [d.doc_id, d.text])));
}

/**
 * A docs.parquet left on its source: the doc_id column is read once, then only the text of the
 * wanted rows, in runs of nearby rows (hyparquet range reads).
 */
export function parquetDocsProvider(label: string, file: AsyncBuffer, maxGap = 64): DocTextProvider {
  let opened: Promise<{ metadata: FileMetaData; rows: Map<string, number> }> | undefined;
  const open = async () => {
    // The footer is read once (its default first fetch is 512 KiB; a docs footer is far smaller).
    const metadata = await readParquetFooter(file, label, 64 * 1024);
    const ids = await readParquetRows({ file, metadata, columns: ['doc_id'] }, label);
    return { metadata, rows: new Map(ids.map((r, i) => [String(r.doc_id), i])) };
  };
  return {
    label,
    async read(ids, onProgress) {
      opened ??= open();
      const { metadata, rows: index } = await opened;
      const wanted = [...new Set(ids)]
        .map((id) => ({ id, row: index.get(id) }))
        .filter((w): w is { id: string; row: number } => w.row !== undefined)
        .sort((a, b) => a.row - b.row);
      const out = new Map<string, string>();
      let done = ids.length - wanted.length;
      for (let i = 0; i < wanted.length;) {
        let j = i;
        while (j + 1 < wanted.length && wanted[j + 1]!.row - wanted[j]!.row <= maxGap) j++;
        const from = wanted[i]!.row;
        const rows = (await readParquetRows(
          { file, metadata, columns: ['doc_id', 'text'], rowStart: from, rowEnd: wanted[j]!.row + 1 },
          label,
        )) as Array<{ doc_id?: unknown; text?: unknown }>;
        for (let k = i; k <= j; k++) {
          const row = rows[wanted[k]!.row - from];
          if (row && typeof row.text === 'string') out.set(wanted[k]!.id, row.text);
        }
        done += j - i + 1;
        onProgress?.(done, ids.length);
        i = j + 1;
      }
      onProgress?.(ids.length, ids.length);
      return out;
    },
  };
}
