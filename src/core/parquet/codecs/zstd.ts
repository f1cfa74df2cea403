import { decompress as decompressZstd } from 'fzstd';

export const decompress = (input: Uint8Array): Uint8Array => decompressZstd(input);
