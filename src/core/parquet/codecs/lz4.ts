// LZ4 (codec 5) is Hadoop's framing of LZ4 blocks, or a bare block from older writers: this reader tries both.
export { decompressLz4 as decompress } from 'hyparquet-compressors/src/lz4.js';
