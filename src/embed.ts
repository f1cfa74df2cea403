import { mount } from 'svelte';
import EmbedApp from './app/embed/EmbedApp.svelte';
import './app/theme.css';

mount(EmbedApp, { target: document.getElementById('app')! });
