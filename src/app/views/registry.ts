import type { Component } from 'svelte';
import TasksView from './TasksView.svelte';
import ScoreView from './score/ScoreView.svelte';
import SearchView from './search/SearchView.svelte';

/** Every page of the explorer; `?view=<id>` selects one (tasks when absent). */
export interface ViewEntry {
  id: string;
  label: string;
  inNav: boolean;
  component: Component;
}

export const VIEWS: readonly ViewEntry[] = [
  { id: 'tasks', label: 'Tasks', inNav: true, component: TasksView },
  { id: 'search', label: 'Retrieval', inNav: true, component: SearchView },
  { id: 'score', label: 'Score', inNav: true, component: ScoreView },
];

export function viewOf(id: string | undefined): ViewEntry {
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0]!;
}
