import { mount } from 'svelte';
import App from './app/App.svelte';
import { dataWorker } from './app/data/client.ts';
import { searchWorker, warmBm25 } from './app/data/search-client.ts';
import { siteReleases } from './app/state/site-releases.ts';
import { release } from './app/state/release.svelte.ts';
import { viewOf } from './app/views/registry.ts';
import './app/theme.css';

// What the first view needs downloads while the app mounts: the data worker's script and the
// site's list of releases. A task page shows a BM25 ranking at once: the search worker starts
// now, and opens the release and reads its BM25 index while the data worker reads the first files.
dataWorker();
const firstView = viewOf(new URLSearchParams(location.search).get('view') ?? undefined);
// The opened page's own code downloads beside the release's first files, not after them.
if ('load' in firstView.view) void firstView.view.load().catch(() => undefined);
if (firstView.id === 'task') {
  searchWorker();
  release.onLoadStart = warmBm25;
}
void siteReleases();
mount(App, { target: document.getElementById('app')! });
// public/boot-check.js shows an error page unless the app says it started.
document.documentElement.setAttribute('data-ebx-started', '');
