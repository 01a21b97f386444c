/**
 * The key of an encrypted data folder (README, "Encryption at rest"): every cache of the
 * folder (demo.sqlite, live-*.sqlite) and every backup of them is encrypted with one 256-bit
 * key, which is either
 *
 * - random, kept in the OS keychain under its own service ("Folioscope cache key"), one
 *   entry per data folder (the account is the folder's random id, so the entry follows a
 *   folder that is moved or renamed); or
 * - derived from a passphrase the user types, with scrypt (N = 2^17, r = 8, p = 1, a 16-byte
 *   random salt: the parameters of the encrypted data file, OWASP's for scrypt).
 *
 * `<data folder>/encryption.json` says which, and holds what opening needs besides the key:
 * the folder id, the scrypt parameters and salt, and a check value (HMAC-SHA256 of a fixed
 * text under the key), so a wrong passphrase is told apart from a damaged cache before
 * anything is opened. It never holds the key: with a passphrase, the check lets a thief of the
 * folder test guesses at scrypt's cost, exactly as the encrypted file itself does.
 */
import { randomBytes, randomUUID, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { scryptCosts } from '../../../shared/scrypt-params.ts';
import { CacheKey, CIPHER } from '../store/driver.ts';
import { CacheProblemError } from '../store/db.ts';
import { writeSmallFile } from '../store/small-file.ts';
import { KeychainUnavailableError, type Keychain } from './keychain.ts';

export const CACHE_KEY_SERVICE = 'Folioscope cache key';
export const ENCRYPTION_FILE = 'encryption.json';
/** A passphrase-encrypted folder's passphrase, for headless runs (the CLI, the web shell, cron). */
export const PASSPHRASE_ENV = 'FOLIOSCOPE_CACHE_PASSPHRASE';
export const MIN_PASSPHRASE_LENGTH = 8;
export const MAX_PASSPHRASE_LENGTH = 1024;

/** scrypt's parameters for a passphrase's key (the encrypted data file's: userdata/format.ts). */
export const CACHE_SCRYPT = { N: 2 ** 17, r: 8, p: 1 } as const;

const FORMAT = 'folioscope-cache-encryption';
const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));

const ConfigSchema = z.strictObject({
  format: z.literal(FORMAT),
  version: z.literal(1),
  cipher: z.literal(CIPHER),
  keySource: z.enum(['keychain', 'passphrase']),
  /** The keychain entry's account (keychain), or the folder's id (passphrase). */
  folderId: z.uuid(),
  kdf: z
    .strictObject({
      name: z.literal('scrypt'),
      ...scryptCosts,
      salt: hex(16),
    })
    .nullable(),
  keyCheck: hex(32),
  since: z.string().max(40),
});
export type EncryptionConfig = z.output<typeof ConfigSchema>;

/** What the folder's caches are encrypted with, said without the key (cache status, Settings, manifests). */
export interface EncryptionSummary {
  cipher: typeof CIPHER;
  keySource: 'keychain' | 'passphrase';
  kdf: EncryptionConfig['kdf'];
  /** The first 16 hex digits of the key's check value: tells two keys apart, says nothing of either. */
  keyId: string;
}
export const summaryOf = (c: EncryptionConfig): EncryptionSummary => ({ cipher: c.cipher, keySource: c.keySource, kdf: c.kdf, keyId: c.keyCheck.slice(0, 16) });

/** The check value of a key (CacheKey.check: HMAC-SHA256 of a fixed text under it). */
export const keyCheckOf = (key: CacheKey): string => key.check();

const configPath = (dataDir: string) => join(dataDir, ENCRYPTION_FILE);

/** The folder's encryption settings; null for a folder whose caches are plain. A changed or broken file is refused, saying so. */
export function readEncryptionConfig(dataDir: string, cacheFile: string): EncryptionConfig | null {
  let text: string;
  try {
    text = readFileSync(configPath(dataDir), 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw new CacheProblemError(cacheFile, 'locked', `its data folder's ${ENCRYPTION_FILE} cannot be read (${String((err as Error).message).split('\n')[0]})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const c = ConfigSchema.safeParse(parsed);
  if (!c.success) throw new CacheProblemError(cacheFile, 'locked', `its data folder's ${ENCRYPTION_FILE} was changed or cut off, so the key cannot be found`);
  return c.data;
}

/** Writes encryption.json through a temporary name, 0600, synced: never half a file. */
export function writeEncryptionConfig(dataDir: string, config: EncryptionConfig): void {
  writeSmallFile(configPath(dataDir), JSON.stringify(config, null, 2) + '\n');
}

export function removeEncryptionConfig(dataDir: string): void {
  rmSync(configPath(dataDir), { force: true });
}

/** A passphrase as taken: NFC, 8 to 1,024 characters; the error never repeats it. */
export function checkPassphrase(passphrase: string): string {
  const p = passphrase.normalize('NFC');
  if ([...p].length < MIN_PASSPHRASE_LENGTH) throw new Error(`A passphrase needs at least ${MIN_PASSPHRASE_LENGTH} characters.`);
  if (p.length > MAX_PASSPHRASE_LENGTH) throw new Error(`A passphrase has at most ${MAX_PASSPHRASE_LENGTH} characters.`);
  return p;
}

function scrypt(passphrase: string, salt: Buffer, p: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: p.N, r: p.r, p: p.p, maxmem: 128 * p.N * p.r * p.p + 2 ** 20 };
  return new Promise((resolve, reject) => scryptCallback(passphrase.normalize('NFC'), salt, 32, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** The key a passphrase gives under a folder's scrypt parameters and salt. */
export async function passphraseKey(passphrase: string, kdf: NonNullable<EncryptionConfig['kdf']>): Promise<CacheKey> {
  const raw = await scrypt(passphrase, Buffer.from(kdf.salt, 'hex'), kdf);
  try {
    return new CacheKey(raw);
  } finally {
    raw.fill(0);
  }
}

/** A new key and the settings that find it again: random in the keychain, or from a passphrase. */
export async function newFolderKey(
  source: { keychain: Keychain } | { passphrase: string },
  now = new Date(),
): Promise<{ key: CacheKey; config: EncryptionConfig; store: () => Promise<void> }> {
  const folderId = randomUUID();
  if ('passphrase' in source) {
    const kdf = { name: 'scrypt' as const, ...CACHE_SCRYPT, salt: randomBytes(16).toString('hex') };
    const key = await passphraseKey(checkPassphrase(source.passphrase), kdf);
    const config: EncryptionConfig = {
      format: FORMAT,
      version: 1,
      cipher: CIPHER,
      keySource: 'passphrase',
      folderId,
      kdf,
      keyCheck: keyCheckOf(key),
      since: now.toISOString(),
    };
    return { key, config, store: async () => {} };
  }
  const raw = randomBytes(32);
  const key = new CacheKey(raw);
  raw.fill(0);
  const config: EncryptionConfig = {
    format: FORMAT,
    version: 1,
    cipher: CIPHER,
    keySource: 'keychain',
    folderId,
    kdf: null,
    keyCheck: keyCheckOf(key),
    since: now.toISOString(),
  };
  return { key, config, store: () => source.keychain.set(folderId, key.hex()) };
}

/**
 * A passphrase that does not give the folder's key (its check value differs): told apart from
 * the other locked cases, so the app's unlock screen can say "wrong, try again" and the rest
 * say what is missing. Its message never holds the passphrase.
 */
export class WrongPassphraseError extends CacheProblemError {
  constructor(cacheFile: string) {
    super(cacheFile, 'locked', 'the passphrase given is not the one the data folder was encrypted with');
  }
}

/**
 * Whether the folder's key comes from a passphrase and none was given: the app and the web shell
 * then start waiting for it (the unlock screen) rather than stop. A folder whose encryption.json
 * cannot be read is not waiting: opening it says what is wrong with it.
 */
export function waitsForPassphrase(dataDir: string, passphrase: string | null | undefined): boolean {
  if (passphrase) return false;
  try {
    return readEncryptionConfig(dataDir, configPath(dataDir))?.keySource === 'passphrase';
  } catch {
    return false;
  }
}

export interface KeySources {
  /** The keychain of cache keys (service CACHE_KEY_SERVICE). */
  keychain: Keychain;
  /** A passphrase given for this run (FOLIOSCOPE_CACHE_PASSPHRASE, or typed). */
  passphrase?: string | null;
}

/**
 * The key of a folder whose caches are encrypted, checked against encryption.json's check
 * value. A key that is missing (no keychain entry, no keychain, no passphrase) or wrong throws
 * CacheProblemError('locked') naming `cacheFile`, what is missing and how to give it; nothing
 * is opened or changed.
 */
export async function folderKey(config: EncryptionConfig, sources: KeySources, cacheFile: string): Promise<CacheKey> {
  const locked = (detail: string) => new CacheProblemError(cacheFile, 'locked', detail);
  let key: CacheKey;
  if (config.keySource === 'passphrase') {
    const passphrase = sources.passphrase;
    if (!passphrase)
      throw locked(
        `its data folder is encrypted with a passphrase and none was given: set ${PASSPHRASE_ENV} for this run (the CLI reads it; the app and the web shell ask for it when it is not set)`,
      );
    key = await passphraseKey(passphrase, config.kdf!);
    if (keyCheckOf(key) !== config.keyCheck) throw new WrongPassphraseError(cacheFile);
    return key;
  }
  let hex: string | null;
  try {
    hex = await sources.keychain.get(config.folderId);
  } catch (err) {
    if (!(err instanceof KeychainUnavailableError)) throw err;
    throw locked(
      'its key is in the system keychain, which is not available: start or unlock the keychain (GNOME Keyring, KWallet, the macOS Keychain) and start again',
    );
  }
  if (hex === null)
    throw locked(
      `its key is missing from the system keychain (service "${CACHE_KEY_SERVICE}", account ${config.folderId}): restore that entry, or use another data folder`,
    );
  try {
    key = CacheKey.fromHex(hex);
  } catch {
    throw locked(`the keychain's entry for it (service "${CACHE_KEY_SERVICE}", account ${config.folderId}) is not a key Folioscope wrote`);
  }
  if (keyCheckOf(key) !== config.keyCheck)
    throw locked(`the key in the keychain (service "${CACHE_KEY_SERVICE}", account ${config.folderId}) is not the one the data folder was encrypted with`);
  return key;
}
