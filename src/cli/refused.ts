import { ReleaseRefused } from '../core/release/load.ts';

/** A release the loader refused: its message on stderr and exit code 1. Any other error is rethrown. */
export function exitIfRefused(error: unknown): number {
  if (error instanceof ReleaseRefused) {
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
  throw error;
}
