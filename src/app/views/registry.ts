import type { Component } from 'svelte';

/**
 * Every page of the explorer; `?view=<id>` selects one (tasks when absent). Each page's code is
 * its own chunk, read when the page is first shown: the first view parses only its own code.
 */
export interface ViewEntry {
  id: string;
  label: string;
  inNav: boolean;
  load: () => Promise<{ default: Component }>;
}

export const VIEWS: readonly ViewEntry[] = [
  { id: 'tasks', label: 'Tasks', inNav: true, load: () => import('./TasksView.svelte') },
  { id: 'task', label: 'Task', inNav: false, load: () => import('./TaskView.svelte') },
  { id: 'doc', label: 'Document', inNav: false, load: () => import('./DocView.svelte') },
  { id: 'rejections', label: 'Rejections', inNav: true, load: () => import('./RejectionsView.svelte') },
  { id: 'entities', label: 'Entities', inNav: true, load: () => import('./EntitiesView.svelte') },
  { id: 'leaderboard', label: 'Leaderboard', inNav: true, load: () => import('./LeaderboardView.svelte') },
  { id: 'systems', label: 'Systems', inNav: true, load: () => import('./SystemsView.svelte') },
  { id: 'card', label: 'Dataset card', inNav: true, load: () => import('./CardView.svelte') },
  { id: 'search', label: 'Retrieval', inNav: true, load: () => import('./search/SearchView.svelte') },
  { id: 'score', label: 'Score', inNav: true, load: () => import('./score/ScoreView.svelte') },
  { id: 'audit', label: 'Audit', inNav: true, load: () => import('./audit/AuditView.svelte') },
  { id: 'spotcheck', label: 'Spot-check', inNav: true, load: () => import('./audit/SpotCheckView.svelte') },
];

export function viewOf(id: string | undefined): ViewEntry {
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0]!;
}

/** Parameters that survive a change of view from the nav (the release and the source settings stay). */
export const KEPT_PARAMS = ['release', 'hf_endpoint', 'hf_dataset', 'hf_revision'];
