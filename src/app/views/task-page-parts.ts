/**
 * What the task page shows and an embedded task does not: the question's rankings and the
 * systems' answers. TaskView imports this module only when it is not embedded, so that an embed
 * downloads none of their code (search, scoring, metrics).
 */
export { default as TaskRankings } from './search/TaskRankings.svelte';
export { default as TaskSystems } from '../widgets/TaskSystems.svelte';
export { searchState } from './search/search-state.svelte.ts';
