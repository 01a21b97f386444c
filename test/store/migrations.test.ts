import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FutureDatabaseError, migrate, openDatabase, PAGE_SIZE, schemaVersion } from '../../src/main/core/store/db.ts';
import { listBackups } from '../../src/main/core/store/backup-files.ts';
import { SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { createDB, tempDir, updateToVersion } from '../support/store.ts';

describe('migration 1: the initial schema', () => {
  it('creates every table from an empty database and records version 1', () => {
    const db = createDB({ version: 0 });
    expect(schemaVersion(db)).toBe(0);
    updateToVersion(db, 1);
    expect(schemaVersion(db)).toBe(1);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
    expect(tables).toEqual(['settings', 'snapshots', 'transaction_tokens', 'transactions', 'txn_log_sets', 'txn_logs', 'txn_sync_ranges', 'wallets']);
    // Snapshots cannot be changed once written.
    db.prepare(
      "INSERT INTO snapshots (endpoint, wallet, chain, as_of, fetched_at, sha256, raw, data, position_count) VALUES ('allPositions', 'w', 'eth', '2025-01-01', 'now', 'h', '{}', '[]', 0)",
    ).run();
    expect(() => db.prepare("UPDATE snapshots SET raw = 'x'").run()).toThrow(/immutable/);
    // Nothing in the schema can hold a secret.
    const columns = (
      db.prepare("SELECT name FROM pragma_table_info('settings') UNION SELECT name FROM pragma_table_info('wallets')").all() as Array<{ name: string }>
    ).map((r) => r.name);
    expect(columns.some((c) => /key|secret|token|password/i.test(c) && c !== 'key')).toBe(false);
  });
});

describe('opening the cache', () => {
  it('runs all pending migrations and uses WAL', () => {
    const db = createDB();
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('makes a new cache with 16 KiB pages; an older cache keeps its pages, and checkpoints every ~40 MiB either way', () => {
    const dir = tempDir();
    const fresh = openDatabase(join(dir, 'new.sqlite'));
    expect(fresh.pragma('page_size', { simple: true })).toBe(PAGE_SIZE);
    expect(fresh.pragma('wal_autocheckpoint', { simple: true })).toBe(2560);
    fresh.close();
    // A cache made by an earlier version, at SQLite's default page size.
    const oldPath = join(dir, 'old.sqlite');
    const old = new BetterSqlite3(oldPath);
    old.pragma('page_size = 4096');
    migrate(old);
    old.close();
    const reopened = openDatabase(oldPath);
    expect(reopened.pragma('page_size', { simple: true })).toBe(4096);
    expect(reopened.pragma('wal_autocheckpoint', { simple: true })).toBe(10_240);
    expect(schemaVersion(reopened)).toBe(SCHEMA_VERSION);
    reopened.close();
  });

  it('refuses a database from a newer version with a clear message and leaves the file untouched', () => {
    const path = join(tempDir(), 'future.sqlite');
    const future = new BetterSqlite3(path);
    future.exec('CREATE TABLE from_the_future (x)');
    future.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    future.close();
    const before = createHash('sha256').update(readFileSync(path)).digest('hex');
    let err: unknown;
    try {
      openDatabase(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FutureDatabaseError);
    expect((err as Error).message).toMatch(/newer version of Folioscope.*not changed/);
    expect(createHash('sha256').update(readFileSync(path)).digest('hex')).toBe(before);
  });

  it('keeps the previous version when a migration fails midway', () => {
    const db = createDB({ version: 0 });
    db.exec('CREATE TABLE wallets (x)'); // collides with migration 1
    expect(() => updateToVersion(db, 1)).toThrow();
    expect(schemaVersion(db)).toBe(0);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'snapshots'").get()).toEqual({ n: 0 });
  });

  it('opens a cache migrated only up to a version when asked (the tests of a migration), as the app opens any; a later open finishes, after a backup', () => {
    const db = createDB({ version: 5 });
    expect(schemaVersion(db)).toBe(5);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name IN ('wallet_groups', 'schedules')").get()).toEqual({ n: 1 });
    updateToVersion(db, 6);
    expect(schemaVersion(db)).toBe(6);
    expect(() => updateToVersion(db, 5)).toThrow(/schema 6, past 5: migrations never go back/);
    db.close();
    const reopened = openDatabase(db.name);
    expect(schemaVersion(reopened)).toBe(SCHEMA_VERSION);
    expect(listBackups(db.name).map((b) => [b.reason, b.schemaVersion])).toEqual([['before-migration', 6]]);
    reopened.close();
  });

  it('refuses a schema version it does not know, before anything is made or changed', () => {
    const dir = tempDir();
    for (const bad of [-1, 1.5, SCHEMA_VERSION + 1, Number.NaN]) {
      expect(() => openDatabase(join(dir, 'never.sqlite'), { upToVersion: bad })).toThrow(
        new RegExp(`There is no schema version ${bad}: .*knows 0 to ${SCHEMA_VERSION}`),
      );
      expect(readdirSync(dir)).toEqual([]);
    }
    const db = createDB({ version: 3 });
    expect(() => migrate(db, SCHEMA_VERSION + 1)).toThrow(RangeError);
    expect(schemaVersion(db)).toBe(3);
  });
});
