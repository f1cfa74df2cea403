/**
 * A file on an HTTP server read by ranges (parquet footers, column chunks, documents' rows),
 * on any static host:
 * - a server that answers a range request with 200 and the whole file (python's http.server,
 *   many simple hosts) is detected by its status: the file is then kept whole from that answer,
 *   read once, and every range comes from those bytes (`note` says why);
 * - a server without HEAD, or whose HEAD names no length, is asked for the first byte instead;
 * - a 206 whose Content-Range (when the server lets the page see it) names other bytes than the
 *   ones asked for is refused.
 */
import type { AsyncBuffer } from 'hyparquet';
import { bodyArrayBuffer } from './body-bytes.ts';
import { Memo } from '../memo.ts';

export interface RangeFile extends AsyncBuffer {
  /** Set once the server showed that it ignores ranges, for the release's file report. */
  readonly note?: string;
}

type Get = (url: string, init?: RequestInit) => Promise<Response>;

const CONTENT_RANGE = /^bytes (\d+)-(\d+)\/(\d+|\*)$/;

function contentRange(response: Response): { start: number; end: number; total?: number } | undefined {
  const m = CONTENT_RANGE.exec(response.headers.get('content-range')?.trim() ?? '');
  if (!m) return undefined;
  return { start: Number(m[1]), end: Number(m[2]) + 1, ...(m[3] !== '*' ? { total: Number(m[3]) } : {}) };
}

export function rangesIgnoredNote(url: string, bytes: number): string {
  return `${url}: the server ignores range requests (it answered one with the whole file), so the file was read whole, once (${bytes.toLocaleString('en')} bytes). A server that supports Range reads only the parts shown.`;
}

async function wholeBody(url: string, response: Response, length: number | undefined): Promise<ArrayBuffer> {
  const bytes = await bodyArrayBuffer(response, { what: url });
  if (length !== undefined && bytes.byteLength !== length) {
    throw new Error(
      `${url}: the server sent ${bytes.byteLength} bytes for a file of ${length} bytes (it may have changed while it was read)`,
    );
  }
  return bytes;
}

/** Opens `url` for range reads; undefined when the server says it does not exist (404). */
export async function openRangeFile(url: string, get: Get): Promise<RangeFile | undefined> {
  const head = await get(url, { method: 'HEAD' });
  if (head.status === 404) return undefined;
  const headLength = head.ok ? Number(head.headers.get('content-length') ?? NaN) : NaN;
  if (Number.isFinite(headLength)) return ranged(url, get, headLength);

  // No HEAD, or no length in it: the first byte, asked by range, names the length (or the
  // server sends the whole file, which is then kept).
  const probe = await get(url, { headers: { Range: 'bytes=0-0' } });
  if (probe.status === 404) return undefined;
  if (probe.status === 206) {
    await probe.body?.cancel();
    const length = contentRange(probe)?.total;
    if (length === undefined) {
      throw new Error(
        `${url}: cannot read by range (the server names no file length: no Content-Length, no Content-Range)`,
      );
    }
    return ranged(url, get, length);
  }
  if (probe.ok) {
    const bytes = await wholeBody(url, probe, undefined);
    return {
      byteLength: bytes.byteLength,
      note: rangesIgnoredNote(url, bytes.byteLength),
      slice: (s, e) => bytes.slice(s, e),
    };
  }
  throw new Error(`${url}: cannot read by range (HTTP ${probe.status} ${probe.statusText})`);
}

/**
 * Range reads, switching to the whole file as soon as the server answers a range with it. The
 * first read goes alone (the others wait for its answer), so that such a server sends the file once.
 */
function ranged(url: string, get: Get, length: number): RangeFile {
  const whole = new Memo<ArrayBuffer>();
  let first: Promise<unknown> | undefined;
  const read = async (start: number, stop: number): Promise<ArrayBuffer> => {
    const kept = whole.current;
    if (kept) return (await kept).slice(start, stop);
    const r = await get(url, { headers: { Range: `bytes=${start}-${stop - 1}` } });
    if (r.status === 200) {
      if (whole.current) await r.body?.cancel();
      else file.note = rangesIgnoredNote(url, length);
      return (await whole.get(() => wholeBody(url, r, length))).slice(start, stop);
    }
    if (r.status !== 206) throw new Error(`${url}: range ${start}-${stop} failed: HTTP ${r.status}`);
    const named = contentRange(r);
    if (named && (named.start !== start || named.end !== stop)) {
      await r.body?.cancel();
      throw new Error(`${url}: asked for bytes ${start}-${stop}, the server sent ${named.start}-${named.end}`);
    }
    return bodyArrayBuffer(r, { what: `${url} (bytes ${start}-${stop})` });
  };
  const file: { byteLength: number; note?: string; slice: AsyncBuffer['slice'] } = {
    byteLength: length,
    slice: async (start, end) => {
      const stop = end ?? length;
      if (!first) {
        const answer = read(start, stop);
        first = answer.catch(() => (first = undefined));
        return answer;
      }
      await first;
      return read(start, stop);
    },
  };
  return file;
}
