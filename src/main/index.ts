/**
 * Electron entry: the thin shell around the core. Everything it does beyond creating the
 * window and binding IPC lives in src/main/electron (policy) and src/main/core (the app).
 */

import type { BrowserWindow } from 'electron';
import { app, dialog, ipcMain, shell } from 'electron';
import { join } from 'node:path';
import { createCore, type Core, selfCheck } from './core/index.ts';
import { demoStarter, demoWorldFromEnv } from '../sim/demo.ts';
import { bindIpc } from './electron/ipc.ts';
import { notifyAlerts } from './electron/notifications.ts';
import { electronStartupDialogs, openCoreWithChoices } from './electron/startup-choice.ts';
import { registerAppScheme, serveRenderer } from './electron/protocol.ts';
import { devServerUrlFor } from './electron/security.ts';
import { closeBeforeQuit } from './electron/quit.ts';
import { startDesktopTeam, type TeamClient } from './team-client/client.ts';
import { createMainWindow, denyAllPermissions, enforceContentSecurityPolicy, preloadPath } from './electron/window.ts';

// electron-vite writes the build's mode into import.meta.env (DEV is false in `npm run build`
// and so in every installer); packaged apps are refused a dev server whatever the build said.
const devBuild = (import.meta as { env?: { DEV?: unknown } }).env?.DEV === true;
const devServerUrl = devServerUrlFor(process.env['ELECTRON_RENDERER_URL'], { isPackaged: app.isPackaged, devBuild });
/** The shell's core: the team client's (the team server, its copy, or the desktop's own books). */
let core: Core | null = null;
let local: Core | null = null;
let team: TeamClient | null = null;
let win: BrowserWindow | null = null;

// FOLIOSCOPE_DATA_DIR moves all of the app's data (the cache and Chromium's profile), as for the CLI.
const dataDirOverride = process.env['FOLIOSCOPE_DATA_DIR'];
if (dataDirOverride) app.setPath('userData', dataDirOverride);

registerAppScheme();

async function start(): Promise<void> {
  denyAllPermissions();
  enforceContentSecurityPolicy();
  serveRenderer(join(import.meta.dirname, '../renderer'));
  // A damaged or unwritable cache: offer read-only, move aside, another folder (not quit). A
  // folder encrypted with a passphrase not in the environment is no problem here: the core waits
  // for it, and the renderer's unlock screen asks (createCore, cache.unlock).
  local = await openCoreWithChoices(
    {
      dataDir: app.getPath('userData'),
      shell: 'electron',
      version: app.getVersion(),
      // The demo's world as the environment asks for it (FOLIOSCOPE_DEMO_SPAM=1: with spam).
      demo: demoStarter(demoWorldFromEnv(process.env)),
      openExternal: (url) => shell.openExternal(url),
      chooseSavePath: async (defaultName, format) => {
        const options = {
          defaultPath: join(app.getPath('downloads'), defaultName),
          filters: [
            format === 'pdf'
              ? { name: 'PDF report', extensions: ['pdf'] }
              : format === 'ics'
                ? { name: 'iCalendar', extensions: ['ics'] }
                : format === 'json'
                  ? { name: 'Folioscope data (JSON)', extensions: ['json'] }
                  : format === 'bundle'
                    ? { name: 'Auditor’s bundle (zip)', extensions: ['zip'] }
                    : { name: 'CSV (comma-separated)', extensions: ['csv'] },
          ],
        };
        const result = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
        return result.canceled || !result.filePath ? null : result.filePath;
      },
    },
    createCore,
    electronStartupDialogs(dialog),
  );
  if (!local) return app.quit();
  // Settings → Team (docs/team.md): signed in to a team server, the window works against it.
  team = await startDesktopTeam(local, { dataDir: app.getPath('userData'), shell: 'electron', version: app.getVersion() });
  core = team.core;
  bindIpc(ipcMain, core, () => win?.webContents ?? null, devServerUrl);
  // Alerts as OS notifications; a click brings the window forward (the inbox has the rest).
  notifyAlerts(core, () => {
    if (win?.isMinimized()) win.restore();
    win?.show();
    win?.focus();
  });
  win = createMainWindow({ preload: preloadPath(import.meta.dirname), ...(devServerUrl && { devServerUrl }) });
  win.on('closed', () => (win = null));
}

if (process.argv.includes('--self-check')) {
  // A packaged app's check on a new machine or in a release job: one JSON line, no window.
  void selfCheck({ dataDir: app.getPath('userData'), version: app.getVersion() })
    .catch((err: unknown) => ({ selfCheck: 'folioscope', ok: false, error: String((err as Error)?.message ?? err).split('\n')[0] }))
    .then((report) => process.stdout.write(JSON.stringify(report) + '\n', () => app.exit(report.ok ? 0 : 1)));
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (win?.isMinimized()) win.restore();
    win?.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    // No window may open another, whatever created it.
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  void app
    .whenReady()
    .then(start)
    .catch((err: unknown) => {
      // A cache from a newer version, an unreadable data folder: say it, then quit.
      dialog.showErrorBox('Folioscope could not start', (err as Error).message);
      app.exit(1);
    });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (!win && core) win = createMainWindow({ preload: preloadPath(import.meta.dirname), ...(devServerUrl && { devServerUrl }) });
  });
  closeBeforeQuit(app, async () => {
    await team?.close();
    await local?.close();
  });
}
