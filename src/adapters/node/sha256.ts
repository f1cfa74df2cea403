/** SHA-256 as hex in Node, synchronously (the CLI's pins, cache names and build hashes; tests' expectations). */
import { createHash } from 'node:crypto';

export function sha256HexSync(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
