/**
 * The one SQLite driver of every connection (the main one, the write and backup workers, the
 * export reader, recovery, the CLI): better-sqlite3-multiple-ciphers, the better-sqlite3 API
 * over SQLite3 Multiple Ciphers (README, "Encryption at rest", says why this package). Every
 * connection is opened here, so an encrypted cache gets its key before its first read, on
 * every connection, or not at all: the lint rule in eslint.config.js refuses any other import
 * of the driver's constructor under src/.
 *
 * The cipher is SQLite3MC's AEGIS-256 (`aegis`, algorithm `aegis-256`: each page encrypted and
 * authenticated, a fresh random nonce per write), given a raw 256-bit key (`x'<64 hex>'`), so
 * SQLite3MC's own passphrase KDF is skipped: the key is the keychain's random key, or one
 * Folioscope derived from a passphrase with scrypt (cache-key.ts). The WAL is encrypted too.
 * AEGIS rather than SQLite3MC's default ChaCha20-Poly1305: both authenticate every page, and
 * AEGIS runs on the CPU's AES instructions (x86-64 AES-NI, ARMv8 crypto, every system the app
 * ships for), measured at about the plain store's speed, where ChaCha20 wrote slower and
 * looked rows up several times slower (bench/RESULTS.md, "Encryption at rest").
 *
 * db.ts imports this file, and the store's write worker runs it straight from source (Node
 * strips the types): no parameter properties or enums here.
 */
import Driver, { type Database } from 'better-sqlite3-multiple-ciphers';
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';

export type { Database };

/** SQLite3MC's cipher used for every encrypted cache (docs/data-format.md, "Encryption at rest"). */
export const CIPHER = 'aegis';
/** Its variant, pinned: a later SQLite3MC with another default still opens the caches made now. */
export const CIPHER_ALGORITHM = 'aegis-256';

/** Selects the cipher on a connection (before `key` or `rekey`). */
function selectCipher(db: Database): void {
  db.pragma(`cipher = '${CIPHER}'`);
  db.pragma(`algorithm = '${CIPHER_ALGORITHM}'`);
}

/**
 * A cache's 256-bit key, as held in memory. It prints as `[cache key]` (String, JSON,
 * util.inspect, console.log), so a key that reaches a message or a log by mistake is not
 * spelled out; only `hex()` gives it, for a worker thread's workerData.
 */
export class CacheKey {
  readonly #bytes: Buffer;
  constructor(bytes: Uint8Array) {
    if (bytes.length !== 32) throw new Error('a cache key has 32 bytes');
    this.#bytes = Buffer.from(bytes);
  }
  static fromHex(hex: string): CacheKey {
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error('a cache key is 64 hexadecimal digits');
    return new CacheKey(Buffer.from(hex, 'hex'));
  }
  /** The key as 64 hex digits: for a worker's workerData only. */
  hex(): string {
    return this.#bytes.toString('hex');
  }
  /** The key as SQLite3MC takes a raw key (`x'…'`), in a buffer the caller zeroes after use. */
  rawKeyBuffer(): Buffer {
    return Buffer.from(`x'${this.#bytes.toString('hex')}'`, 'latin1');
  }
  /**
   * The key's check value: HMAC-SHA256 of a fixed text, keyed with it (64 hex digits). It
   * tells a wrong key from a damaged file before anything is opened (encryption.json), and
   * its first 16 digits tell two keys apart in a backup's manifest; it says nothing of the key.
   */
  check(): string {
    return createHmac('sha256', this.#bytes).update('folioscope cache key check v1').digest('hex');
  }
  /** The first 16 hex digits of check(): names a key in manifests and status lines. */
  id(): string {
    return this.check().slice(0, 16);
  }
  equals(other: CacheKey | null): boolean {
    return other !== null && other.#bytes.equals(this.#bytes);
  }
  toString(): string {
    return '[cache key]';
  }
  toJSON(): string {
    return '[cache key]';
  }
  [inspect.custom](): string {
    return '[cache key]';
  }
}

/** The first 16 bytes of every plain SQLite file; an encrypted one starts with random bytes. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

/** Whether a file's first bytes are a plain SQLite header (an empty or missing file is neither). */
export function hasPlainHeader(head: Buffer): boolean {
  return head.length >= 16 && head.subarray(0, 16).equals(SQLITE_MAGIC);
}

/** The key each open connection was given (null: a plain file): a sibling connection gets the same. */
const keys = new WeakMap<Database, CacheKey | null>();

export interface ConnectionOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
}

/**
 * Opens a connection and, with a key, sets the cipher and applies the key before anything is
 * read (a wrong key then fails the first read with SQLITE_NOTADB). An encrypted connection
 * keeps its temporary tables and sorts in memory: SQLite3MC does not encrypt temporary files.
 */
export function openConnection(path: string, options: ConnectionOptions, key: CacheKey | null): Database {
  const db = new Driver(path, { readonly: options.readonly ?? false, fileMustExist: options.fileMustExist ?? false });
  if (key) {
    const raw = key.rawKeyBuffer();
    try {
      selectCipher(db);
      db.key(raw);
      db.pragma('temp_store = MEMORY');
    } catch (err) {
      db.close();
      throw err;
    } finally {
      raw.fill(0);
    }
  }
  keys.set(db, key);
  return db;
}

/** The key a connection was opened with (null: none, or not opened here). */
export function keyOf(db: Database): CacheKey | null {
  return keys.get(db) ?? null;
}

/**
 * Writes the open database `db` (a copy made for conversion, in rollback-journal mode, never
 * the live cache) with another key: encrypted with `to`, or plain with null. SQLite3MC
 * rewrites every page in one transaction.
 */
export function rekey(db: Database, to: CacheKey | null): void {
  const raw = to ? to.rawKeyBuffer() : Buffer.alloc(0);
  try {
    if (to) selectCipher(db);
    db.rekey(raw);
  } finally {
    raw.fill(0);
  }
  keys.set(db, to);
}

/** SQLite3 Multiple Ciphers' version, as linked into the driver (self-check, cache status). */
export function cipherLibraryVersion(db: Database): string {
  return (db.prepare('SELECT sqlite3mc_version() AS v').get() as { v: string }).v;
}
