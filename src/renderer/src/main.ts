import { mount, unmount } from 'svelte';
import './app.css';
import App from './App.svelte';
import Unlock from './components/Unlock.svelte';
import { call } from './lib/api.ts';
import { groupsState } from './lib/groups.svelte.ts';
import { appState } from './lib/store.svelte.ts';
import { applyTheme } from './lib/theme.ts';
import { setLanguage } from './lib/words.ts';

// Follow the OS theme from the first paint; Settings may override once loaded.
applyTheme('system');
const target = document.getElementById('app');
if (!target) throw new Error('missing #app');
const app = target;

/**
 * A data folder encrypted with a passphrase not given at start waits for it: the unlock screen
 * first, and the app (whose every view reads the cache) only once the cache is open. When the
 * question itself fails (the web shell gone), the app starts and says so as it always has.
 */
async function start(): Promise<void> {
  const lock = await call('cache.locked', undefined).catch(() => null);
  if (!lock?.locked) {
    // Asked before the first render, which they would otherwise wait for (store.svelte.ts startUp).
    void appState.startUp();
    groupsState.start();
    mount(App, { target: app });
    return;
  }
  // The chosen language is a setting in the cache, which is still closed: the system's decides here.
  document.documentElement.lang = setLanguage(null);
  const screen = mount(Unlock, {
    target: app,
    props: {
      dataDir: lock.dataDir,
      changing: lock.changing === true,
      onunlocked: () => {
        void unmount(screen).then(() => mount(App, { target: app }));
      },
    },
  });
}
void start();
