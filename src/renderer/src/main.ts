import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { applyTheme } from './lib/theme.ts';

// Follow the OS theme from the first paint; Settings may override once loaded.
applyTheme('system');
const target = document.getElementById('app');
if (!target) throw new Error('missing #app');
export default mount(App, { target });
