import { beforeEach, describe, expect, it, vi } from 'vitest';

/** Electron cannot launch here: the layer is tested against a mock of its API. */
const state = vi.hoisted(() => ({
  windows: [] as any[],
  openExternal: [] as string[],
  permissionRequest: null as null | ((c: unknown, p: string, cb: (ok: boolean) => void) => void),
  permissionCheck: null as null | ((c: unknown, p: string) => boolean),
  headers: null as null | ((d: any, cb: (r: any) => void) => void),
}));

vi.mock('electron', () => {
  class BrowserWindow {
    options: any;
    handlers: Record<string, Function> = {};
    contentsHandlers: Record<string, Function> = {};
    windowOpenHandler: ((d: { url: string }) => { action: string }) | null = null;
    loaded: string | null = null;
    webContents = {
      setWindowOpenHandler: (h: any) => (this.windowOpenHandler = h),
      on: (event: string, h: Function) => (this.contentsHandlers[event] = h),
    };
    constructor(options: any) {
      this.options = options;
      state.windows.push(this);
    }
    once(event: string, h: Function) {
      this.handlers[event] = h;
    }
    loadURL(url: string) {
      this.loaded = url;
      return Promise.resolve();
    }
  }
  return {
    BrowserWindow,
    nativeTheme: { shouldUseDarkColors: false },
    shell: { openExternal: (url: string) => (state.openExternal.push(url), Promise.resolve()) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: any) => (state.permissionRequest = h),
        setPermissionCheckHandler: (h: any) => (state.permissionCheck = h),
        webRequest: { onHeadersReceived: (h: any) => (state.headers = h) },
      },
    },
  };
});

const { createMainWindow, denyAllPermissions, enforceContentSecurityPolicy } = await import('../../src/main/electron/window.ts');

beforeEach(() => {
  state.windows.length = 0;
  state.openExternal.length = 0;
});

describe('the main window', () => {
  it('is isolated, sandboxed, without Node, with the preload, loading the app', () => {
    createMainWindow({ preload: '/app/out/preload/index.cjs' });
    const win = state.windows[0];
    expect(win.options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(win.loaded).toBe('app://folioscope/index.html');
  });

  it('denies new windows, opening allowed explorer links in the browser', () => {
    createMainWindow({ preload: 'p' });
    const win = state.windows[0];
    expect(win.windowOpenHandler({ url: 'https://etherscan.io/tx/0x' + '1'.repeat(64) })).toEqual({ action: 'deny' });
    expect(win.windowOpenHandler({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(state.openExternal).toEqual(['https://etherscan.io/tx/0x' + '1'.repeat(64)]);
  });

  it('blocks navigation away from the app, and webviews', () => {
    createMainWindow({ preload: 'p' });
    const win = state.windows[0];
    const nav = (url: string) => {
      const event = { preventDefault: vi.fn() };
      win.contentsHandlers['will-navigate'](event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(nav('https://evil.example/')).toBe(true);
    expect(nav('app://folioscope/index.html#/timeline')).toBe(false);
    const redirect = { preventDefault: vi.fn() };
    win.contentsHandlers['will-redirect'](redirect, 'https://evil.example/');
    expect(redirect.preventDefault).toHaveBeenCalled();
    const webview = { preventDefault: vi.fn() };
    win.contentsHandlers['will-attach-webview'](webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('in development loads the dev server and allows navigating within it only', () => {
    createMainWindow({ preload: 'p', devServerUrl: 'http://localhost:5173' });
    const win = state.windows[0];
    expect(win.loaded).toBe('http://localhost:5173');
    const event = { preventDefault: vi.fn() };
    win.contentsHandlers['will-navigate'](event, 'http://localhost:9999/');
    expect(event.preventDefault).toHaveBeenCalled();
  });

  it('denies every permission request and check but clipboard writes, and sets the CSP on responses', () => {
    denyAllPermissions();
    enforceContentSecurityPolicy();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      let granted: boolean | null = null;
      state.permissionRequest!(null, permission, (ok) => (granted = ok));
      expect(granted).toBe(false);
      expect((state.permissionCheck as any)(null, permission)).toBe(false);
    }
    let write: boolean | null = null;
    state.permissionRequest!(null, 'clipboard-sanitized-write', (ok) => (write = ok));
    expect(write).toBe(true);
    let headers: any;
    state.headers!({ responseHeaders: { 'X-A': ['1'] } }, (r) => (headers = r.responseHeaders));
    expect(headers['Content-Security-Policy'][0]).toMatch(/script-src 'self';/);
    expect(headers['X-A']).toEqual(['1']);
  });
});
