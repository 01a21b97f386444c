#!/usr/bin/env node
// `npm run test:electron`: the Electron end-to-end suite, for machines where Electron can run.
//   1. Electron's binary: ELECTRON_EXEC_PATH, the installed one, or fetched now (electron-binary.mjs).
//   2. Build the app (electron-vite build).
//   3. Launch it once with --self-check: proves Electron starts here and the native modules load.
//   4. Run the suite (vitest.electron.config.ts), inside a private keyring session on Linux.
// Where Electron cannot start (no binary and no network, no display, a misconfigured sandbox
// helper) it prints one line saying so and exits non-zero.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ElectronUnavailableError, resolveElectron } from './electron-binary.mjs';

const projectDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(projectDir, 'package.json'));
const cannot = (why) => {
  console.error(`test:electron: Electron cannot launch here: ${why}`);
  process.exit(1);
};

// 1. A download that fails at once needs no notice; one that takes a while gets its line.
let notice = null;
let electron;
try {
  electron = await resolveElectron({ projectDir, log: (line) => (notice = setTimeout(() => console.error(line), 3000)) });
} catch (err) {
  cannot(err instanceof ElectronUnavailableError ? err.message : String(err?.message ?? err).split('\n')[0]);
} finally {
  clearTimeout(notice);
}

// 2. Build.
const vitePkg = require.resolve('electron-vite/package.json');
const viteCli = join(dirname(vitePkg), JSON.parse(readFileSync(vitePkg, 'utf8')).bin['electron-vite']);
const build = spawnSync(process.execPath, [viteCli, 'build'], { cwd: projectDir, stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) {
  console.error('test:electron: the build failed (npm run build shows why).');
  process.exit(1);
}

// 3. Can Electron start the app here? Its self-check answers without a window.
const probeDir = mkdtempSync(join(tmpdir(), 'folioscope-selfcheck-'));
const probe = spawnSync(electron.path, [projectDir, '--self-check'], {
  cwd: projectDir,
  env: { ...process.env, FOLIOSCOPE_DATA_DIR: probeDir, ELECTRON_ENABLE_LOGGING: '' },
  encoding: 'utf8',
  timeout: 60_000,
});
rmSync(probeDir, { recursive: true, force: true });
const reportLine = (probe.stdout ?? '').split('\n').find((l) => l.startsWith('{"selfCheck"'));
if (!reportLine) {
  const lines = `${probe.error?.message ?? ''}\n${probe.stderr ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const why = lines.find((l) => /FATAL|Missing X server|sandbox|cannot open display|error/i.test(l)) ?? lines.at(-1) ?? `exit code ${probe.status}`;
  cannot(why.slice(0, 300));
}
console.log(`self-check: ${reportLine}`);
if (JSON.parse(reportLine).ok !== true) {
  console.error('test:electron: the app started but its self-check failed (see the line above).');
  process.exit(1);
}

// 4. The suite, with the OS keychain: a private gnome-keyring on Linux, the user's elsewhere.
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');
const run = [process.execPath, vitest, 'run', '-c', 'vitest.electron.config.ts', ...process.argv.slice(2)];
const command = process.platform === 'linux' ? [join(projectDir, 'scripts/with-keyring.sh'), ...run] : run;
const child = spawn(command[0], command.slice(1), { cwd: projectDir, stdio: 'inherit', env: { ...process.env, FOLIOSCOPE_ELECTRON: electron.path } });
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
