/** Document text from a remote source by doc_id (the Hugging Face reader of src/core/source-docs). */
import { errorMessage } from '../error-message.ts';
import { SourceError, type SourceErrorKind } from '../source-docs/http.ts';
import type { HfSourceDocs } from '../source-docs/lookup.ts';
import { hostOf } from '../source-docs/settings.ts';
import { perDocProvider, type DocTextProvider } from './doc-text.ts';

/** One document's read, as plain data (it may cross a worker boundary). */
export type SourceRead =
  { ok: true; text: string } | { ok: false; kind: SourceErrorKind | 'missing' | 'internal'; error: string };

export interface SourceReadFailures {
  count: number;
  first?: string;
  /** The source could not be reached, so the remaining documents were not asked for. */
  gaveUp: boolean;
}

/** Network failures in a row, with nothing read yet, after which the source is no longer asked. */
const UNREACHABLE_AFTER = 8;

/**
 * Reads each document (a few at a time); a document the source does not have is not read, other
 * failures are counted with the first kept. When the source cannot be reached at all, it stops
 * asking rather than waiting out every document's retries.
 */
export function sourceTextProvider(
  label: string,
  read: (docId: string) => Promise<SourceRead>,
  concurrency = 4,
): { provider: DocTextProvider; failures: SourceReadFailures } {
  const failures: SourceReadFailures = { count: 0, gaveUp: false };
  let readAny = false;
  let networkInARow = 0;
  const provider = perDocProvider(
    label,
    async (id) => {
      if (failures.gaveUp) return undefined;
      const r = await read(id);
      if (r.ok) {
        readAny = true;
        networkInARow = 0;
        return r.text;
      }
      if (r.kind === 'missing') return undefined;
      failures.count++;
      failures.first ??= `${id}: ${r.error}`;
      if (r.kind === 'network' && !readAny && ++networkInARow >= UNREACHABLE_AFTER) failures.gaveUp = true;
      return undefined;
    },
    concurrency,
  );
  return { provider, failures };
}

export function sourceLabel(settings: { dataset: string; revision: string; endpoint: string }): string {
  return `the Hugging Face source ${settings.dataset} at ${settings.revision} (${hostOf(settings.endpoint)})`;
}

/**
 * The Hugging Face reader (CLI) as one batch: ids grouped by row group, each row group's text
 * read once (HfSourceDocs.readMany); ids it cannot read become failures, ids it lacks are not read.
 */
export function hfSourceProvider(docs: HfSourceDocs): { provider: DocTextProvider; failures: SourceReadFailures } {
  const failures: SourceReadFailures = { count: 0, gaveUp: false };
  const provider: DocTextProvider = {
    label: sourceLabel(docs.settings),
    async read(ids, onProgress) {
      try {
        const result = await docs.readMany(ids, (p) => onProgress?.(p.read, ids.length));
        for (const [id, why] of result.failed) {
          failures.count++;
          failures.first ??= `${id}: ${why}`;
        }
        onProgress?.(ids.length, ids.length);
        return result.texts;
      } catch (e) {
        // The source could not be listed or reached at all: nothing read, say why once.
        failures.count += ids.length;
        failures.first ??= `${ids[0] ?? ''}: ${e instanceof SourceError ? e.message : errorMessage(e)}`;
        failures.gaveUp = true;
        return new Map();
      }
    },
  };
  return { provider, failures };
}
