import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

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

/**
 * The project's folder (the one with its package.json) above `from`, a module's own folder. A
 * module of the program runs from src/main/… under tsx or bundled into out/main/, at different
 * depths, so the shells find the package.json and the built renderer from here rather than
 * from a fixed number of "..".
 */
export function appRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}
