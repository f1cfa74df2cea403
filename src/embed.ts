import { mount } from 'svelte';
import EmbedApp from './app/embed/EmbedApp.svelte';
import { dataWorker } from './app/data/client.ts';
import { siteReleases } from './app/state/site-releases.ts';
import './app/theme.css';

// The data worker's script and the site's list of releases download while the embed mounts.
dataWorker();
void siteReleases();
mount(EmbedApp, { target: document.getElementById('app')! });
// public/boot-check.js shows an error page unless the app says it started.
document.documentElement.setAttribute('data-ebx-started', '');
