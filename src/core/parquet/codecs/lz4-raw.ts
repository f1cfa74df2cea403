export { decompressLz4Raw as decompress } from 'hyparquet-compressors/src/lz4.js';
