/**
 * One change of a data folder's key in its own process, killed by itself just before its Nth
 * step: a rename (every step of a conversion that a crash can fall between ends in one) or the
 * removal of a file named `….sqlite` (an old backup once its converted copy is named): a test
 * then opens what it left. rekey-child.ts DIR N, with OLD_PASSPHRASE (the folder's) and NEW_PASSPHRASE
 * in the environment (and NEW_COST, scrypt's cost for the new key as JSON, when not the default);
 * prints "done" when the change finished before the Nth rename.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';

const [dir, n] = process.argv.slice(2);
const killAt = Number(n);
const rename = fs.renameSync;
const rm = fs.rmSync;
let steps = 0;
const step = () => {
  if (++steps === killAt) process.kill(process.pid, 'SIGKILL');
};
fs.renameSync = (from, to) => {
  step();
  rename(from, to);
};
// The removal of an old backup (the converted one named already): a stop there leaves both.
fs.rmSync = (path, options) => {
  if (String(path).endsWith('.sqlite')) step();
  rm(path, options);
};
// The named imports of node:fs in the code under test see the patched function too.
syncBuiltinESMExports();

const { loadFolderKey, rekeyFolder } = await import('../../src/main/core/session/encryption.ts');
const keychain = { get: async () => null, set: async () => {}, delete: async () => false };
const key = await loadFolderKey(dir!, join(dir!, 'demo.sqlite'), { keychain, passphrase: process.env.OLD_PASSPHRASE! });
const cost = process.env.NEW_COST ? JSON.parse(process.env.NEW_COST) : undefined;
await rekeyFolder(dir!, { keychain, key: key!, passphrase: process.env.NEW_PASSPHRASE!, cost });
process.stdout.write('done\n');
