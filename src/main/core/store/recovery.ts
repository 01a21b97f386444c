/**
 * The ways forward from a cache that cannot be used as it is (CacheProblemError): open a
 * copy read-only, or move the file aside and start a new one. Neither deletes anything.
 */
import { constants, copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { allowDamaged, assertOrdinaryFile, CacheProblemError, openDatabase, plainHeaderAt, type WritableDB } from './db.ts';
import { type CacheKey, type Database, openConnection } from './driver.ts';
import { assertAlone, CacheInUseError } from './cache-conversion.ts';

/** SQLite's companion files of a database in WAL mode. */
const COMPANIONS = ['-wal', '-shm'];

/**
 * Opens a private copy of the cache (in a temporary folder) that refuses every write: the
 * original is never touched, even when its folder is read-only (SQLite cannot open a WAL
 * database there itself) or the file is damaged. `close` removes the copy.
 */
export function openReadOnlyCopy(path: string, key: CacheKey | null = null): { db: WritableDB; close: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'folioscope-readonly-'));
  const copy = join(dir, basename(path));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    // A pipe or a device is no cache, and copying a pipe would wait forever for a writer.
    assertOrdinaryFile(path);
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const db = openDatabase(copy, { damagedOk: true, key });
    // Every write is refused by SQLite itself, whatever asks for it.
    db.pragma('query_only = ON');
    return {
      db,
      close: () => {
        if (db.open) db.close();
        cleanup();
      },
    };
  } catch (err) {
    cleanup();
    if (err instanceof CacheProblemError)
      throw new CacheProblemError(path, err.problem, err.problem === 'locked' ? err.detail : `even a read-only copy cannot be read: ${err.detail}`);
    const message = String((err as Error)?.message ?? err).split('\n')[0];
    throw new CacheProblemError(path, 'unwritable', `it cannot be read: ${message}`);
  }
}

/**
 * Moves a damaged cache aside (kept as `<name>.damaged-<time>`, byte for byte as it was found,
 * with its -wal and -shm) and creates a new one in its place, carrying over the watched wallets and settings when they
 * can still be read from the old file. Syncing then rebuilds the history from the service.
 */
export function moveCacheAside(path: string, now = new Date(), key: CacheKey | null = null): { movedTo: string; walletsRecovered: number } {
  const movedTo = `${path}.damaged-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
  // What is kept aside is the file as it was found, with its -wal and -shm: copied before
  // anything opens it, since the check below (and any open) checkpoints the -wal into the file,
  // rewrites its header and removes the -shm.
  const present = ['', ...COMPANIONS].filter((c) => existsSync(`${path}${c}`));
  try {
    for (const c of present) copyFileSync(`${path}${c}`, `${movedTo}${c}`, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  } catch (err) {
    for (const c of present) rmSync(`${movedTo}${c}`, { force: true });
    throw new Error(`Could not move ${path} aside (${String((err as Error).message).split('\n')[0]}): open it read-only or use another data folder.`, {
      cause: err,
    });
  }
  // Another process with the cache open would go on writing into the file moved aside, and the
  // new cache would miss it: refused. A file too damaged to be locked is moved all the same.
  try {
    assertAlone(path, key);
  } catch (err) {
    if (err instanceof CacheInUseError) {
      for (const c of present) rmSync(`${movedTo}${c}`, { force: true });
      throw err;
    }
  }
  // The wallets and settings are read from the original (the check may have changed it), moved
  // out of the cache's name first; it is removed once the new cache holds what could be read.
  const salvaging = `${movedTo}.salvaging`;
  renameSync(path, salvaging);
  for (const c of COMPANIONS) if (existsSync(`${path}${c}`)) renameSync(`${path}${c}`, `${salvaging}${c}`);
  try {
    // The new cache is encrypted as the folder's caches are (with its key), and the old one read with it.
    const db = openDatabase(path, { key });
    try {
      return { movedTo, walletsRecovered: salvage(salvaging, db, key) };
    } finally {
      db.close();
    }
  } finally {
    for (const c of ['', ...COMPANIONS]) rmSync(`${salvaging}${c}`, { force: true });
  }
}

/** Wallets and settings still readable in a damaged file, copied into the new cache; 0 when none. */
function salvage(from: string, into: WritableDB, key: CacheKey | null): number {
  let old: Database | null = null;
  try {
    old = openConnection(from, { readonly: true, fileMustExist: true }, plainHeaderAt(from) ? null : key);
    allowDamaged(old);
    const wallets = old.prepare('SELECT address, label, tags, chains, created_at FROM wallets').all() as Array<Record<string, unknown>>;
    let settings: Array<Record<string, unknown>> = [];
    try {
      settings = old.prepare('SELECT key, value FROM settings').all() as Array<Record<string, unknown>>;
    } catch {
      // Wallets matter more than settings: keep going.
    }
    const putWallet = into.prepare(
      'INSERT OR IGNORE INTO wallets (address, label, tags, chains, created_at) VALUES (@address, @label, @tags, @chains, @created_at)',
    );
    const putSetting = into.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (@key, @value)');
    into.transaction(() => {
      for (const w of wallets) putWallet.run(w);
      for (const s of settings) putSetting.run(s);
    })();
    return wallets.length;
  } catch {
    return 0;
  } finally {
    old?.close();
  }
}
