/**
 * A response body read chunk by chunk through its reader, never with arrayBuffer(): in Chromium
 * an arrayBuffer() whose stream fails rejects with a bare "TypeError: Failed to fetch", and the
 * error the stream failed with (a guardedFetch time limit naming the file and the reason, a
 * cancelled load) is lost. Through the reader that error comes back as it is. The read adds its
 * own limits too, for fetches no guard wraps: a size, a silence (idle) and a total time.
 */
import { errorMessage } from '../error-message.ts';
import { FetchTimedOut, LoadCancelled } from './guarded-fetch.ts';

export interface BodyReadOptions {
  /** What the errors name: the file's URL or name. */
  what: string;
  /** The body is refused once it passes this many bytes. */
  maxBytes?: number;
  /** The error for a body past maxBytes (default: names `what` and the limit). */
  tooLarge?: () => Error;
  /** The body is refused when no chunk arrives for this long. */
  idleMs?: number;
  /** The error for a silence of idleMs (default: FetchTimedOut 'body'). */
  idle?: () => Error;
  /** The body is refused when it is not complete after this long. */
  totalMs?: number;
  /** After each chunk (before the size check), with the bytes received so far; throwing stops the read with that error. */
  onChunk?: (received: number, chunkBytes: number) => void;
  /** What a failed read becomes (default: our own errors as they are, others naming `what`). */
  readError?: (error: unknown) => Error;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** Ours (a time limit, a cancelled load) says what happened; the network's says only "Failed to fetch". */
function defaultReadError(what: string, error: unknown): Error {
  if (error instanceof FetchTimedOut || error instanceof LoadCancelled) return error;
  return new Error(`${what}: the answer broke off (${errorMessage(error)})`, { cause: error });
}

type ReadResult = ReadableStreamReadResult<Uint8Array> | 'late';

function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<ReadResult> {
  if (!Number.isFinite(ms)) return reader.read();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), Math.max(0, ms));
  });
  return Promise.race([reader.read(), late]).finally(() => clearTimeout(timer));
}

function joined(parts: readonly Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const only = parts[0];
  if (parts.length === 1 && only!.buffer instanceof ArrayBuffer) return only as Uint8Array<ArrayBuffer>;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** The whole body, within the limits; every failure is an Error that names `what` and the reason. */
export async function bodyBytes(response: Response, options: BodyReadOptions): Promise<Uint8Array<ArrayBuffer>> {
  const { what, maxBytes } = options;
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const deadline = options.totalMs === undefined ? Infinity : Date.now() + options.totalMs;
  const stop = async (error: Error): Promise<never> => {
    await reader.cancel(error).catch(() => undefined);
    throw error;
  };
  const parts: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    let step: ReadResult;
    // Which limit this wait ends at is decided now: a timer may fire a little before the clock
    // shows the deadline, and the total limit must not then be reported as a silence.
    const leftMs = deadline - Date.now();
    const byDeadline = leftMs <= (options.idleMs ?? Infinity);
    try {
      step = await readWithin(reader, Math.min(options.idleMs ?? Infinity, leftMs));
    } catch (error) {
      throw (options.readError ?? ((e: unknown) => defaultReadError(what, e)))(error);
    }
    if (step === 'late') {
      if (byDeadline) return stop(new FetchTimedOut(what, seconds(options.totalMs!), 'total'));
      return stop(options.idle?.() ?? new FetchTimedOut(what, seconds(options.idleMs!), 'body'));
    }
    if (step.done) return joined(parts, received);
    received += step.value.byteLength;
    try {
      options.onChunk?.(received, step.value.byteLength);
    } catch (error) {
      return stop(error instanceof Error ? error : new Error(String(error)));
    }
    if (maxBytes !== undefined && received > maxBytes) {
      return stop(
        options.tooLarge?.() ?? new Error(`${what}: more than the ${maxBytes.toLocaleString('en')} bytes allowed`),
      );
    }
    parts.push(step.value);
  }
}

/** The body as an ArrayBuffer of its own (what hyparquet's AsyncBuffer slices are). */
export async function bodyArrayBuffer(response: Response, options: BodyReadOptions): Promise<ArrayBuffer> {
  const bytes = await bodyBytes(response, options);
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
}
