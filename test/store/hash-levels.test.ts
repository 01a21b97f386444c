import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { HASH_KEY, HASH_TAIL } from '../../src/main/core/store/hash-key.ts';
import { keyCounts, MERGE_AT, mergeKeys } from '../../src/main/core/transactions/store/hash-levels.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import { clearCache } from '../../src/main/core/sync/clear.ts';
import { countTransactions, upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';
import { SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { createDB, updateToVersion } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

/**
 * The two levels of hash keys (migration 10, hash-levels.ts): a transaction is found again
 * wherever its key is (small level, large level, before and after a merge), so a page read
 * again updates its rows instead of adding them twice; the keys commit and roll back with
 * their rows; a purge or a clear takes the keys with the rows; and no code adds rows
 * without their keys.
 */
const W = '0x00000000000000000000000000000000000000aa';
const W2 = '0x00000000000000000000000000000000000000bb';

/** Random-looking hashes (as real ones are), from a counter: the i-th is always the same. */
const hashOf = (i: number) =>
  `0x${Array.from({ length: 8 }, (_, k) => ((Math.imul(i + 1, 2654435761) ^ Math.imul(k + 1, 40503)) >>> 0).toString(16).padStart(8, '0')).join('')}`;

const txn = (i: number, wallet = W, block = i): Transaction =>
  transactionRow({ wallet_id: wallet, txn_hash: hashOf(i), block, date: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString() });

const fresh = (version?: number) => {
  const db = createDB({ version });
  for (const w of [W, W2]) db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now')").run(w);
  return db;
};

const write = (db: WritableDB, rows: Transaction[], wallet = W) => db.transaction(() => upsertTransactions(db, wallet, 'eth', rows)).immediate();
const range = (from: number, to: number, wallet = W, block?: number) => Array.from({ length: to - from }, (_, k) => txn(from + k, wallet, block ?? from + k));
const blocks = (db: WritableDB) => db.prepare('SELECT block FROM transactions ORDER BY block').pluck().all();
const keysMatchRows = (db: WritableDB) => {
  const { large, recent } = keyCounts(db);
  expect(large + recent).toBe(countTransactions(db));
  // Each row's key is its hash's key, in one level or the other.
  const missing = db
    .prepare(
      `SELECT count(*) FROM transactions t WHERE NOT EXISTS (SELECT 1 FROM hash_keys k WHERE k.key = ${HASH_KEY.replaceAll('txn_hash', 't.txn_hash')} AND k.tail = ${HASH_TAIL.replaceAll('txn_hash', 't.txn_hash')} AND k.id = t.id)
         AND NOT EXISTS (SELECT 1 FROM hash_keys_recent k WHERE k.key = ${HASH_KEY.replaceAll('txn_hash', 't.txn_hash')} AND k.tail = ${HASH_TAIL.replaceAll('txn_hash', 't.txn_hash')} AND k.id = t.id)`,
    )
    .pluck()
    .get();
  expect(missing).toBe(0);
};

describe('two levels of hash keys', () => {
  it('finds a row again in either level, and across a merge: a page read again updates, never duplicates', () => {
    const db = fresh();
    write(db, range(0, 1000));
    expect(keyCounts(db)).toEqual({ large: 0, recent: 1000 });
    mergeKeys(db);
    expect(keyCounts(db)).toEqual({ large: 1000, recent: 0 });
    write(db, range(1000, 2000));
    expect(keyCounts(db)).toEqual({ large: 1000, recent: 1000 });
    keysMatchRows(db);
    // One page across both levels and new rows, each corrected by the service (another block).
    write(db, range(500, 2500, W, 77_777));
    expect(countTransactions(db)).toBe(2500);
    expect(db.prepare('SELECT count(*) FROM transactions WHERE block = 77777').pluck().get()).toBe(2000);
    keysMatchRows(db);
    // The same hashes for another wallet are other transactions.
    write(db, range(0, 100, W2), W2);
    expect(countTransactions(db)).toBe(2600);
    keysMatchRows(db);
  });

  it('merges by itself once the small level is full, within the writing transaction, and rolls back with it', () => {
    const db = fresh();
    write(db, range(0, MERGE_AT - 10));
    expect(keyCounts(db)).toEqual({ large: 0, recent: MERGE_AT - 10 });
    // This page crosses the threshold (checked every 8,192 inserts): merged, then rolled back with the rows.
    expect(() =>
      db
        .transaction(() => {
          upsertTransactions(db, W, 'eth', range(MERGE_AT - 10, MERGE_AT + 9000));
          expect(keyCounts(db).recent).toBeLessThan(MERGE_AT);
          throw new Error('the batch failed');
        })
        .immediate(),
    ).toThrow('the batch failed');
    expect(keyCounts(db)).toEqual({ large: 0, recent: MERGE_AT - 10 });
    expect(countTransactions(db)).toBe(MERGE_AT - 10);
    write(db, range(MERGE_AT - 10, MERGE_AT + 9000));
    expect(keyCounts(db).large).toBeGreaterThan(MERGE_AT - 10);
    keysMatchRows(db);
    // Everything found again: re-reading all of it adds nothing.
    write(db, range(0, MERGE_AT + 9000, W, 1));
    expect(countTransactions(db)).toBe(MERGE_AT + 9000);
    expect(blocks(db).every((b) => b === 1)).toBe(true);
  });

  it('a hash prefix search finds rows in both levels', () => {
    const db = fresh();
    write(db, range(0, 300));
    mergeKeys(db);
    write(db, range(300, 600));
    for (const i of [5, 299, 300, 599]) {
      const rows = timelinePage(db, { search: hashOf(i).slice(0, 12), limit: 10 }).rows.map((r) => r.txnHash);
      expect(rows).toContain(hashOf(i));
      expect(rows.every((h) => h.startsWith(hashOf(i).slice(0, 12)))).toBe(true);
    }
    expect(timelinePage(db, { search: hashOf(42), limit: 10 }).rows.map((r) => r.txnHash)).toEqual([hashOf(42)]);
  });

  it('odd hashes a service may send (not hex, short, broken Unicode, NUL, quotes) are each found again, in either level', () => {
    const db = fresh();
    const odd = [
      '0x12',
      '0xZZ' + 'a'.repeat(62),
      'abc',
      '\ud800' + 'f'.repeat(20),
      'a\u0000b',
      '"x"',
      'x\\y',
      '💵'.repeat(20),
      '0x' + 'f'.repeat(200),
      ' 0xab',
      'Ünï',
    ];
    const rows = odd.map((h, i) => ({ ...txn(i), txn_hash: h }));
    write(db, rows);
    write(
      db,
      rows.map((t) => ({ ...t, block: 5 })),
    );
    expect(countTransactions(db)).toBe(odd.length);
    mergeKeys(db);
    write(
      db,
      rows.map((t) => ({ ...t, block: 6 })),
    );
    expect(countTransactions(db)).toBe(odd.length);
    expect(blocks(db).every((b) => b === 6)).toBe(true);
    keysMatchRows(db);
  });

  it('a key left behind (a stale id) never takes another transaction for its own', () => {
    const db = fresh();
    write(db, range(0, 10));
    // A key of hash 99 pointing at row 1 (hash 0): the join compares the full hash.
    const id = db.prepare('SELECT id FROM transactions WHERE txn_hash = ?').pluck().get(hashOf(0)) as number;
    db.prepare(`INSERT INTO hash_keys (key, tail, id) SELECT ${HASH_KEY.replaceAll('txn_hash', '@h')}, ${HASH_TAIL.replaceAll('txn_hash', '@h')}, @id`).run({
      h: hashOf(99),
      id,
    });
    write(db, [txn(99, W, 5)]);
    expect(countTransactions(db)).toBe(11);
    expect(db.prepare('SELECT block FROM transactions WHERE id = ?').pluck().get(id)).toBe(0);
  });

  it("a purge takes the wallet's keys, a clear takes all; other wallets' stay", () => {
    const db = fresh();
    write(db, range(0, 500));
    write(db, range(0, 400, W2), W2);
    mergeKeys(db);
    write(db, range(500, 700));
    write(db, range(400, 450, W2), W2);
    removeWallet(db, W2, { purge: true });
    expect(countTransactions(db)).toBe(700);
    keysMatchRows(db);
    clearCache(db);
    expect(keyCounts(db)).toEqual({ large: 0, recent: 0 });
  });

  it('migration 10 moves the keys of the rows already cached into the large level: they are found again', () => {
    const db = fresh(9);
    // Rows as version 9 holds them (its store found them by the expression index).
    const insert = db.prepare("INSERT INTO transactions (wallet, chain, txn_hash, time, block, details) VALUES (?, 'eth', ?, ?, ?, '[]')");
    for (const t of range(0, 800)) insert.run(W, t.txn_hash, Date.parse(t.date!), t.block);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'transactions_by_hash_key'").pluck().get()).toBe(1);
    updateToVersion(db, SCHEMA_VERSION);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'transactions_by_hash_key'").pluck().get()).toBe(0);
    expect(keyCounts(db)).toEqual({ large: 800, recent: 0 });
    keysMatchRows(db);
    write(db, range(0, 900, W, 3));
    expect(countTransactions(db)).toBe(900);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('migration 10 keeps one copy of a transaction version 9 added twice (a hash with a lone surrogate), the last written', () => {
    const db = fresh(9);
    const insert = db.prepare("INSERT INTO transactions (wallet, chain, txn_hash, time, block, details) VALUES (?, ?, ?, 0, ?, '[]')");
    const broken = 'ab\ufffdcd'; // as stored: U+FFFD where the service sent a lone surrogate
    insert.run(W, 'eth', broken, 1);
    insert.run(W, 'eth', '0x' + 'e'.repeat(64), 2);
    insert.run(W, 'eth', broken, 3);
    insert.run(W2, 'eth', broken, 4); // another wallet's: its own transaction
    insert.run(W, 'arb', broken, 5); // another chain's
    insert.run(W, 'eth', broken, 6);
    updateToVersion(db, SCHEMA_VERSION);
    expect(blocks(db)).toEqual([2, 4, 5, 6]);
    keysMatchRows(db);
  });

  it("no code but the store's upsert adds transactions (a row added without its key would be added again later)", () => {
    const root = join(import.meta.dirname, '../../src');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
    const inserting = files(root)
      .filter((f) => /\.(ts|svelte)$/.test(f) && /INSERT\s+(OR\s+\w+\s+)?INTO\s+"?transactions"?\s*[(\s]/i.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
      .filter((f) => !f.startsWith('main/core/store/migrations/'));
    expect(inserting).toEqual(['main/core/transactions/store/transactions.ts']);
  });
});
