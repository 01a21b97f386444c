import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where Folioscope keeps its data when no folder is given: the same folder Electron's
 * `app.getPath('userData')` names for the app, so the app, the CLI and the web shell share
 * one cache. FOLIOSCOPE_DATA_DIR overrides it.
 */
export function defaultDataDir(env: Record<string, string | undefined> = process.env, platform = process.platform): string {
  if (env['FOLIOSCOPE_DATA_DIR']) return env['FOLIOSCOPE_DATA_DIR'];
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Folioscope');
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'Folioscope');
  return join(env['XDG_CONFIG_HOME'] ?? join(home, '.config'), 'Folioscope');
}
