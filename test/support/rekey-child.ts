/**
 * One change of a data folder's key in its own process, as the app makes it (its files converted
 * on the conversion's worker thread): rekey-child.ts DIR, with OLD_PASSPHRASE (the folder's) and
 * NEW_PASSPHRASE in the environment (and NEW_COST, scrypt's cost for the new key as JSON, when
 * not the default); prints "done" when the change finished. Started with kill-at-step.ts loaded
 * in every thread, it kills itself before its Nth step, and a test then opens what it left.
 */
import { join } from 'node:path';

const [dir] = process.argv.slice(2);
const { loadFolderKey, rekeyFolder } = await import('../../src/main/core/session/encryption.ts');
const keychain = { get: async () => null, set: async () => {}, delete: async () => false };
const key = await loadFolderKey(dir!, join(dir!, 'demo.sqlite'), { keychain, passphrase: process.env.OLD_PASSPHRASE! });
const cost = process.env.NEW_COST ? JSON.parse(process.env.NEW_COST) : undefined;
await rekeyFolder(dir!, { keychain, key: key!, passphrase: process.env.NEW_PASSPHRASE!, cost });
process.stdout.write('done\n');
