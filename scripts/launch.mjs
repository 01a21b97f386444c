#!/usr/bin/env node
// `npm start` and `npm run dev`: makes sure there is an Electron binary (fetched on first use,
// see electron-binary.mjs), then hands over to electron-vite with ELECTRON_EXEC_PATH set:
//   start → electron-vite preview  (builds main, preload and renderer, runs the built app)
//   dev   → electron-vite dev      (renderer dev server with hot reload, ELECTRON_RENDERER_URL)
// Arguments after the mode go to electron-vite (e.g. `npm start -- --noSandbox`).
// The binary is settled before the build, so an offline first start fails in seconds.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ElectronUnavailableError, resolveElectron } from './electron-binary.mjs';

const projectDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const [mode, ...rest] = process.argv.slice(2);
const COMMANDS = { start: 'preview', dev: 'dev' };

if (!COMMANDS[mode]) {
  console.error('Usage: node scripts/launch.mjs start|dev [electron-vite options]');
  process.exit(2);
}

let electron;
try {
  electron = await resolveElectron({ projectDir });
} catch (err) {
  // One line the user can act on; an unexpected failure still gets its first line only.
  const message = err instanceof ElectronUnavailableError ? err.message : `Could not prepare Electron: ${String(err?.message ?? err).split('\n')[0]}`;
  console.error(`npm ${mode === 'start' ? 'start' : 'run dev'}: ${message}`);
  process.exit(1);
}

// electron-vite's package exports do not list its bin; find it from its package.json.
const vitePkg = createRequire(join(projectDir, 'package.json')).resolve('electron-vite/package.json');
const cli = join(dirname(vitePkg), JSON.parse(readFileSync(vitePkg, 'utf8')).bin['electron-vite']);
const child = spawn(process.execPath, [cli, COMMANDS[mode], ...rest], {
  cwd: projectDir,
  stdio: 'inherit',
  env: { ...process.env, ELECTRON_EXEC_PATH: electron.path },
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
