export { decompressBrotli as decompress } from 'hyparquet-compressors/src/brotli.js';
