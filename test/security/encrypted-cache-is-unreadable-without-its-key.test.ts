import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Driver from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { createBackup } from '../../src/main/core/store/backup-files.ts';
import { isEncryptedFile } from '../../src/main/core/store/cache-conversion.ts';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { CacheKey, openConnection } from '../../src/main/core/store/driver.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { tempDir } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

/**
 * Encryption at rest as a thief of the disk meets it: the cache, its WAL while the app writes,
 * and its backup, read with the sqlite3 command-line shell (Debian's sqlite3), with the driver
 * and no key or another key, and searched for a watched address and a hash. The plain cache,
 * read the same way, is the control: every check here fails on it.
 */
const W = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const MARKER_HASH = '0x' + 'c0ffee15'.repeat(8);

function fill(db: WritableDB, rows = 2000): void {
  addWallet(db, { address: W, chains: ['eth'], label: 'Treasury' });
  const txs = Array.from({ length: rows }, (_, i) =>
    transactionRow({
      wallet_id: W,
      txn_hash: i === 0 ? MARKER_HASH : `0x${randomBytes(32).toString('hex')}`,
      block: i + 1,
      date: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    }),
  );
  upsertTransactions(db, W, 'eth', txs);
}

/** The bytes of a cache and its WAL. */
const onDisk = (path: string) => Buffer.concat([readFileSync(path), existsSync(`${path}-wal`) ? readFileSync(`${path}-wal`) : Buffer.alloc(0)]);

function sqlite3Shell(path: string, sql: string) {
  const r = spawnSync('sqlite3', ['-readonly', path, sql], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('an encrypted cache, without its key', () => {
  it('is unreadable by the sqlite3 shell and by a keyless open, holds no address or hash in clear (nor does its WAL or backup), and opens with its key', () => {
    const key = new CacheKey(randomBytes(32));
    const path = join(tempDir(), 'demo.sqlite');
    const db = openDatabase(path, { key });
    fill(db);
    // Before the checkpoint the rows are in the WAL: it is encrypted too.
    expect(existsSync(`${path}-wal`)).toBe(true);
    const whileOpen = onDisk(path);
    expect(whileOpen.includes(MARKER_HASH)).toBe(false);
    expect(whileOpen.includes(W)).toBe(false);
    const backup = join(path, '..', 'backups', createBackup(db, path, { reason: 'manual', appVersion: 'test' }).name);
    db.close();

    for (const file of [path, backup]) {
      const bytes = readFileSync(file);
      expect(bytes.subarray(0, 16).toString('latin1')).not.toBe('SQLite format 3\0');
      expect(bytes.includes(W)).toBe(false);
      expect(bytes.includes(MARKER_HASH)).toBe(false);
      expect(bytes.includes('Treasury')).toBe(false);
      expect(isEncryptedFile(file)).toBe(true);
      // The sqlite3 command-line shell cannot read it.
      const shell = sqlite3Shell(file, 'SELECT count(*) FROM transactions');
      expect(shell.status).not.toBe(0);
      expect(shell.out).toMatch(/not a database/);
      // Nor can the driver without the key, nor with another key.
      expect(() => new Driver(file, { readonly: true }).prepare('SELECT count(*) FROM transactions').get()).toThrow(/not a database/);
      expect(() =>
        openConnection(file, { readonly: true }, new CacheKey(randomBytes(32)))
          .prepare('SELECT 1 FROM sqlite_master')
          .get(),
      ).toThrow(/not a database/);
    }

    // With the key: everything.
    const again = openDatabase(path, { key });
    expect(again.prepare('SELECT count(*) AS n FROM transactions').get()).toEqual({ n: 2000 });
    expect(again.prepare('SELECT txn_hash FROM transactions WHERE block = 1').get()).toEqual({ txn_hash: MARKER_HASH });
    again.close();

    // The control: the same cache plain is read by anyone.
    const plainPath = join(tempDir(), 'demo.sqlite');
    const plain = openDatabase(plainPath);
    fill(plain);
    plain.close();
    expect(readFileSync(plainPath).includes(MARKER_HASH)).toBe(true);
    expect(sqlite3Shell(plainPath, 'SELECT count(*) FROM transactions').out.trim()).toBe('2000');
  });
});
