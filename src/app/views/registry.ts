import type { Component } from 'svelte';
import TasksView from './TasksView.svelte';

/** A page's code, fetched when the page is first opened. */
export type ViewLoader = () => Promise<{ default: Component }>;

/**
 * Every page of the explorer; `?view=<id>` selects one (tasks when absent). The task list, the
 * first view of most visits, is in the main script; every other page is its own chunk, so a
 * visitor downloads the code of the pages they open and no other.
 */
export interface ViewEntry {
  id: string;
  label: string;
  inNav: boolean;
  /** Shown while the page's code downloads: "Loading <what>…". */
  what: string;
  view: { component: Component } | { load: ViewLoader };
}

const lazy = (load: ViewLoader) => ({ load });

export const VIEWS: readonly ViewEntry[] = [
  { id: 'tasks', label: 'Tasks', inNav: true, what: 'the tasks', view: { component: TasksView } },
  { id: 'map', label: 'Map', inNav: true, what: 'the map', view: lazy(() => import('./map/MapView.svelte')) },
  { id: 'task', label: 'Task', inNav: false, what: 'the task', view: lazy(() => import('./TaskView.svelte')) },
  { id: 'doc', label: 'Document', inNav: false, what: 'the document', view: lazy(() => import('./DocView.svelte')) },
  {
    id: 'rejections',
    label: 'Rejections',
    inNav: true,
    what: 'the rejections',
    view: lazy(() => import('./RejectionsView.svelte')),
  },
  {
    id: 'entities',
    label: 'Entities',
    inNav: true,
    what: 'the entities',
    view: lazy(() => import('./EntitiesView.svelte')),
  },
  {
    id: 'leaderboard',
    label: 'Leaderboard',
    inNav: true,
    what: 'the leaderboard',
    view: lazy(() => import('./LeaderboardView.svelte')),
  },
  {
    id: 'systems',
    label: 'Systems',
    inNav: true,
    what: 'the systems',
    view: lazy(() => import('./SystemsView.svelte')),
  },
  {
    id: 'card',
    label: 'Dataset card',
    inNav: true,
    what: 'the dataset card',
    view: lazy(() => import('./CardView.svelte')),
  },
  {
    id: 'search',
    label: 'Retrieval',
    inNav: true,
    what: 'retrieval',
    view: lazy(() => import('./search/SearchView.svelte')),
  },
  {
    id: 'score',
    label: 'Score',
    inNav: true,
    what: 'the scorer',
    view: lazy(() => import('./score/ScoreView.svelte')),
  },
  { id: 'audit', label: 'Audit', inNav: true, what: 'the audit', view: lazy(() => import('./audit/AuditView.svelte')) },
  {
    id: 'spotcheck',
    label: 'Spot-check',
    inNav: true,
    what: 'the spot-check',
    view: lazy(() => import('./audit/SpotCheckView.svelte')),
  },
  {
    id: 'query',
    label: 'Query',
    inNav: true,
    what: 'the query console',
    view: lazy(() => import('./query/QueryView.svelte')),
  },
  {
    id: 'diff',
    label: 'Diff',
    inNav: true,
    what: 'the release diff',
    view: lazy(() => import('./diff/DiffView.svelte')),
  },
];

export function viewOf(id: string | undefined): ViewEntry {
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0]!;
}
