#!/usr/bin/env node
// `npm run dist`: build the app, then the installers with electron-builder (electron-builder.yml),
// never publishing (the release workflow publishes, with checksums). electron-builder reports a
// failure with the stack trace of whatever threw; this keeps its message and drops the stack, and
// when the cause is the network (it downloads Electron and its packaging tools from GitHub on
// first use) says so in one line. Arguments go to electron-builder (e.g. --linux deb).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const projectDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(projectDir, 'package.json'));
const binOf = (name, bin = name) => {
  const pkg = require.resolve(`${name}/package.json`);
  const field = JSON.parse(readFileSync(pkg, 'utf8')).bin;
  return join(dirname(pkg), typeof field === 'string' ? field : field[bin]);
};

const build = spawnSync(process.execPath, [binOf('electron-vite'), 'build'], { cwd: projectDir, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const NETWORK =
  /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|getaddrinfo|socket hang up|dial tcp|no such host|network is unreachable|i\/o timeout|certificate/i;
let failure = '';
const child = spawn(process.execPath, [binOf('electron-builder'), '--publish', 'never', ...process.argv.slice(2)], {
  cwd: projectDir,
  stdio: ['ignore', 'pipe', 'pipe'],
});
for (const [stream, out] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
]) {
  let inStack = false;
  createInterface({ input: stream }).on('line', (line) => {
    if (inStack && (/^\s+at /.test(line) || !line.trim())) return;
    inStack = false;
    const at = line.indexOf('stackTrace=');
    if (at >= 0) {
      inStack = true;
      line = line.slice(0, at).trimEnd();
    }
    if (/^\s*⨯/.test(line)) failure = line.replace(/^\s*⨯\s*/, '').replace(/\s+failedTask=\S+/, '');
    out.write(line + '\n');
  });
}
child.on('close', (code, signal) => {
  if (code === 0) process.exit(0);
  if (NETWORK.test(failure)) {
    console.error(
      `npm run dist: electron-builder could not download what it packages with (${failure.slice(0, 160)}). ` +
        'Packaging needs the internet: Electron and the packaging tools come from GitHub on first use ' +
        '(mirrors: ELECTRON_MIRROR, ELECTRON_BUILDER_BINARIES_MIRROR; see the README, Packaging).',
    );
  } else {
    console.error(`npm run dist: electron-builder failed${failure ? ` (${failure.slice(0, 200)})` : ''}; its output is above.`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
