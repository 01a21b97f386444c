import BetterSqlite3, { type Database } from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.ts';

export type { Database };

/** A database written by a newer Folioscope: opened, read for its version, never touched. */
export class FutureDatabaseError extends Error {
  constructor(readonly path: string, readonly found: number, readonly supported: number) {
    super(
      `The cache at ${path} was written by a newer version of Folioscope (schema ${found}; this version reads up to ${supported}). ` +
        'Update Folioscope, or choose another data folder. The file was not changed.',
    );
    this.name = 'FutureDatabaseError';
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Opens (creating if needed) the cache and brings its schema up to date: all pending
 * migrations in one transaction, so a failed migration leaves the previous version.
 */
export function openDatabase(path: string, options: { readonly?: boolean } = {}): Database {
  if (path !== ':memory:' && !options.readonly) ownerOnlyFile(path);
  const db = new BetterSqlite3(path, { readonly: options.readonly ?? false });
  try {
    const found = schemaVersion(db);
    if (found > SCHEMA_VERSION) throw new FutureDatabaseError(path, found, SCHEMA_VERSION);
    if (options.readonly) return db;
    db.pragma('journal_mode = WAL');
    // NORMAL with WAL: a crash loses at most the last transactions, never corrupts.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // 64 MiB of page cache: the timeline's indexes stay in memory while syncing large histories.
    db.pragma('cache_size = -65536');
    migrate(db);
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

export function migrate(db: Database, target = SCHEMA_VERSION): void {
  const from = schemaVersion(db);
  if (from >= target) return;
  db.transaction(() => {
    for (let v = from; v < target; v++) MIGRATIONS[v]!(db);
    db.pragma(`user_version = ${target}`);
  }).immediate();
}
