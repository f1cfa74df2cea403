/**
 * Upper bounds on everything read from the Hub and its file host. The source is a third party:
 * a wrong endpoint, a changed dataset or a hostile server must not make us download a 500 MB
 * shard or hold a gigabyte of text.
 */
export interface SourceLimits {
  /** Pages of the tree API followed before giving up. */
  maxListingPages: number;
  /** Bytes of one tree API page. */
  maxListingPageBytes: number;
  /** Parquet files in the listing. */
  maxShards: number;
  /**
   * First read of a shard's tail. 8 bytes (the footer length and "PAR1") costs a second request
   * but never touches the last column chunk, which may be a media column; more saves a request
   * at the price of media bytes.
   */
  footerInitialFetch: number;
  /** Whole footer (thrift metadata + 8 bytes). */
  maxFooterBytes: number;
  /** A row group's doc_id column chunk (compressed). */
  maxIdChunkBytes: number;
  /** A row group's text column chunks together (compressed). */
  maxTextChunkBytes: number;
  /** Characters of text_content kept; the rest is cut and the cut is reported. */
  maxTextChars: number;
  /** Characters of file_name, file_type, online_url kept. */
  maxFieldChars: number;
  /** Requests under way at once for one lookup. */
  concurrency: number;
  /** A server silent this long (no answer, or a body that stops) fails the request. */
  idleMs: number;
  /** One document lookup, all its requests together (a batch read has no total, it can be stopped). */
  lookupMs: number;
  /**
   * The longest wait on a rate limit or an unavailable server (Retry-After, a window's reset):
   * a longer one fails the read as 'rate-limited', saying when to retry.
   */
  maxRateWaitMs: number;
  /** Tries again after a 429 or 503 before giving up. */
  maxRetries: number;
  /** First backoff after a 429/503 that says nothing of when to come back (doubled each try, with jitter). */
  retryBaseMs: number;
}

export const DEFAULT_LIMITS: SourceLimits = {
  maxListingPages: 200,
  maxListingPageBytes: 16 * 2 ** 20,
  maxShards: 20_000,
  footerInitialFetch: 8,
  maxFooterBytes: 16 * 2 ** 20,
  maxIdChunkBytes: 16 * 2 ** 20,
  maxTextChunkBytes: 32 * 2 ** 20,
  maxTextChars: 2_000_000,
  maxFieldChars: 2_048,
  concurrency: 6,
  idleMs: 30_000,
  lookupMs: 180_000,
  maxRateWaitMs: 600_000,
  maxRetries: 4,
  retryBaseMs: 500,
};
