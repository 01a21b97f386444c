/**
 * What the desktop app does when its cache cannot be used at start-up (damaged, not a
 * cache, unwritable): instead of quitting, it offers the same ways forward as the CLI, and
 * tries again with the one chosen. Kept free of `electron` (the dialogs are passed in), so
 * it is tested with real caches.
 */

import { CacheProblemError, type Core, type CoreOptions, moveCacheAside } from '../core/index.ts';

export interface StartupDialogs {
  /** Shows a question; resolves to the index of the button chosen. */
  ask(message: string, detail: string, buttons: string[]): Promise<number>;
  /** Asks for a folder; null when cancelled. */
  chooseFolder(): Promise<string | null>;
  tell(message: string, detail: string): Promise<void>;
}

export const CHOICES = ['Open read-only', 'Move it aside and rebuild', 'Choose another folder…', 'Quit'] as const;
/**
 * An encrypted cache whose key is missing or wrong: without the key no copy of it can be read
 * and no new cache could be encrypted like the folder's others, so the ways forward are
 * another folder (or quitting to bring the key back: the message says how).
 */
export const LOCKED_CHOICES = ['Choose another folder…', 'Quit'] as const;

/** The core, once a way forward worked; null when the user chose to quit. */
export async function openCoreWithChoices(options: CoreOptions, create: (o: CoreOptions) => Promise<Core>, dialogs: StartupDialogs): Promise<Core | null> {
  let current = options;
  for (;;) {
    try {
      return await create(current);
    } catch (err) {
      if (!(err instanceof CacheProblemError)) throw err;
      if (err.problem === 'locked') {
        const locked = await dialogs.ask('Folioscope cannot open its encrypted cache', err.message, [...LOCKED_CHOICES]);
        if (locked !== 0) return null;
        const dir = await dialogs.chooseFolder();
        if (dir) current = { ...current, dataDir: dir, readOnlyCache: false };
        continue;
      }
      const choice = await dialogs.ask('Folioscope cannot use its cache', err.message, [...CHOICES]);
      if (choice === 0) {
        current = { ...current, readOnlyCache: true };
      } else if (choice === 1) {
        try {
          const { movedTo, walletsRecovered } = moveCacheAside(err.path);
          await dialogs.tell(
            'The cache was moved aside',
            `It is kept as ${movedTo}. A new cache was started with ${walletsRecovered} wallet${walletsRecovered === 1 ? '' : 's'} recovered; sync to rebuild the history.`,
          );
        } catch (moveErr) {
          await dialogs.tell('The cache could not be moved aside', (moveErr as Error).message);
        }
        current = { ...current, readOnlyCache: false };
      } else if (choice === 2) {
        const dir = await dialogs.chooseFolder();
        if (dir) current = { ...current, dataDir: dir, readOnlyCache: false };
      } else {
        return null;
      }
    }
  }
}

/** Electron's dialog module, as much of it as is used here. */
export interface ElectronDialog {
  showMessageBox(options: {
    type: 'warning' | 'info';
    message: string;
    detail: string;
    buttons: string[];
    defaultId?: number;
    cancelId?: number;
    noLink?: boolean;
  }): Promise<{ response: number }>;
  showOpenDialog(options: { title: string; properties: Array<'openDirectory' | 'createDirectory'> }): Promise<{ canceled: boolean; filePaths: string[] }>;
}

export function electronStartupDialogs(dialog: ElectronDialog): StartupDialogs {
  return {
    ask: async (message, detail, buttons) =>
      (await dialog.showMessageBox({ type: 'warning', message, detail, buttons, defaultId: 0, cancelId: buttons.length - 1, noLink: true })).response,
    chooseFolder: async () => {
      const r = await dialog.showOpenDialog({ title: 'Choose a data folder for Folioscope', properties: ['openDirectory', 'createDirectory'] });
      return r.canceled ? null : (r.filePaths[0] ?? null);
    },
    tell: async (message, detail) => void (await dialog.showMessageBox({ type: 'info', message, detail, buttons: ['OK'] })),
  };
}
