import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { devServerUrlFor } from '../../src/main/electron/security.ts';
import { tempDir } from '../support/store.ts';

/**
 * Finding: a packaged app honoured ELECTRON_RENDERER_URL, so whoever could set the
 * environment (a shortcut, a launcher, another program) had the window load their page, and
 * the IPC check then trusted that page's origin with the whole contract. Only an unpackaged
 * development build may load a renderer from a URL, and only from this computer.
 *
 * Through the app's real main entry; Electron's API is mocked (it cannot launch here).
 */
const state = vi.hoisted(() => ({
  isPackaged: true,
  userData: '',
  loaded: [] as string[],
  handlers: new Map<string, Function>(),
  appEvents: new Map<string, Function>(),
  quit: null as null | (() => void),
}));

vi.mock('electron', () => {
  const app = {
    get isPackaged() {
      return state.isPackaged;
    },
    getPath: (name: string) => (name === 'userData' ? state.userData : '/nowhere'),
    setPath: (name: string, value: string) => {
      if (name === 'userData') state.userData = value;
    },
    getVersion: () => '9.8.7',
    exit: () => undefined,
    quit: () => state.quit?.(),
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    on: (event: string, h: Function) => (state.appEvents.set(event, h), app),
  };
  class BrowserWindow {
    webContents = { setWindowOpenHandler: () => undefined, on: () => undefined, isDestroyed: () => false, send: () => undefined };
    once() {}
    on() {}
    loadURL(url: string) {
      state.loaded.push(url);
      return Promise.resolve();
    }
  }
  return {
    app,
    BrowserWindow,
    dialog: {},
    ipcMain: {
      handle: (channel: string, h: Function) => state.handlers.set(channel, h),
      removeHandler: () => undefined,
      on: () => undefined,
      removeListener: () => undefined,
    },
    shell: { openExternal: () => Promise.resolve() },
    protocol: { registerSchemesAsPrivileged: () => undefined, handle: () => undefined },
    nativeTheme: { shouldUseDarkColors: false },
    session: {
      defaultSession: {
        setPermissionRequestHandler: () => undefined,
        setPermissionCheckHandler: () => undefined,
        webRequest: { onHeadersReceived: () => undefined },
      },
    },
  };
});

const env = { ...process.env };
beforeEach(() => {
  vi.resetModules();
  state.loaded.length = 0;
  state.handlers.clear();
  state.appEvents.clear();
  process.env['FOLIOSCOPE_DATA_DIR'] = tempDir();
});
afterEach(async () => {
  // The entry's own quit path closes the core it opened: it holds Electron's event until the
  // core has closed, then quits again.
  const quitting = state.appEvents.get('will-quit');
  if (quitting)
    await new Promise<void>((resolve) => {
      state.quit = resolve;
      quitting({ preventDefault: () => undefined });
    });
  state.quit = null;
});
afterAll(() => {
  process.env = env;
});

/** Starts the main entry and waits until it has loaded its window. */
async function startApp(): Promise<void> {
  await import('../../src/main/index.ts');
  await vi.waitFor(() => expect(state.loaded).toHaveLength(1), { timeout: 20_000, interval: 20 });
}

async function invokeFrom(url: string): Promise<unknown> {
  return state.handlers.get('folio:invoke')!({ senderFrame: { url, parent: null } }, 'app.info', undefined);
}

describe('ELECTRON_RENDERER_URL', () => {
  it('is ignored by a packaged app: the window loads the packaged renderer and a page at that URL may not call the contract', async () => {
    state.isPackaged = true;
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173';
    await startApp();
    expect(state.loaded).toEqual(['app://folioscope/index.html']);
    expect(await invokeFrom('http://localhost:5173/')).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(await invokeFrom('app://folioscope/index.html')).toMatchObject({ ok: true });
    // The window's core is the team client's (Settings → Team), signed out: the desktop's own books.
    const team = await state.handlers.get('folio:invoke')!({ senderFrame: { url: 'app://folioscope/index.html', parent: null } }, 'team.status', undefined);
    expect(team).toMatchObject({ ok: true, result: { available: true, state: 'signedOut' } });
  });

  it('is used by an unpackaged development build (npm run dev), from this computer only', async () => {
    state.isPackaged = false;
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173';
    await startApp();
    expect(state.loaded).toEqual(['http://localhost:5173']);
    expect(await invokeFrom('http://localhost:5173/')).toMatchObject({ ok: true });
  });

  it('needs a development build, and a loopback http(s) address', () => {
    const dev = { isPackaged: false, devBuild: true };
    expect(devServerUrlFor('http://127.0.0.1:5173', dev)).toBe('http://127.0.0.1:5173');
    expect(devServerUrlFor('http://[::1]:5173/', dev)).toBe('http://[::1]:5173/');
    // npm start runs a production build unpackaged: no dev server there either.
    expect(devServerUrlFor('http://localhost:5173', { isPackaged: false, devBuild: false })).toBeUndefined();
    expect(devServerUrlFor('http://localhost:5173', { isPackaged: true, devBuild: true })).toBeUndefined();
    for (const bad of ['https://evil.example/', 'http://localhost.evil.example:5173', 'file:///tmp/x.html', 'javascript:alert(1)', 'not a url', ''])
      expect(devServerUrlFor(bad, dev), bad).toBeUndefined();
  });
});
