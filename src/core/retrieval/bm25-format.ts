/** The BM25 posting format's constants, shared by the index, its postings and its file. */

/** postingTf value meaning "tf >= 255, look it up in tfOverflow". */
export const TF_ESCAPE = 255;
