/**
 * Chunk texts for result snippets, read from the release's chunks.parquet by row group (HTTP
 * range reads for URL sources) and kept in a small cache. Chunk index i of the indexes is row i
 * of chunks.parquet: build-index reads that file in row order; the chunk id of the row is
 * checked all the same.
 */
import { type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { readParquetRows } from '../parquet/read-rows.ts';
import { readParquetFooter } from '../parquet/checked-metadata.ts';
import { Memo } from '../memo.ts';

const CACHED_GROUPS = 32;
export const SNIPPET_CHARS = 320;

export class ChunkTexts {
  private readonly metadata = new Memo<FileMetaData>();
  private readonly groups = new Map<number, Promise<Array<{ chunk_id: string; text: string }>>>();

  constructor(
    private readonly file: AsyncBuffer,
    private readonly name = 'chunks.parquet',
  ) {}

  private meta(): Promise<FileMetaData> {
    return this.metadata.get(() => readParquetFooter(this.file, this.name));
  }

  private async group(g: number, meta: FileMetaData): Promise<Array<{ chunk_id: string; text: string }>> {
    let rows = this.groups.get(g);
    if (!rows) {
      let start = 0;
      for (let i = 0; i < g; i++) start += Number(meta.row_groups[i]!.num_rows);
      const end = start + Number(meta.row_groups[g]!.num_rows);
      rows = readParquetRows(
        { file: this.file, metadata: meta, columns: ['chunk_id', 'text'], rowStart: start, rowEnd: end },
        this.name,
      ).then((objects) =>
        objects.map((o) => ({
          chunk_id: typeof o['chunk_id'] === 'string' ? o['chunk_id'] : '',
          text: typeof o['text'] === 'string' ? o['text'] : '',
        })),
      );
      this.groups.set(g, rows);
      if (this.groups.size > CACHED_GROUPS) this.groups.delete(this.groups.keys().next().value!);
    }
    return rows;
  }

  /** Texts of the given rows; a row whose chunk id differs from the expected one gives undefined. */
  async texts(wanted: ReadonlyArray<{ row: number; chunkId: string }>): Promise<Array<string | undefined>> {
    const meta = await this.meta();
    const starts: number[] = [];
    let at = 0;
    for (const rg of meta.row_groups) {
      starts.push(at);
      at += Number(rg.num_rows);
    }
    return Promise.all(
      wanted.map(async ({ row, chunkId }) => {
        if (row < 0 || row >= at) return undefined;
        let g = starts.length - 1;
        while (g > 0 && starts[g]! > row) g--;
        const hit = (await this.group(g, meta))[row - starts[g]!];
        return hit && hit.chunk_id === chunkId ? hit.text : undefined;
      }),
    );
  }
}

/** A snippet of a chunk: whitespace collapsed, cut at a word boundary. */
export function snippetOf(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
