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
import { createCipheriv, createDecipheriv, randomBytes, randomUUID, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
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
/** scrypt's costs, as encryption.json names them (within `scryptCosts`). */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

const FORMAT = 'folioscope-cache-encryption';
const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));

/** What finds one key again: where it is (keychain or passphrase), its scrypt parameters, its check value. */
const KeyFields = {
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
};

const ConfigSchema = z.strictObject({
  format: z.literal(FORMAT),
  version: z.literal(1),
  cipher: z.literal(CIPHER),
  ...KeyFields,
  /**
   * A change of key under way (rekeyFolder): the new key's fields, and the folder's key as it was
   * sealed under the new one (AES-256-GCM), so that the new key alone finishes a change a stop
   * left midway, whichever files it reached. Absent when no change is under way.
   */
  next: z
    .strictObject({
      ...KeyFields,
      previous: z.strictObject({ iv: hex(12), sealed: hex(32), tag: hex(16) }),
    })
    .optional(),
});
export type EncryptionConfig = z.output<typeof ConfigSchema>;
export type PendingKey = NonNullable<EncryptionConfig['next']>;

/** The settings of the folder once its change of key is done: the new key's, with no change under way. */
export function configAfterChange(c: EncryptionConfig): EncryptionConfig {
  const { next, ...rest } = c;
  if (!next) return c;
  const { previous: _previous, ...fields } = next;
  return { ...rest, ...fields };
}

/** What a sealed key is bound to: a key sealed for anything else does not open. */
const SEAL_CONTEXT = Buffer.from('folioscope previous cache key v1', 'latin1');

/** `key` sealed under `under` (AES-256-GCM, a random nonce), for encryption.json's `next.previous`. */
export function sealKey(key: CacheKey, under: CacheKey): PendingKey['previous'] {
  const k = Buffer.from(under.hex(), 'hex');
  const raw = Buffer.from(key.hex(), 'hex');
  try {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', k, iv).setAAD(SEAL_CONTEXT);
    const sealed = Buffer.concat([c.update(raw), c.final()]);
    return { iv: iv.toString('hex'), sealed: sealed.toString('hex'), tag: c.getAuthTag().toString('hex') };
  } finally {
    k.fill(0);
    raw.fill(0);
  }
}

/** The key sealed by sealKey, opened with the key it was sealed under; throws when it was changed or sealed under another. */
export function openSealedKey(s: PendingKey['previous'], under: CacheKey): CacheKey {
  const k = Buffer.from(under.hex(), 'hex');
  let raw: Buffer | null = null;
  try {
    const d = createDecipheriv('aes-256-gcm', k, Buffer.from(s.iv, 'hex')).setAAD(SEAL_CONTEXT);
    d.setAuthTag(Buffer.from(s.tag, 'hex'));
    raw = Buffer.concat([d.update(Buffer.from(s.sealed, 'hex')), d.final()]);
    return new CacheKey(raw);
  } finally {
    k.fill(0);
    raw?.fill(0);
  }
}

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

/**
 * encryption.json's temporary copies a stop left (writeSmallFile's `….partial`): call only with
 * every cache of the folder taken alone (no other process is changing the folder's key then).
 */
export function removeConfigLeftovers(dataDir: string): void {
  for (const n of readdirSync(dataDir)) if (/^encryption\.json\.[0-9a-f]{8}\.partial$/.test(n)) rmSync(join(dataDir, n), { force: true });
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
  source: { keychain: Keychain } | { passphrase: string; cost?: ScryptCost },
  now = new Date(),
): Promise<{ key: CacheKey; config: EncryptionConfig; store: () => Promise<void> }> {
  const folderId = randomUUID();
  if ('passphrase' in source) {
    const kdf = { name: 'scrypt' as const, ...(source.cost ?? CACHE_SCRYPT), salt: randomBytes(16).toString('hex') };
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
  /**
   * `before`: the passphrase is the folder's one from before a change of key that a stop left
   * midway; the change is finished with the new one, so that is what to type.
   */
  constructor(
    cacheFile: string,
    readonly before = false,
  ) {
    super(
      cacheFile,
      'locked',
      before
        ? 'the passphrase given is the one from before its passphrase was changed; the change stopped midway and is finished with the new passphrase'
        : 'the passphrase given is not the one the data folder was encrypted with',
    );
  }
}

/**
 * Whether the folder's key comes from a passphrase and none was given: the app and the web shell
 * then start waiting for it (the unlock screen) rather than stop. A folder whose encryption.json
 * cannot be read is not waiting: opening it says what is wrong with it.
 */
export function waitsForPassphrase(dataDir: string, passphrase: string | null | undefined): boolean {
  if (passphrase) return false;
  const c = readableConfig(dataDir);
  // A change of key a stop left midway is finished with the new key: its source is what counts.
  return (c?.next ?? c)?.keySource === 'passphrase';
}

/** Whether a change of key a stop left midway waits to be finished (encryption.json's `next`); false for a file that cannot be read. */
export function changeUnderWay(dataDir: string): boolean {
  return readableConfig(dataDir)?.next !== undefined;
}

/** The folder's settings, or null when there are none or they cannot be read (opening the folder says what is wrong with them). */
function readableConfig(dataDir: string): EncryptionConfig | null {
  try {
    return readEncryptionConfig(dataDir, configPath(dataDir));
  } catch {
    return null;
  }
}

export interface KeySources {
  /** The keychain of cache keys (service CACHE_KEY_SERVICE). */
  keychain: Keychain;
  /** A passphrase given for this run (FOLIOSCOPE_CACHE_PASSPHRASE, or typed). */
  passphrase?: string | null;
}

/**
 * The folder's key from before a change of key a stop left midway (encryption.json's `next`),
 * opened with the new key and checked against the old check value; throws when it does not open.
 */
export function previousKeyOf(config: EncryptionConfig, key: CacheKey, cacheFile: string): CacheKey {
  if (!config.next) throw new Error('no change of key is under way');
  let previous: CacheKey;
  try {
    previous = openSealedKey(config.next.previous, key);
  } catch {
    throw new CacheProblemError(cacheFile, 'locked', `its data folder's ${ENCRYPTION_FILE} was changed: the key from before its change of key does not open`);
  }
  if (keyCheckOf(previous) !== config.keyCheck)
    throw new CacheProblemError(
      cacheFile,
      'locked',
      `its data folder's ${ENCRYPTION_FILE} was changed: the key from before its change of key is not the folder's`,
    );
  return previous;
}

/**
 * The key of a folder whose caches are encrypted, checked against encryption.json's check
 * value (the new key's, while a change of key is under way). A key that is missing (no keychain entry, no keychain, no passphrase) or wrong throws
 * CacheProblemError('locked') naming `cacheFile`, what is missing and how to give it; nothing
 * is opened or changed.
 */
export async function folderKey(given: EncryptionConfig, sources: KeySources, cacheFile: string): Promise<CacheKey> {
  const locked = (detail: string) => new CacheProblemError(cacheFile, 'locked', detail);
  // A change of key under way is finished with the new key: that is the one looked for.
  const config = configAfterChange(given);
  let key: CacheKey;
  if (config.keySource === 'passphrase') {
    const passphrase = sources.passphrase;
    if (!passphrase)
      throw locked(
        `its data folder is encrypted with a passphrase and none was given: set ${PASSPHRASE_ENV} for this run (the CLI reads it; the app and the web shell ask for it when it is not set)`,
      );
    key = await passphraseKey(passphrase, config.kdf!);
    if (keyCheckOf(key) !== config.keyCheck) {
      // The old passphrase, typed after a change that stopped midway: said so (one more scrypt, on a wrong try only).
      const before = given.next !== undefined && given.keySource === 'passphrase' && keyCheckOf(await passphraseKey(passphrase, given.kdf!)) === given.keyCheck;
      throw new WrongPassphraseError(cacheFile, before);
    }
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
