/**
 * Converting a cache file in place to another key (encryption at rest on or off), so that a
 * crash at any point leaves a cache that opens with all it held:
 *
 * 1. The cache is opened alone: `locking_mode = EXCLUSIVE`, so another process that has it
 *    open (the app, the web shell, a `watch`) makes the conversion stop before anything is
 *    written, and none can open it while it runs. Its WAL is folded into the file.
 * 2. A copy under the new key is written to `<cache>.converting-<random>` and checked
 *    (writeConvertedCopy: integrity_check, schema, the rows of every table), then synced.
 * 3. The old file gets a second name, `<cache>.before-encrypt-<time>` (or `.before-decrypt-`),
 *    a hard link (a copy where links are not supported), and the copy is renamed over the
 *    cache's name: one atomic rename, so the cache's name always holds the old file or the new.
 * 4. The new file is opened under the new key and checked again at its place; if it does not
 *    open, the old file is renamed back.
 *
 * The old file is removed only once the new one has opened where it lives (finishConversions,
 * called after the core opened the cache). Leftovers of a crash (a `.converting-` copy, a
 * `.before-…` name) are removed by that same step: the `.converting-` copy is never the only
 * copy, and the `.before-…` file is the old one, kept only until the new one has checked out.
 */
import { type CoreSaid, coded } from '../../../shared/core-codes.ts';
import { closeSync, constants, copyFileSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { assertOrdinaryFile, plainHeaderAt } from './db.ts';
import { type CacheKey, openConnection } from './driver.ts';
import { writeConvertedCopy } from './convert-copy.ts';
import { fileTime } from './backup-files.ts';

/** The caches of a data folder: demo.sqlite and each service's live-<id>.sqlite. */
export function cacheFilesIn(dataDir: string): string[] {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((n) => /^(demo|live-[0-9a-f]{12})\.sqlite$/.test(n))
    .map((n) => join(dataDir, n))
    .filter((p) => statSync(p, { throwIfNoEntry: false })?.isFile());
}

/** Whether a cache file is encrypted: it has content and does not start as plain SQLite does. */
export function isEncryptedFile(path: string): boolean {
  return (statSync(path, { throwIfNoEntry: false })?.size ?? 0) > 0 && !plainHeaderAt(path);
}

/** Files a conversion of `cacheFile` left beside it: an unfinished copy, or the old file kept until the new one checked out. */
export function conversionLeftovers(cacheFile: string): string[] {
  const dir = dirname(cacheFile);
  const name = basename(cacheFile);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith(`${name}.converting-`) || n.startsWith(`${name}.before-encrypt-`) || n.startsWith(`${name}.before-decrypt-`))
    .map((n) => join(dir, n));
}

/**
 * Whole copies of `cacheFile` kept aside: by a restore (`.before-restore-<time>`) or a move-aside
 * (`.damaged-<time>`). They hold the user's data as the cache did, so they are encrypted and
 * decrypted with it (a plain copy beside an encrypted cache would give it away); what a
 * conversion of one leaves is not a copy.
 */
export function keptAsideCopies(cacheFile: string): string[] {
  const dir = dirname(cacheFile);
  const name = basename(cacheFile);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => /^\.(before-restore|damaged)-[^.]*$/.test(n.slice(name.length)) && n.startsWith(name) && !/-(wal|shm|journal)$/.test(n))
    .map((n) => join(dir, n));
}

/**
 * A copy kept aside's `-journal`, `-wal` or `-shm` whose copy is gone (removed by the user after a
 * conversion could not read it): a page of the cache under a key that may be thrown away next,
 * useless without its file. Removed; returns what was.
 */
export function removeOrphanSidecars(cacheFile: string): string[] {
  const dir = dirname(cacheFile);
  const name = basename(cacheFile);
  if (!existsSync(dir)) return [];
  const orphans = readdirSync(dir)
    .filter((n) => n.startsWith(`${name}.`) && /^\.(before-restore|damaged)-[^.]*-(journal|wal|shm)$/.test(n.slice(name.length)))
    .map((n) => join(dir, n))
    .filter((p) => !existsSync(p.replace(/-(journal|wal|shm)$/, '')));
  for (const p of orphans) rmSync(p, { force: true });
  return orphans;
}

/** Removes what a conversion of `cacheFile` left: call once the cache has opened at its place (it checked out). */
export function finishConversions(cacheFile: string): string[] {
  const removed = conversionLeftovers(cacheFile);
  for (const f of removed) for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${f}${suffix}`, { force: true });
  return removed;
}

/** Another process has the cache open: converting it now would lose what that process writes. */
export class CacheInUseError extends Error {
  /** The message as a code and values, for a screen in another language (util/errors.ts sends it). */
  readonly said: CoreSaid;
  readonly path: string;
  constructor(path: string) {
    const { message, said } = coded('storage.inUse', { path });
    super(message);
    this.said = said;
    this.path = path;
    this.name = 'CacheInUseError';
  }
}

function fsyncDir(dir: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot sync a folder; the renames are still atomic.
  }
}

/**
 * Takes the cache file alone for a moment, as a conversion does first (an exclusive lock, the
 * WAL folded into the file): throws CacheInUseError when another process has it open. Run on
 * every cache of a folder before anything of the folder is changed, so "Nothing was changed"
 * holds for the usual case (the app open while the CLI converts).
 */
export function assertAlone(file: string, key: CacheKey | null): void {
  if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) === 0) return;
  const db = openConnection(file, { fileMustExist: true }, plainHeaderAt(file) ? null : key);
  try {
    db.pragma('busy_timeout = 2000');
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.pragma('journal_mode = DELETE');
    } catch (err) {
      if (/^SQLITE_BUSY|^SQLITE_LOCKED/.test(String((err as { code?: string }).code))) throw new CacheInUseError(file);
      throw err;
    }
    rmSync(`${file}-shm`, { force: true });
  } finally {
    db.close();
  }
}

/** Whether the encrypted file opens under `key` (a wrong key fails at the first read: every page is authenticated). */
export function opensWith(file: string, key: CacheKey): boolean {
  try {
    const db = openConnection(file, { readonly: true, fileMustExist: true }, key);
    try {
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      return true;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** Of `keys`, the one `file` opens under: null for a plain, empty or missing file, or one none of them opens. */
export function keyOpening(file: string, keys: CacheKey[]): CacheKey | null {
  if (!isEncryptedFile(file)) return null;
  return keys.find((k) => opensWith(file, k)) ?? null;
}

export interface ConvertedCache {
  file: string;
  /** What was done: converted, or already as asked (a missing or empty file is created under the new key when opened). */
  state: 'converted' | 'unchanged';
  /** The old file, kept until finishConversions (null when nothing was converted). */
  keptAside: string | null;
}

/**
 * Converts one cache file (closed in this process) so that it is encrypted with `to`, or plain
 * with null; `from` is the folder's current key (used for a file that is encrypted). Throws
 * CacheInUseError when another process has it open, and any failure of the copy's checks,
 * having changed nothing (the cache's name still holds the old file).
 */
export function convertCache(file: string, from: CacheKey | null, to: CacheKey | null, now = new Date()): ConvertedCache {
  assertOrdinaryFile(file);
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  // No cache yet, or an empty file: the next open creates it with the folder's key.
  if (size === 0) return { file, state: 'unchanged', keptAside: null };
  const current = plainHeaderAt(file) ? null : from;
  if ((current === null && to === null) || (current !== null && current.equals(to))) return { file, state: 'unchanged', keptAside: null };
  // Already under `to`: a change of key from one key to another, resumed (or undone) after it reached this file.
  if (current !== null && to !== null && opensWith(file, to)) return { file, state: 'unchanged', keptAside: null };
  if (plainHeaderAt(file) === false && from === null) throw new Error(`${file} is encrypted, and no key was given to read it. Nothing was changed.`);

  const source = openConnection(file, { fileMustExist: true }, current);
  let kept: string | null = null;
  let swapped = false;
  const converting = `${file}.converting-${randomBytes(4).toString('hex')}`;
  try {
    source.pragma('busy_timeout = 2000');
    // Alone on the file: an exclusive lock from the first access until close (a process that
    // has the cache open holds a shared lock, so this fails at once with SQLITE_BUSY).
    source.pragma('locking_mode = EXCLUSIVE');
    try {
      // Rollback-journal mode folds the WAL into the file and removes it; the kept file then
      // stands alone. openDatabase sets WAL again whenever the cache is opened.
      source.pragma('journal_mode = DELETE');
    } catch (err) {
      if (/^SQLITE_BUSY|^SQLITE_LOCKED/.test(String((err as { code?: string }).code))) throw new CacheInUseError(file);
      throw err;
    }
    // The WAL's index file is left behind by the switch; no process can use it now (this
    // connection holds the file alone), and the new file must not inherit it.
    rmSync(`${file}-shm`, { force: true });
    writeConvertedCopy(source, current, converting, to);
    // Windows renames no file over one that is open: the lock is given up just before the swap
    // there (elsewhere it is held through it, so no other process can open the old file meanwhile).
    if (process.platform === 'win32') source.close();
    kept = `${file}.before-${to ? 'encrypt' : 'decrypt'}-${fileTime(now)}`;
    for (let i = 2; existsSync(kept); i++) kept = `${file}.before-${to ? 'encrypt' : 'decrypt'}-${fileTime(now)}-${i}`;
    try {
      linkSync(file, kept);
    } catch {
      // No hard links here (some network and FAT file systems): a copy, synced, instead.
      copyFileSync(file, kept, constants.COPYFILE_EXCL);
      const fd = openSync(kept, 'r+');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    renameSync(converting, file);
    swapped = true;
    fsyncDir(dirname(file));
  } catch (err) {
    rmSync(converting, { force: true });
    if (kept && !swapped) rmSync(kept, { force: true });
    throw err;
  } finally {
    if (source.open) source.close();
  }
  // The new file, at its place, under the new key: else the old one goes back.
  try {
    const check = openConnection(file, { readonly: true, fileMustExist: true }, to);
    try {
      check.prepare('SELECT count(*) FROM sqlite_master').get();
    } finally {
      check.close();
    }
  } catch (err) {
    renameSync(kept, file);
    fsyncDir(dirname(file));
    throw new Error(`The converted cache did not open at its place (${String((err as Error).message).split('\n')[0]}); the cache was put back as it was.`, {
      cause: err,
    });
  }
  return { file, state: 'converted', keptAside: kept };
}
