/** Document text from a remote source by doc_id (the Hugging Face reader of src/core/source-docs). */
import type { HfSourceDocs } from '../source-docs/lookup.ts';
import { readBatch, type SourceBatchOutcome } from '../source-docs/service.ts';
import { hostOf } from '../source-docs/settings.ts';
import type { DocTextProvider } from './doc-text.ts';

/** Reads a batch of documents (the CLI's HfSourceDocs, or the source worker through a port). */
export type SourceBatchRead = (ids: readonly string[], onRead?: (read: number) => void) => Promise<SourceBatchOutcome>;

export interface SourceReadFailures {
  count: number;
  first?: string;
  /** The source could not be reached, so the remaining documents were not asked for. */
  gaveUp: boolean;
  /** The batch was stopped (Stop): the documents not read yet can be read later. */
  stopped: boolean;
  /** The Hub refused (a rate limit too long to wait out, a token needed or refused): its words. */
  refused?: { kind: 'rate-limited' | 'auth'; message: string };
}

export function sourceLabel(settings: { dataset: string; revision: string; endpoint: string }): string {
  return `the Hugging Face source ${settings.dataset} at ${settings.revision} (${hostOf(settings.endpoint)})`;
}

/**
 * A source read as one batch (ids grouped by row group, each row group's text read once;
 * HfSourceDocs.readMany): ids it cannot read become failures, ids it lacks are not read.
 */
export function batchSourceProvider(
  label: string,
  readMany: SourceBatchRead,
): { provider: DocTextProvider; failures: SourceReadFailures } {
  const failures: SourceReadFailures = { count: 0, gaveUp: false, stopped: false };
  const provider: DocTextProvider = {
    label,
    async read(ids, onProgress) {
      const result = await readMany(ids, (read) => onProgress?.(read, ids.length));
      onProgress?.(ids.length, ids.length);
      if (!result.ok) {
        // The source could not be listed or reached at all: nothing read, say why once.
        failures.count += ids.length;
        failures.first ??= `${ids[0] ?? ''}: ${result.error}`;
        failures.gaveUp = true;
        if (result.kind === 'rate-limited' || result.kind === 'auth')
          failures.refused ??= { kind: result.kind, message: result.error };
        return new Map();
      }
      if (result.refused) failures.refused ??= result.refused;
      for (const [id, why] of result.failed) {
        failures.count++;
        failures.first ??= `${id}: ${why}`;
      }
      failures.stopped ||= result.stopped;
      return result.texts;
    },
  };
  return { provider, failures };
}

/** The CLI's Hugging Face reader as a batch provider. */
export function hfSourceProvider(docs: HfSourceDocs): { provider: DocTextProvider; failures: SourceReadFailures } {
  return batchSourceProvider(sourceLabel(docs.settings), (ids, onRead) =>
    readBatch(docs, ids, onRead && ((p) => onRead(p.read))),
  );
}
