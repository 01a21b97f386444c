/**
 * Encryption at rest of a data folder (README, "Encryption at rest"): turning it on or off
 * converts every cache of the folder and every backup of them (store/cache-conversion.ts,
 * store/backup-files.ts), and keeps the folder's settings (secrets/cache-key.ts) in step. The
 * order makes a stop at any point leave a folder whose every file opens:
 *
 * - on: the key is stored (keychain) and encryption.json written first, then each file is
 *   converted. A file not yet converted is plain, and plain files open without a key.
 * - off: each file is converted first, then encryption.json and the keychain entry are
 *   removed. A file not yet converted is still encrypted, and its key is still there.
 *
 * Either way, running the same command again finishes the job.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { EncryptionStatus } from '../../../shared/model.ts';
import {
  type EncryptionConfig,
  folderKey,
  type KeySources,
  newFolderKey,
  readEncryptionConfig,
  removeEncryptionConfig,
  writeEncryptionConfig,
  WrongPassphraseError,
  type Keychain,
} from '../secrets/index.ts';
import { BACKUPS_FOLDER, convertBackups, listBackups } from '../store/backup-files.ts';
import {
  assertAlone,
  cacheFilesIn,
  conversionLeftovers,
  convertCache,
  finishConversions,
  isEncryptedFile,
  keptAsideCopies,
} from '../store/cache-conversion.ts';
import type { CacheKey } from '../store/driver.ts';
import { refusal } from '../store/validation.ts';

/** Every cache of the folder, and the caches whose backups are there though the cache is gone. */
function cachesWithBackups(dataDir: string): string[] {
  const files = new Set(cacheFilesIn(dataDir));
  const backups = join(dataDir, BACKUPS_FOLDER);
  if (existsSync(backups))
    for (const n of readdirSync(backups)) {
      const stem = /^(demo|live-[0-9a-f]{12})-\d{8}T\d{6}Z/.exec(n)?.[1];
      if (stem) files.add(join(dataDir, `${stem}.sqlite`));
    }
  return [...files].sort();
}

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
  };
}

/**
 * The key the folder's caches open with: null for a plain folder; the keychain's or the
 * passphrase's, checked, for an encrypted one (else CacheProblemError 'locked', naming `cacheFile`).
 */
export async function loadFolderKey(dataDir: string, cacheFile: string, sources: KeySources): Promise<CacheKey | null> {
  const config = readEncryptionConfig(dataDir, cacheFile);
  return config ? folderKey(config, sources, cacheFile) : null;
}

/**
 * Every cache, backup and copy kept aside of the folder converted to `to`: each cache alone (see
 * convertCache), its old file removed once the new one opened; then its backups and its copies
 * kept aside by a restore or a move-aside (one that cannot be read, a damaged one, is named).
 */
function convertFolder(dataDir: string, from: CacheKey | null, to: CacheKey | null, now: Date): void {
  const problems: string[] = [];
  for (const cache of cachesWithBackups(dataDir)) {
    if (existsSync(cache)) {
      convertCache(cache, from, to, now);
      finishConversions(cache);
    }
    const { skipped } = convertBackups(cache, from, to);
    problems.push(...skipped.map((s) => `${s.name}: ${s.problem}`));
    for (const copy of keptAsideCopies(cache)) {
      try {
        convertCache(copy, from, to, now);
        finishConversions(copy);
      } catch (err) {
        problems.push(`${basename(copy)}: ${String((err as Error).message).split('\n')[0]}`);
      }
    }
  }
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
  convertFolder(dataDir, existing ? key : null, key, now);
  return key;
}

/**
 * Before a folder encrypted with a passphrase is turned off: the passphrase typed again, checked
 * against encryption.json's check value (scrypt, as at a start), so a screen left unlocked is not
 * enough to leave the folder plain. A folder with a keychain key (or none) needs nothing. Refused
 * (field `passphrase`) when missing or wrong, before anything is closed or written; the refusal
 * never holds what was typed.
 */
export async function checkPassphraseToDecrypt(dataDir: string, passphrase: string | undefined, keychain: Keychain): Promise<void> {
  const file = join(dataDir, 'encryption.json');
  const config = readEncryptionConfig(dataDir, file);
  if (config?.keySource !== 'passphrase') return;
  if (!passphrase) throw refusal('passphrase', 'encryption.passphraseNeeded', {});
  try {
    await folderKey(config, { keychain, passphrase }, file);
  } catch (err) {
    if (err instanceof WrongPassphraseError) throw refusal('passphrase', 'cache.wrongPassphrase', {});
    throw err;
  }
}

/**
 * Decrypts the folder (every cache and backup) with its key, then removes encryption.json and
 * the keychain entry. The caches must be closed in this process (see encryptFolder).
 */
export async function decryptFolder(dataDir: string, o: { keychain: Keychain; key: CacheKey; now?: Date }): Promise<void> {
  const config = readEncryptionConfig(dataDir, join(dataDir, 'encryption.json'));
  if (!config) throw refusal('encryption', 'encryption.none', {});
  for (const cache of cacheFilesIn(dataDir)) assertAlone(cache, o.key);
  convertFolder(dataDir, o.key, null, o.now ?? new Date());
  removeEncryptionConfig(dataDir);
  if (config.keySource === 'keychain') {
    try {
      await o.keychain.delete(config.folderId);
    } catch {
      // Every file is plain now; an entry left in the keychain unlocks nothing that remains.
    }
  }
}
