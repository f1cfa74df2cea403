/**
 * A map file a project site publishes (the CLI's `map --out`), read instead of computing the
 * layout: `map=<address>` of the Map page or its embed, relative to the page or absolute.
 */
import type { BenchmarkMap } from '../../core/map/layout.ts';
import { MAP_FILE_MAX_BYTES, parseMapFile } from '../../core/map/map-file.ts';
import { errorMessage } from '../../core/error-message.ts';
import { bodyBytes } from '../../core/net/body-bytes.ts';

export async function publishedMap(address: string): Promise<{ map: BenchmarkMap; name: string }> {
  const at = new URL(address, location.href);
  if (at.protocol !== 'https:' && at.protocol !== 'http:')
    throw new Error(`map=${address}: only http and https addresses are read`);
  const name = decodeURIComponent(at.pathname.split('/').pop() || 'map file');
  let response: Response;
  try {
    response = await fetch(at, { credentials: 'omit' });
  } catch (error) {
    throw new Error(`${at.href}: could not be fetched (${errorMessage(error)})`, { cause: error });
  }
  if (!response.ok) throw new Error(`${at.href}: HTTP ${response.status}`);
  const bytes = await bodyBytes(response, { what: at.href, maxBytes: MAP_FILE_MAX_BYTES, idleMs: 30_000 });
  return { map: parseMapFile(new TextDecoder().decode(bytes), name), name };
}
