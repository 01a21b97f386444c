#!/usr/bin/env node
// npm's postinstall: makes sure better-sqlite3-multiple-ciphers (SQLite3 Multiple Ciphers, the
// driver of every cache connection) has a native binary that loads in this Node.
//
// The package ships Node-API prebuilds inside its npm tarball (Linux x64/arm64, glibc and musl,
// macOS x64/arm64, Windows x64/arm64): nothing is downloaded, and the same binary loads in
// Node 24 and in Electron 45. Where none fits this system (another CPU or OS), or one does not
// load, it is built from the package's own sources (the SQLite3MC amalgamation) with node-gyp:
// python3, make and a C++ compiler, against npm_config_nodedir when set. With
// FOLIOSCOPE_SQLITE_FROM_SOURCE=1 it is built from source even where a prebuild fits, and that
// prebuild removed so the package loads the one built here (CI does this: .ci/run).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const NAME = 'better-sqlite3-multiple-ciphers';
let dir;
try {
  dir = dirname(require.resolve(`${NAME}/package.json`));
} catch {
  // Not installed (npm ci --omit, a partial install): nothing to build.
  process.exit(0);
}

/** Whether the package loads and opens an encrypted connection, in a fresh Node. */
function loads() {
  const probe = `const D = require(${JSON.stringify(dir)}); const db = new D(':memory:'); db.prepare('SELECT sqlite3mc_version()').get(); db.close();`;
  return spawnSync(process.execPath, ['-e', probe], { stdio: 'ignore' }).status === 0;
}

const { getPrebuildPath } = require(join(dir, 'lib', 'binding.js'));
const prebuild = getPrebuildPath();
const forced = process.env.FOLIOSCOPE_SQLITE_FROM_SOURCE === '1';
if (!forced && prebuild && loads()) process.exit(0);

const why = forced
  ? 'FOLIOSCOPE_SQLITE_FROM_SOURCE=1'
  : prebuild
    ? 'its prebuilt binary does not load here'
    : `no prebuilt binary fits ${process.platform}-${process.arch}`;
console.log(`${NAME}: building SQLite3 Multiple Ciphers from source (${why}); this takes a few minutes.`);
// npm gives its own node-gyp to lifecycle scripts; npx finds one otherwise.
const gyp = process.env.npm_config_node_gyp;
const [cmd, args] = gyp ? [process.execPath, [gyp]] : ['npx', ['--yes', 'node-gyp']];
const started = Date.now();
const built = spawnSync(cmd, [...args, 'rebuild', '--release', '--', '-Dforce_build=1'], {
  cwd: dir,
  stdio: 'inherit',
  shell: !gyp && process.platform === 'win32',
});
if (built.status !== 0) {
  console.error(
    `${NAME}: the build from source failed (exit ${built.status}). It needs python3, make and a C++ compiler (Debian: apt-get install python3 make g++).`,
  );
  process.exit(1);
}
// The package loads a prebuild before a built binary: the one built here must be the one used.
if (prebuild && existsSync(prebuild)) rmSync(prebuild);
if (!loads()) {
  console.error(`${NAME}: built from source, but the binary does not load.`);
  process.exit(1);
}
console.log(`${NAME}: built from source in ${Math.round((Date.now() - started) / 1000)} s (${join(dir, 'build', 'Release', 'better_sqlite3.node')}).`);
