#!/usr/bin/env node
// Checks, before the tests run, that every system part they use is here, and says which
// package to install when one is missing. The suite never skips a test for a missing part.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { nodeProblem } from '../bin/node-version.mjs';

const require = createRequire(import.meta.url);
const problems = [];

// The one rule the `folioscope` command also applies (Node 24: what Electron 45 embeds, and the ABI the native driver is built for).
const nodeIsWrong = nodeProblem(process.versions.node);
if (nodeIsWrong) problems.push(nodeIsWrong);

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

if (process.platform === 'linux') {
  const tools = [
    ['chromium', 'chromium', 'the renderer and end-to-end tests run in a real Chromium'],
    ['gnome-keyring-daemon', 'gnome-keyring', 'keychain tests use a real Secret Service'],
    ['dbus-run-session', 'dbus-daemon', 'keychain tests start a private D-Bus session'],
    ['secret-tool', 'libsecret-tools', 'keychain tests read entries back with secret-tool'],
    ['pdftotext', 'poppler-utils', 'report tests read PDFs with poppler'],
    ['pdfinfo', 'poppler-utils', 'report tests read PDFs with poppler'],
    ['pdftoppm', 'poppler-utils', 'report tests render PDF pages with poppler'],
    ['sqlite3', 'sqlite3', 'encryption tests check an encrypted cache is unreadable by the sqlite3 shell'],
  ];
  for (const [cmd, pkg, why] of tools) {
    // CHROMIUM_PATH names another Chromium build (CI runners have Google Chrome, not Debian's chromium).
    if (cmd === 'chromium' && process.env.CHROMIUM_PATH) {
      if (!existsSync(process.env.CHROMIUM_PATH)) problems.push(`CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which does not exist (${why}).`);
      continue;
    }
    if (!has(cmd)) problems.push(`'${cmd}' not found: install the Debian/Ubuntu package '${pkg}' (${why}).`);
  }
} else {
  problems.push(`The test suite runs on Linux (it needs gnome-keyring and Debian's chromium); this is ${process.platform}.`);
}

const NATIVE = [
  [
    'better-sqlite3-multiple-ciphers',
    'run npm ci again with Node 24 (where no prebuilt binary fits, it is built from source: python3, make and a C++ compiler)',
  ],
  ['keytar', "install 'libsecret-1-dev' (and a C++ toolchain), then run npm rebuild keytar"],
];
// Under another Node the native modules, built for Node 24's ABI, crash the process on load
// (a segmentation fault, no message): they are tried only under Node 24.
if (!nodeIsWrong) {
  for (const [mod, fix] of NATIVE) {
    try {
      require(mod);
    } catch (err) {
      problems.push(`The native module '${mod}' does not load (${String(err.message).split('\n')[0]}): ${fix}.`);
    }
  }
}

if (problems.length) {
  console.error('Cannot run the tests: the system is missing parts.\n' + problems.map((p) => `  - ${p}`).join('\n'));
  console.error('\nOn Debian/Ubuntu: sudo apt-get install chromium gnome-keyring dbus-daemon libsecret-1-dev libsecret-tools poppler-utils sqlite3');
  process.exit(1);
}
console.log('System check: Node 24, chromium, gnome-keyring, D-Bus, libsecret, poppler, sqlite3 and the native modules are present.');
