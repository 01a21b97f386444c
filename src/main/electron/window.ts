import { join } from 'node:path';
import { BrowserWindow, nativeTheme, session, shell } from 'electron';
import { allowedExternalUrl } from '../../shared/explorers.ts';
import { CONTENT_SECURITY_POLICY } from '../shell-policy/renderer-policy.ts';
import { APP_ENTRY, isAppUrl } from './security.ts';

/**
 * The one window, with Electron's security checklist applied: isolated, sandboxed, no
 * Node, navigation and new windows denied (explorer links go to the browser), every
 * permission request denied.
 */
export function createMainWindow(o: { preload: string; devServerUrl?: string }): BrowserWindow {
  const win = new BrowserWindow({
    width: 1320,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Folioscope',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#111418' : '#f7f8fa',
    // Spelled out here (not spread from a constant) so a reader and Electronegativity see them.
    webPreferences: {
      preload: o.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => win.show());

  const contents = win.webContents;
  contents.setWindowOpenHandler(({ url }) => {
    // The serialised parsed URL, never the string as given (see allowedExternalUrl).
    const checked = allowedExternalUrl(url);
    if (checked) void shell.openExternal(checked);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, o.devServerUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, o.devServerUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());

  void (o.devServerUrl ? win.loadURL(o.devServerUrl) : win.loadURL(APP_ENTRY));
  return win;
}

/**
 * Denies every permission but writing to the clipboard (the copy buttons for addresses
 * and hashes); reading the clipboard stays denied.
 */
export function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(permission === 'clipboard-sanitized-write'));
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => permission === 'clipboard-sanitized-write');
}

/** The app's CSP on every response, the dev server's too (app:// responses carry it as well). */
export function enforceContentSecurityPolicy(): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

export function preloadPath(mainDir: string): string {
  return join(mainDir, '../preload/index.cjs');
}
