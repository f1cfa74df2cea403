/** Reads a whole release file, reporting bytes as they arrive (streamed for URL sources). */
import { bodyBytes } from '../net/body-bytes.ts';
import { UrlSource, type ReleaseSource } from '../release/source.ts';

/** Index files above this are refused rather than exhausting the tab's memory. */
export const MAX_INDEX_FILE_BYTES = 1024 * 1024 * 1024;

export type BytesProgress = (bytes: number, total: number | undefined) => void;

export async function readWithProgress(
  source: ReleaseSource,
  path: string,
  onBytes: BytesProgress,
  fetchFn: typeof fetch = (...args) => fetch(...args),
): Promise<Uint8Array | undefined> {
  if (!(source instanceof UrlSource)) {
    const bytes = await source.read(path);
    if (bytes) {
      checkSize(path, bytes.byteLength);
      onBytes(bytes.byteLength, bytes.byteLength);
    }
    return bytes;
  }
  const url = source.url(path);
  const response = await fetchFn(url);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  const header = response.headers.get('content-length');
  // A compressed response's Content-Length counts the compressed bytes: only trust it uncompressed.
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const total = header !== null && !encoded && Number.isFinite(Number(header)) ? Number(header) : undefined;
  if (total !== undefined) checkSize(url, total);
  onBytes(0, total);
  const bytes = await bodyBytes(response, {
    what: url,
    onChunk: (received) => {
      checkSize(url, received);
      onBytes(received, total);
    },
  });
  if (bytes.byteLength === 0) onBytes(0, total ?? 0);
  return bytes;
}

function checkSize(what: string, bytes: number): void {
  if (bytes > MAX_INDEX_FILE_BYTES) {
    throw new Error(`${what}: more than ${MAX_INDEX_FILE_BYTES} bytes, refusing to load it`);
  }
}
