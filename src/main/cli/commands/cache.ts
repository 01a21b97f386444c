/** `folioscope cache`: encryption at rest (encrypt, decrypt, status) and a damaged cache moved aside. */
import { existsSync } from 'node:fs';
import type { EncryptionStatus } from '../../../shared/model.ts';
import { forTerminal, jsonForTerminal } from '../../../shared/text-safety.ts';
import {
  CACHE_KEY_SERVICE,
  type Core,
  databaseFileFor,
  encryptionStatus,
  ENV_BASE_URL,
  loadFolderKey,
  moveCacheAside,
  normaliseBaseUrl,
  PASSPHRASE_ENV,
  readAppConfig,
  systemKeychain,
} from '../../core/index.ts';
import { call, type Globals, parse, passphraseFromStdin, UsageError, withCore } from '../context.ts';
import { io, say } from '../io.ts';
import { conversionPrinter } from '../progress.ts';

const CACHE_USAGE = `Usage: folioscope cache encrypt [--passphrase-stdin] [--cancel-jobs] | rekey [--passphrase-stdin] [--cancel-jobs] | decrypt [--cancel-jobs] | status [--json] | move-aside
  encrypt      encrypts every cache of the data folder and every backup of them, each converted
               in place and checked before it replaces the old file (which is removed once the
               new one opens). The key is random and kept in the system keychain (service
               "${CACHE_KEY_SERVICE}", one entry per data folder); with --passphrase-stdin it is
               derived from the passphrase read from standard input (scrypt, N=2^17, r=8, p=1;
               at least 8 characters), and every later run needs it in ${PASSPHRASE_ENV}.
               Run again after a stop midway: it finishes the job.
  rekey        moves an encrypted folder to a new key, every cache and backup converted from the
               old key to the new one, never plain in between: a new random key in the keychain,
               or with --passphrase-stdin one derived from the new passphrase read from standard
               input. A passphrase folder's current passphrase is ${PASSPHRASE_ENV}; every later
               run needs the new one there. A stop midway is finished by the next run (any
               command) given the new key.
  decrypt      the reverse: every cache and backup plain again, then the key removed
  status       whether the caches and backups are encrypted, and with what (never the key)
  move-aside   keeps the current cache (damaged or not) as <file>.damaged-<time>, byte for byte
               as found, with its -wal and -shm, and starts a new one with the wallets and settings that can
               still be read from it; sync then rebuilds the history. Nothing is deleted.
  --cancel-jobs  cancel running syncs first (else the command is refused while they run)`;

function printEncryption(s: EncryptionStatus): void {
  if (!s.on) say('Encryption at rest: off (the caches and backups of this data folder are plain SQLite files).');
  else {
    const how =
      s.keySource === 'keychain'
        ? `a random key in the system keychain (service "${CACHE_KEY_SERVICE}")`
        : `a key derived from a passphrase (scrypt, N=${s.kdf?.N}, r=${s.kdf?.r}, p=${s.kdf?.p})`;
    say(`Encryption at rest: on (${s.cipher}, ${how}; key id ${s.keyId}).`);
  }
  for (const c of s.caches) say(`  ${c.encrypted ? 'encrypted' : 'plain    '}  ${c.file}  ${c.bytes} bytes`);
  say(`  backups: ${s.backups.encrypted} encrypted, ${s.backups.plain} plain`);
  for (const f of s.leftovers) say(`  left by a conversion (removed when its cache next opens): ${f}`);
  if (s.unfinished) say('  Not every file is encrypted yet (a conversion stopped midway): run folioscope cache encrypt again to finish.');
  if (s.changing)
    say(
      `  A change of key is not finished: every file opens under the old key or the new one. The next run given the new key (${PASSPHRASE_ENV} set to the new passphrase, if it is one) finishes it; if it stays, a backup or a copy kept aside cannot be converted (backup verify names a damaged backup): remove or restore it.`,
    );
}

/** `run` with the conversion's count on the terminal while it goes (conversionPrinter). */
async function showingConversion<T>(core: Core, run: () => Promise<T>): Promise<T> {
  const bar = conversionPrinter(io().stderr);
  const off = core.on('cache.converting', (c) => bar.update(c));
  try {
    return await run();
  } finally {
    off();
    bar.done();
  }
}

export async function cacheCommand(g: Globals, args: string[]): Promise<void> {
  const p = parse(args, { 'passphrase-stdin': { type: 'boolean' }, 'cancel-jobs': { type: 'boolean' }, json: { type: 'boolean' } }, CACHE_USAGE);
  if (!p) return;
  const [sub, ...rest] = p.positionals;
  if (rest.length) throw new UsageError(`Unexpected argument ${forTerminal(rest[0]!.slice(0, 40))}.\n\n${CACHE_USAGE}`);
  const v = p.values;
  const cancelJobs = v['cancel-jobs'] ? { cancelJobs: true } : {};
  if (sub === 'status') {
    // Read from the files (no core, so it also speaks of a cache whose key is missing).
    const s = encryptionStatus(g.dataDir);
    if (v.json) say(jsonForTerminal(s));
    else printEncryption(s);
    return;
  }
  if (sub === 'encrypt') {
    const passphrase = v['passphrase-stdin'] ? passphraseFromStdin() : undefined;
    const s = await withCore(g, (core) =>
      showingConversion(core, () => call(core, 'cache.encrypt', { ...(passphrase !== undefined && { passphrase }), ...cancelJobs })),
    );
    printEncryption(s);
    if (passphrase !== undefined) say(`Every later run needs the passphrase: ${PASSPHRASE_ENV}=… folioscope …`);
    return;
  }
  if (sub === 'rekey') {
    const passphrase = v['passphrase-stdin'] ? passphraseFromStdin() : undefined;
    // A passphrase folder's key is changed with its current passphrase, as Settings asks for it: the run's own.
    const currentPassphrase = io().env[PASSPHRASE_ENV];
    const s = await withCore(g, (core) =>
      showingConversion(core, () =>
        call(core, 'cache.rekey', { ...(passphrase !== undefined && { passphrase }), ...(currentPassphrase && { currentPassphrase }), ...cancelJobs }),
      ),
    );
    printEncryption(s);
    say(
      passphrase !== undefined
        ? `Every later run needs the new passphrase: ${PASSPHRASE_ENV}=… folioscope …`
        : `The key is in the system keychain: later runs need no passphrase (unset ${PASSPHRASE_ENV}).`,
    );
    return;
  }
  if (sub === 'decrypt') {
    if (v['passphrase-stdin']) throw new UsageError(`decrypt reads the passphrase from ${PASSPHRASE_ENV}.\n\n${CACHE_USAGE}`);
    // A folder encrypted with a passphrase is turned off with it, as Settings asks for it: the run's own.
    const passphrase = io().env[PASSPHRASE_ENV];
    printEncryption(
      await withCore(g, (core) => showingConversion(core, () => call(core, 'cache.decrypt', { ...(passphrase && { passphrase }), ...cancelJobs }))),
    );
    return;
  }
  if (sub !== 'move-aside' || v['passphrase-stdin']) throw new UsageError(CACHE_USAGE);
  const configured = g.baseUrl ?? io().env[ENV_BASE_URL] ?? readAppConfig(g.dataDir).baseUrl;
  const file = databaseFileFor(g.dataDir, configured ? normaliseBaseUrl(configured) : null);
  if (!existsSync(file)) throw new Error(`There is no cache at ${file} to move aside.`);
  // In an encrypted data folder the new cache is encrypted too: the folder's key is needed.
  const key = await loadFolderKey(g.dataDir, file, {
    keychain: systemKeychain(CACHE_KEY_SERVICE, { cli: true }),
    passphrase: io().env[PASSPHRASE_ENV] ?? null,
  });
  const { movedTo, walletsRecovered } = moveCacheAside(file, new Date(), key);
  say(
    `Moved ${file} aside to ${movedTo} (nothing deleted). New cache started with ${walletsRecovered} wallet${walletsRecovered === 1 ? '' : 's'} recovered; run folioscope sync to rebuild the history.`,
  );
}
