import { type CacheKey, type Database, hasPlainHeader, openConnection } from './driver.ts';
import { chmodSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.ts';
import { announceWrites } from './write-yield.ts';
import { backupBeforeMigration } from './backup-files.ts';
import type { ReadableDB, WritableDB } from './handles.ts';

// The branded handles live in handles.ts (types only, so a module db.ts imports can name them
// without an import cycle); they are re-exported here, where every store function takes them from.
export type { ReadableDB, WritableDB } from './handles.ts';

/** A database written by a newer Folioscope: opened, read for its version, never touched. */
export class FutureDatabaseError extends Error {
  // Fields declared, not parameter properties: this file also runs in the store's write
  // worker straight from source, where Node strips types and cannot compile those.
  readonly path: string;
  readonly found: number;
  readonly supported: number;
  constructor(path: string, found: number, supported: number) {
    super(
      `The cache at ${path} was written by a newer version of Folioscope (schema ${found}; this version reads up to ${supported}). ` +
        'Update Folioscope, or choose another data folder. The file was not changed.',
    );
    this.name = 'FutureDatabaseError';
    this.path = path;
    this.found = found;
    this.supported = supported;
  }
}

/**
 * What is wrong with a cache file, and so which ways forward make sense. `locked`: it is
 * encrypted and its key is missing or wrong (or it cannot be read with its folder's key).
 */
export type CacheProblemKind = 'damaged' | 'not-a-cache' | 'unwritable' | 'locked';

/**
 * A cache that cannot be used as it is: the message names the file and the ways forward
 * (open it read-only, move it aside and rebuild, use another folder). Nothing was changed.
 */
export class CacheProblemError extends Error {
  readonly path: string;
  readonly problem: CacheProblemKind;
  readonly detail: string;
  constructor(path: string, problem: CacheProblemKind, detail: string) {
    const what = problem === 'damaged' ? 'is damaged' : problem === 'not-a-cache' ? 'is not a Folioscope cache' : 'cannot be opened for writing';
    super(
      problem === 'locked'
        ? // Without the key no copy can be read and a new cache could not be encrypted like the
          // others: the way forward is the key, or another data folder.
          `The cache at ${path} is encrypted and cannot be opened: ${detail}. Nothing was changed and nothing is deleted; ` +
            'with the right key it opens as before. You can also use another data folder.'
        : detail === DISK_FULL
          ? // Nothing is wrong with the cache: moving it aside would be the wrong advice.
            `The cache at ${path} cannot be opened: the disk is full. Nothing was changed; the cache is as it was. Free some space on that disk and start again.`
          : `The cache at ${path} ${what} (${detail}). Nothing was changed. You can open it read-only (view and export what it holds), ` +
            `move it aside (kept beside it, nothing deleted) and rebuild from the service, or use another data folder.`,
    );
    this.name = 'CacheProblemError';
    this.path = path;
    this.problem = problem;
    this.detail = detail;
  }
}

class ForeignDatabaseError extends Error {
  constructor(path: string) {
    super(`${path} holds another program's tables`);
  }
}

const DISK_FULL = 'the disk is full';

/** Whether the file system of `path` has (almost) no room left: less than 64 KiB for its -wal and -shm. */
function diskIsFull(path: string): boolean {
  try {
    const fs = statfsSync(dirname(path));
    return fs.bavail * fs.bsize < 64 * 1024;
  } catch {
    return false;
  }
}

/**
 * A cache path that is neither a file nor missing nor a folder (a FIFO, a socket, a device, a
 * link to one): refused before anything opens it, since opening a FIFO waits forever for a
 * writer and a device is no cache. (A folder is SQLite's to refuse, as unwritable.)
 */
export function assertOrdinaryFile(path: string): void {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st && !st.isFile() && !st.isDirectory()) throw new CacheProblemError(path, 'not-a-cache', 'it is not a regular file: a pipe, a socket or a device');
}

/** Whether the file at `path` starts as a plain SQLite file does (false: empty, missing, encrypted or foreign). */
export function plainHeaderAt(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(16);
    return hasPlainHeader(head.subarray(0, readSync(fd, head, 0, 16, 0)));
  } finally {
    closeSync(fd);
  }
}

/** SQLite's and the file system's errors, turned into what the user can act on. */
function cacheProblem(path: string, err: unknown, key: CacheKey | null): unknown {
  if (err instanceof FutureDatabaseError || err instanceof CacheProblemError) return err;
  if (err instanceof ForeignDatabaseError) return new CacheProblemError(path, 'not-a-cache', "it holds another program's tables");
  const code = String((err as { code?: unknown }).code ?? '');
  const message = String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .slice(0, 160);
  // With the folder's key (checked against encryption.json before it is used), a file that
  // is not a database to SQLite was encrypted with another key, or is damaged or foreign.
  if (code === 'SQLITE_NOTADB' && key && !plainHeaderAt(path))
    return new CacheProblemError(path, 'locked', "it cannot be read with its data folder's key: it was encrypted with another key, or it is damaged");
  if (code === 'SQLITE_NOTADB') return new CacheProblemError(path, 'not-a-cache', message);
  if (code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_') || code === 'FOLIOSCOPE_TRUNCATED')
    return new CacheProblemError(path, 'damaged', message);
  // A full disk (SQLite may only say "disk I/O error" when it cannot make the -wal or -shm).
  if (code === 'ENOSPC' || code === 'SQLITE_FULL' || (code.startsWith('SQLITE_IOERR') && diskIsFull(path)))
    return new CacheProblemError(path, 'unwritable', DISK_FULL);
  if (/^SQLITE_(CANTOPEN|READONLY|PERM|AUTH|IOERR|BUSY|LOCKED)/.test(code) || /^(EACCES|EPERM|EROFS|ENOTDIR|EISDIR)$/.test(code)) {
    return new CacheProblemError(path, 'unwritable', message);
  }
  return err;
}

/**
 * A file shorter than the page count its header declares was cut off (a full disk, a copy
 * interrupted): SQLite would only notice when a query reaches a missing page. Pages past the
 * end of the file that a valid WAL holds are not missing: a checkpoint that ran out of disk
 * after writing page 1 leaves exactly that, and SQLite reads those pages from the WAL.
 */
function checkNotTruncated(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return; // opening reports it
  }
  try {
    const header = Buffer.alloc(100);
    const read = readSync(fd, header, 0, 100, 0);
    if (read < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\0') return;
    const raw = header.readUInt16BE(16);
    const pageSize = raw === 1 ? 65536 : raw;
    const pages = header.readUInt32BE(28);
    // The declared size is valid only when the change counter matches "version-valid-for".
    if (header.readUInt32BE(24) !== header.readUInt32BE(92) || pages === 0) return;
    const size = fstatSync(fd).size;
    if (size >= pages * pageSize) return;
    const inFile = Math.floor(size / pageSize);
    const wal = committedWalPages(`${path}-wal`, pageSize);
    // The size the WAL's last commit gives the database, and whether it holds every page the file lacks.
    const needed = wal ? wal.dbPages : pages;
    let covered = true;
    for (let p = inFile + 1; p <= needed && covered; p++) covered = wal?.pages.has(p) ?? false;
    if (!covered) {
      throw Object.assign(new Error(`the file is ${size} bytes; its header says ${pages * pageSize}: it was cut off`), { code: 'FOLIOSCOPE_TRUNCATED' });
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The pages a WAL file holds up to its last valid commit, and the database's size in pages
 * after that commit; null when there is no WAL, it is empty, or it is not one for this page
 * size. Frames are accepted as SQLite accepts them (wal.c): the header's salts repeated in
 * each frame and the running checksum unbroken, so a torn or stale tail counts for nothing.
 */
function committedWalPages(walPath: string, pageSize: number): { pages: Set<number>; dbPages: number } | null {
  let wal: Buffer;
  try {
    wal = readFileSyncIfSmall(walPath);
  } catch {
    return null;
  }
  if (wal.length < 32) return null;
  const magic = wal.readUInt32BE(0);
  if ((magic & 0xfffffffe) !== 0x377f0682 || wal.readUInt32BE(8) !== pageSize) return null;
  const bigEndian = (magic & 1) === 1;
  const word = (b: Buffer, i: number) => (bigEndian ? b.readUInt32BE(i) : b.readUInt32LE(i));
  const sum = (s: [number, number], b: Buffer, from: number, to: number): [number, number] => {
    let [s1, s2] = s;
    for (let i = from; i < to; i += 8) {
      s1 = (s1 + word(b, i) + s2) >>> 0;
      s2 = (s2 + word(b, i + 4) + s1) >>> 0;
    }
    return [s1, s2];
  };
  let check = sum([0, 0], wal, 0, 24);
  if (check[0] !== wal.readUInt32BE(24) || check[1] !== wal.readUInt32BE(28)) return null;
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const seen: number[] = [];
  let committed: { pages: Set<number>; dbPages: number } | null = null;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    check = sum(check, wal, at, at + 8);
    check = sum(check, wal, at + 24, at + 24 + pageSize);
    if (check[0] !== wal.readUInt32BE(at + 16) || check[1] !== wal.readUInt32BE(at + 20)) break;
    seen.push(wal.readUInt32BE(at));
    const dbPages = wal.readUInt32BE(at + 4);
    if (dbPages) committed = { pages: new Set(seen), dbPages };
  }
  return committed;
}

/**
 * The WAL, read only when the file lacks pages. At most 1 GiB (25 times the checkpoint size):
 * frames past that are not seen, so at worst a healthy file is called cut off, never the reverse.
 */
function readFileSyncIfSmall(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(size, 1024 * 2 ** 20));
    readSync(fd, buf, 0, buf.length, 0);
    return buf;
  } finally {
    closeSync(fd);
  }
}

/**
 * SQLite refuses a file shorter than its header says unless the schema is "writable"
 * (which better-sqlite3's defensive mode forbids): a private copy, or a file only read to
 * salvage it, is opened that way to show what it still holds. Never the live cache.
 */
export function allowDamaged(db: Database): void {
  db.unsafeMode(true);
  db.pragma('writable_schema = ON');
}

export function schemaVersion(db: ReadableDB | Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** The SQLite library's own version, as linked into the driver (driver.ts). */
export function sqliteVersion(db: ReadableDB): string {
  return (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
}

export interface OpenOptions {
  readonly?: boolean;
  damagedOk?: boolean;
  /**
   * A second connection to a cache this process already has open (the write worker's). The
   * file must exist: a cache deleted while the app runs is never replaced by a new, empty one
   * that the first connection does not see. And the file-level checks, done when the first
   * connection opened it, are skipped: they open and close a descriptor of the file, and on
   * POSIX closing any descriptor of a file drops every lock this process holds on it, the
   * first connection's included (SQLite's "How To Corrupt", 2.2).
   */
  sibling?: boolean;
  /** Run quick_check before anything is written (set by openDatabase: see needsQuickCheck). */
  check?: boolean;
  /**
   * Migrate only up to this schema version (default: this build's, SCHEMA_VERSION). For the
   * tests of a migration, which need a cache as version n left it, opened as the app opens one
   * (Signal-Desktop's test-node/sql/migration_* make theirs so). A cache already past it is
   * left at its own version: migrations never go back.
   */
  upToVersion?: number;
  /**
   * The key of an encrypted cache (null or absent: a plain one). A plain file is opened
   * without it (a folder is encrypted file by file, see cache-conversion.ts); a new cache is
   * created encrypted with it.
   */
  key?: CacheKey | null;
}

/** The key to open `path` with: none for a file that is plain SQLite, the folder's for any other. */
function keyFor(path: string, key: CacheKey | null | undefined): CacheKey | null {
  if (!key) return null;
  return plainHeaderAt(path) ? null : key;
}

/**
 * A cache up to this size is checked (PRAGMA quick_check) at every open. The check reads every
 * page, so its time grows with the file: on a large cache too slow for every start of the app
 * and every CLI command, on one this size a small fraction of a second (bench/RESULTS.md,
 * "Checking the cache at open").
 */
const QUICK_CHECK_ALWAYS_BYTES = 64 * 2 ** 20;

/** The marker left beside a cache in which damage was met while running (see noteDamage). */
const damageMarker = (path: string) => `${path}-needs-check`;

/**
 * Whether the open checks every page's structure: a small cache always; a larger one when
 * the last session did not close cleanly (its WAL is still there: SQLite removes it when the
 * last connection closes) or met damage while running (noteDamage). A large cache damaged
 * while no Folioscope ran is found when a query reaches the page, which then leaves the marker.
 */
function needsQuickCheck(path: string): boolean {
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  if (size <= QUICK_CHECK_ALWAYS_BYTES) return true;
  return (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0 || existsSync(damageMarker(path));
}

/** Whether an error is SQLite finding a damaged page or a file that is not a database. */
export function isDamage(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  return code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_') || code === 'SQLITE_NOTADB';
}

/**
 * Damage met while running (a query or a write reached a bad page): the next open of this
 * cache checks it whatever its size, so it offers the ways forward instead of opening it.
 */
export function noteDamage(db: ReadableDB, err: unknown): void {
  if (!isDamage(err) || db.name === ':memory:' || db.readonly) return;
  try {
    writeFileSync(damageMarker(db.name), `${String((err as Error).message).split('\n')[0]}\n`, { mode: 0o600 });
  } catch {
    // The message already says what to do; a folder that refuses the marker changes nothing.
  }
}

/**
 * Opens (creating if needed) the cache and brings its schema up to date: all pending
 * migrations in one transaction, so a failed migration leaves the previous version.
 */
export function openDatabase(path: string, options: OpenOptions = {}): WritableDB {
  // Refused before the file is made or touched.
  if (options.upToVersion !== undefined) assertKnownVersion(options.upToVersion);
  if (path === ':memory:') return openChecked(path, options);
  const key = keyFor(path, options.key);
  try {
    assertOrdinaryFile(path);
    let check = false;
    if (!options.readonly && !options.sibling) {
      ownerOnlyFile(path);
      // A read-only copy of a cut-off file still shows what it holds: the check is skipped.
      if (!options.damagedOk) {
        checkNotTruncated(path);
        check = needsQuickCheck(path);
      }
    }
    const db = openChecked(path, { ...options, key, check });
    if (!options.readonly && !options.sibling) rememberFile(db);
    return db;
  } catch (err) {
    throw cacheProblem(path, err, key);
  }
}

/** The file each main connection opened (device and inode), to tell when it is no longer at its path. */
const openedFiles = new WeakMap<ReadableDB, { dev: number; ino: number }>();

function rememberFile(db: ReadableDB): void {
  const st = statSync(db.name, { throwIfNoEntry: false });
  // Some file systems give no inode number (0): nothing to compare then.
  if (st?.ino) openedFiles.set(db, { dev: st.dev, ino: st.ino });
}

/** The cache's file was moved or deleted while the app had it open. */
export class CacheMovedError extends Error {
  readonly path: string; // a field, not a parameter property (see FutureDatabaseError)
  constructor(path: string) {
    super(
      `The cache ${path} was moved or deleted while Folioscope was running, so nothing more is synced into it (it would be lost). Restart Folioscope: it opens the cache at its place again (a new, empty one if it is gone).`,
    );
    this.name = 'CacheMovedError';
    this.path = path;
  }
}

/**
 * Throws CacheMovedError when the file `db` opened is no longer at its path. SQLite keeps
 * writing to a file it has open even once it is deleted or replaced, and what it writes then
 * is lost when the app closes: a sync checks first (sync/engine.ts).
 */
export function assertCacheInPlace(db: ReadableDB): void {
  const opened = openedFiles.get(db);
  if (!opened) return;
  const now = statSync(db.name, { throwIfNoEntry: false });
  if (!now || now.ino !== opened.ino || now.dev !== opened.dev) throw new CacheMovedError(db.name);
}

/** The page size of a cache made now (see openChecked). */
export const PAGE_SIZE = 16_384;
/** The main connection's page cache, in KiB (see openChecked). */
export const MAIN_CACHE_KIB = 16_384;
const CHECKPOINT_BYTES = 40 * 2 ** 20;

/**
 * Throws when the file must not be written into: a newer schema, another program's tables, a
 * damaged first page or not SQLite at all, and with `check` a damaged page anywhere.
 */
function refuseUnusable(db: Database, path: string, check: boolean): { found: number; objects: number } {
  const found = schemaVersion(db);
  if (found > SCHEMA_VERSION) throw new FutureDatabaseError(path, found, SCHEMA_VERSION);
  // Reading the schema catches a damaged first page or a file that is not SQLite at all.
  const objects = (db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n;
  // Another program's database (tables, but never a Folioscope schema): never write into it.
  if (found === 0 && objects > 0) throw new ForeignDatabaseError(path);
  // A damaged page in the middle of the file, found before anything is written into it. One
  // problem is enough to refuse it: quick_check(1) stops at the first.
  if (check) {
    const rows = (db.pragma('quick_check(1)') as Array<{ quick_check: string }>).map((r) => r.quick_check);
    const problems = rows.filter((r) => !r.startsWith('***')).join('; ');
    if (rows.join() !== 'ok') throw Object.assign(new Error(`quick_check: ${problems.slice(0, 120)}`), { code: 'SQLITE_CORRUPT' });
  }
  return { found, objects };
}

/**
 * A process stopped while writing in rollback-journal mode (a cache conversion killed as it
 * switches the journal mode) leaves a hot journal: the file is not whole until the journal is
 * played back, which only a writable connection may do (a read-only one gets
 * SQLITE_READONLY_ROLLBACK). Playing it back restores the file as it was before that write, as
 * any writable open would; nothing else is written.
 */
function rollBackHotJournal(path: string, key: CacheKey | null): void {
  const db = openConnection(path, { fileMustExist: true }, key);
  try {
    db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
  } finally {
    db.close();
  }
}

function openChecked(path: string, options: OpenOptions): WritableDB {
  // A file with content is judged on a read-only connection first: closing a writable one
  // checkpoints the WAL into the file, so refusing the file there would change it (a WAL from
  // another database copied beside it, a damaged file). A read-only connection never checkpoints.
  const probing = !options.readonly && !options.sibling && !options.damagedOk && (statSync(path, { throwIfNoEntry: false })?.size ?? 0) > 0;
  if (probing) {
    const probe = () => {
      const conn = openConnection(path, { readonly: true, fileMustExist: true }, options.key ?? null);
      try {
        refuseUnusable(conn, path, options.check ?? false);
      } finally {
        conn.close();
      }
    };
    try {
      probe();
    } catch (err) {
      // Met at the probe's first read, before anything was judged: played back, then judged.
      if ((err as { code?: unknown }).code !== 'SQLITE_READONLY_ROLLBACK') throw err;
      rollBackHotJournal(path, options.key ?? null);
      probe();
    }
  }
  // The one place a connection gets its brand. A file opened with `readonly` is branded
  // writable too (SQLite itself refuses its writes): the brand says what the code holding
  // it is allowed to ask, and the core that opens the cache is.
  const db = openConnection(path, { readonly: options.readonly ?? false, fileMustExist: options.sibling ?? false }, options.key ?? null) as WritableDB;
  try {
    if (options.damagedOk) allowDamaged(db);
    const { found, objects } = refuseUnusable(db, path, !probing && (options.check ?? false));
    if (options.readonly) return db;
    if (options.check) rmSync(damageMarker(path), { force: true });
    // The write worker's connection writes pages only; any other announces its writes, so a
    // worker's batch makes way for them (write-yield.ts).
    if (!options.sibling) announceWrites(db);
    // A new cache gets 16 KiB pages (SQLite's default is 4 KiB); it can only be chosen before
    // the first page is written, so an older cache keeps its own. Larger pages made ingest
    // faster beside a bare INSERT in the same settings, since a commit writes a quarter as many
    // WAL frames for the same changed bytes (the hash index's random pages above all) and each
    // index is a level shallower; 32 KiB pages were no better, 64 KiB worse (bench/RESULTS.md,
    // "Round 4 (issue 16)").
    if (found === 0 && objects === 0) db.pragma(`page_size = ${PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
    // NORMAL with WAL: a crash loses at most the last transactions, never corrupts.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // 64 MiB of page cache while migrating, then MAIN_CACHE_KIB (see below).
    db.pragma('cache_size = -65536');
    // Checkpoint the WAL every ~40 MiB rather than SQLite's 4 MiB: each checkpoint syncs the
    // disk, and a sync's batches (see WriteBatch) would otherwise trigger one per commit. The
    // pragma counts pages, whose size depends on when the cache was made.
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.pragma(`wal_autocheckpoint = ${Math.round(CHECKPOINT_BYTES / pageSize)}`);
    // An existing cache about to be migrated is first copied, checked, to the backups folder
    // (store/backup-files.ts): a migration that goes wrong, or a version the user goes back from,
    // leaves a copy of the cache as it was. Not for a read-only copy (damagedOk) or a new cache.
    const target = options.upToVersion ?? SCHEMA_VERSION;
    if (found > 0 && found < target && !options.damagedOk) backupBeforeMigration(db, path, found);
    // A migration may rebuild an index over every row (010 did): it runs with the 64 MiB cache it
    // was measured with; what it held stays with glibc, but a migration runs once.
    migrate(db, target);
    // 16 MiB of page cache (MAIN_CACHE_KIB). The reads of the main connection walk indexes to a
    // page of rows (the timeline, positions, the overview, the sums of a reconciliation); a
    // larger cache bought no speed there, and none during a sync at all: SQLite drops a WAL
    // reader's cache whenever another connection has committed, every 250 ms while the write
    // worker writes. What a larger one did buy is memory that glibc keeps once the cache is
    // dropped: with this size the timeline (idle and while syncing), the reconciliation, the
    // PDF and the whale were no slower and the syncing process's peak RSS lower
    // (bench/RESULTS.md, "Round 5: memory of the syncing process"). Exports read on a
    // connection of their own (ledger/store/export.ts).
    db.pragma(`cache_size = -${MAIN_CACHE_KIB}`);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * The cache holds the user's wallets and history: readable by its owner only on POSIX. The
 * folder is created 0700 and the file 0600 before SQLite opens it, and SQLite gives its
 * -wal and -shm files the database file's mode. A file left by an older version is narrowed.
 */
function ownerOnlyFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  try {
    closeSync(openSync(path, 'a', 0o600));
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  } catch {
    // Not ours to change (another owner, a read-only folder): SQLite's own error says more.
  }
}

function assertKnownVersion(target: number): void {
  if (!Number.isInteger(target) || target < 0 || target > SCHEMA_VERSION) {
    throw new RangeError(`There is no schema version ${target}: this version of Folioscope knows 0 to ${SCHEMA_VERSION}. Nothing was changed.`);
  }
}

/**
 * Brings the schema from its version up to `target` (a whole number from 0 to SCHEMA_VERSION;
 * anything else is refused before anything runs), all in one transaction.
 */
export function migrate(db: Database, target = SCHEMA_VERSION): void {
  assertKnownVersion(target);
  const from = schemaVersion(db);
  if (from >= target) return;
  // A migration may rebuild a table others reference (6 does): SQLite's procedure turns
  // foreign keys off around the transaction (they cannot change inside one) and checks them
  // before committing, so a rebuild neither cascades deletes nor leaves a dangling reference.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  if (foreignKeys) db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      for (let v = from; v < target; v++) MIGRATIONS[v]!(db);
      const dangling = db.pragma('foreign_key_check') as unknown[];
      if (dangling.length) throw new Error(`migration to schema ${target} left ${dangling.length} broken reference(s); nothing was changed`);
      db.pragma(`user_version = ${target}`);
    }).immediate();
  } finally {
    if (foreignKeys) db.pragma('foreign_keys = ON');
  }
}
