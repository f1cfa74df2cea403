/**
 * The design before issue 12: DuckDB and every file before the first view, all three rankings
 * on a task page, DuckDB in embeds. Kept only so that `npm run bench` prints both designs side
 * by side in one run; the bench sets this global (in every frame) before the app starts.
 */
export const enginesFirst: boolean = (globalThis as { EBX_ENGINES_FIRST?: unknown }).EBX_ENGINES_FIRST === true;
