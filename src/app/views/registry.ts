import type { Component } from 'svelte';
import TasksView from './TasksView.svelte';
import TaskView from './TaskView.svelte';
import DocView from './DocView.svelte';
import RejectionsView from './RejectionsView.svelte';
import EntitiesView from './EntitiesView.svelte';
import LeaderboardView from './LeaderboardView.svelte';
import CardView from './CardView.svelte';
import SystemsView from './SystemsView.svelte';
import ScoreView from './score/ScoreView.svelte';
import SearchView from './search/SearchView.svelte';
import AuditView from './audit/AuditView.svelte';
import SpotCheckView from './audit/SpotCheckView.svelte';
import QueryLazy from './query/QueryLazy.svelte';
import DiffLazy from './diff/DiffLazy.svelte';

/** Every page of the explorer; `?view=<id>` selects one (tasks when absent). */
export interface ViewEntry {
  id: string;
  label: string;
  inNav: boolean;
  component: Component;
}

export const VIEWS: readonly ViewEntry[] = [
  { id: 'tasks', label: 'Tasks', inNav: true, component: TasksView },
  { id: 'task', label: 'Task', inNav: false, component: TaskView },
  { id: 'doc', label: 'Document', inNav: false, component: DocView },
  { id: 'rejections', label: 'Rejections', inNav: true, component: RejectionsView },
  { id: 'entities', label: 'Entities', inNav: true, component: EntitiesView },
  { id: 'leaderboard', label: 'Leaderboard', inNav: true, component: LeaderboardView },
  { id: 'systems', label: 'Systems', inNav: true, component: SystemsView },
  { id: 'card', label: 'Dataset card', inNav: true, component: CardView },
  { id: 'search', label: 'Retrieval', inNav: true, component: SearchView },
  { id: 'score', label: 'Score', inNav: true, component: ScoreView },
  { id: 'audit', label: 'Audit', inNav: true, component: AuditView },
  { id: 'spotcheck', label: 'Spot-check', inNav: true, component: SpotCheckView },
  { id: 'query', label: 'Query', inNav: true, component: QueryLazy },
  { id: 'diff', label: 'Diff', inNav: true, component: DiffLazy },
];

export function viewOf(id: string | undefined): ViewEntry {
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0]!;
}
