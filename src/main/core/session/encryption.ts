/**
 * Encryption at rest of a data folder (README, "Encryption at rest"): turning it on or off
 * converts every cache of the folder and every backup of them (store/folder-conversion.ts, on a
 * worker thread: store/conversion-thread.ts), and keeps the folder's settings
 * (secrets/cache-key.ts) in step. The order makes a stop at any point leave a folder whose every
 * file opens:
 *
 * - on: the key is stored (keychain) and encryption.json written first, then each file is
 *   converted. A file not yet converted is plain, and plain files open without a key.
 * - off: each file is converted first, then encryption.json and the keychain entry are
 *   removed. A file not yet converted is still encrypted, and its key is still there.
 *
 * Either way, running the same command again finishes the job.
 *
 * A change from one key to another (a new passphrase, the keychain for a passphrase or the other
 * way, a new random key) never leaves a file plain: the new key is stored and encryption.json
 * names it as `next`, with the old key sealed under it, before any file is converted; once every
 * file is, the new key's settings replace the old ones and the old keychain entry goes. A file is
 * under one key or the other at any stop, and opening the folder (loadFolderKey, at every start)
 * finishes such a change with the new key alone, trying each file under both.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ConversionCount, EncryptionStatus } from '../../../shared/model.ts';
import {
  configAfterChange,
  type EncryptionConfig,
  folderKey,
  type KeySources,
  newFolderKey,
  previousKeyOf,
  readEncryptionConfig,
  removeConfigLeftovers,
  removeEncryptionConfig,
  sealKey,
  writeEncryptionConfig,
  WrongPassphraseError,
  type Keychain,
  type ScryptCost,
} from '../secrets/index.ts';
import { listBackups } from '../store/backup-files.ts';
import { assertAlone, cacheFilesIn, conversionLeftovers, isEncryptedFile, keyOpening } from '../store/cache-conversion.ts';
import { convertFolderOffThread } from '../store/conversion-thread.ts';
import { cachesWithBackups } from '../store/folder-conversion.ts';
import type { CacheKey } from '../store/driver.ts';
import { refusal } from '../store/validation.ts';

/** What the folder holds, encrypted or not; read from the files and encryption.json, never with the key. */
export function encryptionStatus(dataDir: string): EncryptionStatus {
  const config = readEncryptionConfig(dataDir, join(dataDir, 'encryption.json'));
  const caches = cacheFilesIn(dataDir).map((file) => ({ file, encrypted: isEncryptedFile(file), bytes: statSync(file).size }));
  const backups = { encrypted: 0, plain: 0 };
  const leftovers: string[] = [];
  for (const cache of cachesWithBackups(dataDir)) {
    for (const b of listBackups(cache)) if (!b.problem) backups[b.encrypted ? 'encrypted' : 'plain']++;
    leftovers.push(...conversionLeftovers(cache));
  }
  return {
    on: config !== null,
    keySource: config?.keySource ?? null,
    cipher: config?.cipher ?? null,
    kdf: config?.kdf ? { name: config.kdf.name, N: config.kdf.N, r: config.kdf.r, p: config.kdf.p } : null,
    keyId: config ? config.keyCheck.slice(0, 16) : null,
    caches,
    backups,
    leftovers,
    unfinished: config !== null && (caches.some((c) => !c.encrypted && c.bytes > 0) || backups.plain > 0),
    changing: config?.next !== undefined,
  };
}

/**
 * The key the folder's caches open with: null for a plain folder; the keychain's or the
 * passphrase's, checked, for an encrypted one (else CacheProblemError 'locked', naming `cacheFile`).
 */
export async function loadFolderKey(dataDir: string, cacheFile: string, sources: KeySources): Promise<CacheKey | null> {
  const config = readEncryptionConfig(dataDir, cacheFile);
  if (!config) return null;
  const key = await folderKey(config, sources, cacheFile);
  // A change of key a stop left midway: finished now, before any cache of the folder opens.
  if (config.next) await finishChange(dataDir, config, key, previousKeyOf(config, key, cacheFile), sources.keychain, new Date());
  return key;
}

/**
 * The rest of a change of key: every file under `previous` converted to `key` (a file already
 * under it is left), then the new key's settings written and the old keychain entry removed.
 * A backup or copy kept aside that could not be converted keeps the change open (encryption.json's
 * `next`, so the old key stays reachable for it): the status says so, and the next open tries again.
 */
async function finishChange(dataDir: string, pending: EncryptionConfig, key: CacheKey, previous: CacheKey, keychain: Keychain, now: Date): Promise<void> {
  for (const cache of cacheFilesIn(dataDir)) assertAlone(cache, keyOpening(cache, [key, previous]) ?? key);
  removeConfigLeftovers(dataDir);
  if ((await convertFolderOffThread(dataDir, previous, key, now)).length) return;
  writeEncryptionConfig(dataDir, configAfterChange(pending));
  await forgetKeychainKey(pending, keychain);
}

/** The keychain entry of a key the folder no longer uses (a passphrase's has none). */
async function forgetKeychainKey(c: Pick<EncryptionConfig, 'keySource' | 'folderId'>, keychain: Keychain): Promise<void> {
  if (c.keySource !== 'keychain') return;
  try {
    await keychain.delete(c.folderId);
  } catch {
    // No file is under that key any more; an entry left in the keychain unlocks nothing that remains.
  }
}

/** Throws what a folder's conversion could not convert, if anything: every cache was. */
function sayProblems(problems: string[]): void {
  if (problems.length)
    throw new Error(
      `Every cache was converted, but ${problems.length} backup${problems.length === 1 ? '' : 's'} or cop${problems.length === 1 ? 'y' : 'ies'} kept aside could not be and ${problems.length === 1 ? 'was' : 'were'} left as ${problems.length === 1 ? 'it was' : 'they were'} (${problems.join('; ').slice(0, 400)}). Remove or restore ${problems.length === 1 ? 'it' : 'them'}, then run this again.`,
    );
}

export interface EncryptOptions {
  /** The keychain of cache keys (a random key is kept there unless a passphrase is given). */
  keychain: Keychain;
  /** Encrypt with a key derived from this passphrase instead. */
  passphrase?: string;
  now?: Date;
  /** Told how far the conversion is, before its first file and as each is done with. */
  onCount?: (c: ConversionCount) => void;
}

/**
 * Encrypts the folder (every cache and backup), or finishes an encryption a stop left midway.
 * The caches must be closed in this process; another process that has one open stops it
 * (CacheInUseError) before that cache is touched. Returns the folder's key.
 */
export async function encryptFolder(dataDir: string, o: EncryptOptions): Promise<CacheKey> {
  const now = o.now ?? new Date();
  const existing = readEncryptionConfig(dataDir, join(dataDir, 'encryption.json'));
  let key: CacheKey;
  // A change of key a stop left midway is finished by the next open, not here (its files are under two keys).
  if (existing?.next) throw refusal('encryption', 'encryption.changeUnfinished', {});
  if (existing) {
    const wanted: EncryptionConfig['keySource'] = o.passphrase !== undefined ? 'passphrase' : 'keychain';
    if (existing.keySource !== wanted) throw refusal('encryption', 'encryption.already', { source: existing.keySource });
    // Finishing: the same key, which must be the right one.
    key = await folderKey(existing, { keychain: o.keychain, passphrase: o.passphrase ?? null }, join(dataDir, 'encryption.json'));
    for (const cache of cacheFilesIn(dataDir)) assertAlone(cache, key);
  } else {
    // Another Folioscope with a cache open stops it here, before the key or any file is written.
    for (const cache of cacheFilesIn(dataDir)) assertAlone(cache, null);
    const made = await newFolderKey(o.passphrase !== undefined ? { passphrase: o.passphrase } : { keychain: o.keychain }, now);
    // The key is kept before any file needs it: a stop after this point leaves a folder that opens.
    await made.store();
    writeEncryptionConfig(dataDir, made.config);
    key = made.key;
  }
  sayProblems(await convertFolderOffThread(dataDir, existing ? key : null, key, now, o.onCount));
  return key;
}

/**
 * Before a folder encrypted with a passphrase is turned off or given another key: the passphrase
 * typed again, checked against encryption.json's check value (scrypt, as at a start), so a screen
 * left unlocked is not enough to leave the folder plain or to put it under a key of someone
 * else's choosing. A folder with a keychain key (or none) needs nothing. Refused (field
 * `passphrase`, or `field` as named) when missing or wrong, before anything is closed or written;
 * the refusal never holds what was typed.
 */
export async function checkFolderPassphrase(
  dataDir: string,
  passphrase: string | undefined,
  keychain: Keychain,
  o: { why: 'off' | 'change'; field?: string } = { why: 'off' },
): Promise<void> {
  const file = join(dataDir, 'encryption.json');
  const config = readEncryptionConfig(dataDir, file);
  if (config?.keySource !== 'passphrase') return;
  const field = o.field ?? 'passphrase';
  if (!passphrase) throw refusal(field, o.why === 'off' ? 'encryption.passphraseNeeded' : 'encryption.passphraseToChange', {});
  try {
    await folderKey(config, { keychain, passphrase }, file);
  } catch (err) {
    if (err instanceof WrongPassphraseError) throw refusal(field, 'cache.wrongPassphrase', {});
    throw err;
  }
}

/**
 * Decrypts the folder (every cache and backup) with its key, then removes encryption.json and
 * the keychain entry. The caches must be closed in this process (see encryptFolder).
 */
export async function decryptFolder(
  dataDir: string,
  o: { keychain: Keychain; key: CacheKey; now?: Date; onCount?: (c: ConversionCount) => void },
): Promise<void> {
  const config = readEncryptionConfig(dataDir, join(dataDir, 'encryption.json'));
  if (!config) throw refusal('encryption', 'encryption.none', {});
  if (config.next) throw refusal('encryption', 'encryption.changeUnfinished', {});
  for (const cache of cacheFilesIn(dataDir)) assertAlone(cache, o.key);
  sayProblems(await convertFolderOffThread(dataDir, o.key, null, o.now ?? new Date(), o.onCount));
  removeEncryptionConfig(dataDir);
  await forgetKeychainKey(config, o.keychain);
}

export interface RekeyOptions {
  keychain: Keychain;
  /** The folder's key now (the session's). */
  key: CacheKey;
  /** The new key derived from this passphrase; without it, a new random key kept in the keychain. */
  passphrase?: string;
  /**
   * scrypt's cost for that passphrase's key: CACHE_SCRYPT unless given. No shell gives it: a test
   * of the change's own steps (test/secrets/rekey.test.ts, 30 processes) gives the least a file
   * may name, as a folder written with it may, so its hundred derivations do not dominate it.
   */
  cost?: ScryptCost;
  now?: Date;
  /** Told how far the conversion is (see EncryptOptions); an undoing after a failure is not told. */
  onCount?: (c: ConversionCount) => void;
}

/**
 * Moves an encrypted folder (every cache, backup and copy kept aside) from its key to a new one,
 * file by file, never plain in between. The new key is stored and named in encryption.json as
 * `next` (with the old key sealed under it) before any file is converted, so a stop at any point
 * leaves every file under one key or the other, and the next open finishes the change with the new
 * key alone (loadFolderKey). A failure in this process is undone where it can be (the files
 * converted back, encryption.json as it was, the new keychain entry removed); where it cannot, the
 * change is left for the next open to finish. The caches must be closed in this process (see
 * encryptFolder). Returns the new key.
 */
export async function rekeyFolder(dataDir: string, o: RekeyOptions): Promise<CacheKey> {
  const now = o.now ?? new Date();
  const file = join(dataDir, 'encryption.json');
  const config = readEncryptionConfig(dataDir, file);
  if (!config) throw refusal('encryption', 'encryption.none', {});
  if (config.next) throw refusal('encryption', 'encryption.changeUnfinished', {});
  if (config.keyCheck !== o.key.check()) throw new Error('The key given is not the data folder’s. Nothing was changed.');
  // Another Folioscope with a cache open stops it here, before the key or any file is written.
  for (const cache of cacheFilesIn(dataDir)) assertAlone(cache, o.key);
  removeConfigLeftovers(dataDir);
  const made = await newFolderKey(o.passphrase !== undefined ? { passphrase: o.passphrase, ...(o.cost && { cost: o.cost }) } : { keychain: o.keychain }, now);
  const { format: _f, version: _v, cipher: _c, ...fields } = made.config;
  const pending: EncryptionConfig = { ...config, next: { ...fields, previous: sealKey(o.key, made.key) } };
  // The new key is kept, and named, before any file needs it: a stop after this point leaves a folder that opens with it.
  await made.store();
  writeEncryptionConfig(dataDir, pending);
  const undo = async (): Promise<boolean> => {
    try {
      sayProblems(await convertFolderOffThread(dataDir, made.key, o.key, now));
      writeEncryptionConfig(dataDir, config);
      await forgetKeychainKey(made.config, o.keychain);
      return true;
    } catch {
      // Not undone (the disk still full, say): the next open finishes the change with the new key.
      return false;
    }
  };
  let problems: string[];
  try {
    problems = await convertFolderOffThread(dataDir, o.key, made.key, now, o.onCount);
  } catch (err) {
    await undo();
    throw err;
  }
  // A backup or copy kept aside that stays under the old key would be lost with it: the change is undone.
  if (problems.length) {
    const n = problems.length;
    const what = `${n} backup${n === 1 ? '' : 's'} or cop${n === 1 ? 'y' : 'ies'} kept aside could not be converted (${problems.join('; ').slice(0, 400)})`;
    throw new Error(
      (await undo())
        ? `The key was not changed: ${what}. Every file is under the current key as before. Remove or restore ${n === 1 ? 'it' : 'them'}, then change the key again.`
        : `${what}, and the change could not be undone: it is finished at the next start given the new key, which keeps the old key for ${n === 1 ? 'it' : 'them'} until ${n === 1 ? 'it is' : 'they are'} converted. Remove or restore ${n === 1 ? 'it' : 'them'}.`,
    );
  }
  writeEncryptionConfig(dataDir, configAfterChange(pending));
  await forgetKeychainKey(config, o.keychain);
  return made.key;
}
