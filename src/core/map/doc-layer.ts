/**
 * The map's documents layer, the same in the site and the CLI: the corpus's first DOC_POINTS
 * documents, each placed by the first DOC_OPENING characters of its text (a document's opening
 * says what it is; the whole text would make the layout slow and no better).
 */
export const DOC_POINTS = 20_000;
export const DOC_OPENING = 2_000;
