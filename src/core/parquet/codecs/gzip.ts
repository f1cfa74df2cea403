import { gunzip } from 'hyparquet-compressors/src/gzip.js';

export const decompress = (input: Uint8Array, outputLength: number): Uint8Array =>
  gunzip(input, new Uint8Array(outputLength));
