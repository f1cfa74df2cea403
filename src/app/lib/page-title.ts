const APP = 'Epstein Bench Explorer';

export interface TitleInputs {
  view: string | undefined;
  params: URLSearchParams;
  /** The navigation label of the view (Tasks, Leaderboard…). */
  viewLabel: string;
}

/** The document title: what the page shows first, the app's name last (tabs and history read well). */
export function pageTitle({ view, params, viewLabel }: TitleInputs): string {
  const parts: string[] = [];
  const task = params.get('task');
  const doc = params.get('doc');
  switch (view ?? 'tasks') {
    case 'task':
      parts.push(task ? `Task ${task.slice(0, 8)}` : 'Task');
      break;
    case 'doc':
      parts.push(doc ? `Document ${doc}` : 'Document');
      break;
    case 'rejections': {
      const candidate = params.get('candidate');
      parts.push(candidate ? `Rejected candidate ${candidate.slice(0, 8)}` : 'Rejections');
      break;
    }
    case 'entities': {
      const entity = params.get('entity');
      parts.push(entity ? `${entity} (entity)` : 'Entities');
      break;
    }
    case 'search': {
      const q = params.get('q');
      parts.push(q ? `“${q.length > 40 ? `${q.slice(0, 40)}…` : q}” (retrieval)` : 'Retrieval');
      break;
    }
    case 'tasks': {
      const q = params.get('q');
      const split = params.get('split');
      parts.push(
        q ? `“${q.length > 40 ? `${q.slice(0, 40)}…` : q}” in tasks` : split ? `Tasks (${split} split)` : 'Tasks',
      );
      break;
    }
    default:
      parts.push(viewLabel);
  }
  return [...parts, APP].join(' – ');
}

/** The embed page's title: the one thing it shows. */
export function embedTitle(params: URLSearchParams): string {
  const task = params.get('task');
  const doc = params.get('doc');
  if (task) return `Task ${task.slice(0, 8)} – Epstein Bench`;
  if (doc) return `Document ${doc} – Epstein Bench`;
  if (params.get('view') === 'leaderboard') return 'Leaderboard – Epstein Bench';
  return 'Epstein Bench – embedded view';
}
