import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion7 } from '../../src/main/core/store/migrations/007-hash-key-tail.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import { FIND_PAGE } from '../../src/main/core/transactions/store/hash-levels.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';
import { createDB, updateToVersion } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

const W = '0x00000000000000000000000000000000000000aa';
/** A service that numbers its hashes: every one shares its first 8 bytes (and many more). */
const numbered = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

const txn = (hash: string, i: number): Transaction =>
  transactionRow({ wallet_id: W, txn_hash: hash, block: i, date: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString() });

const fresh = () => {
  const db = createDB();
  db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now')").run(W);
  return db;
};

describe('migration 7: hashes that share their first 8 bytes are still one seek apart', () => {
  it("the store's lookup seeks on both the first and the last 8 bytes (not a run of every row sharing the first)", () => {
    const db = fresh();
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${FIND_PAGE}`).all(JSON.stringify([numbered(1), numbered(2)]), W, 'eth') as Array<{ detail: string }>)
      .map((r) => r.detail)
      .join('\n');
    // Two equality terms on each level's key (migration 10 moved the index into two tables), then the row by id.
    expect(plan).toMatch(/SEARCH k USING PRIMARY KEY \(key=\? AND tail=\?\)[^]*SEARCH k USING PRIMARY KEY \(key=\? AND tail=\?\)/);
    expect(plan).toMatch(/SEARCH t USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(plan).not.toMatch(/SCAN (t|k)\b/);
  });

  it('numbered hashes are each their own transaction; a page written again updates in place; prefix search finds them', () => {
    const db = fresh();
    const page = Array.from({ length: 3000 }, (_, i) => txn(numbered(i + 1), i));
    db.transaction(() => upsertTransactions(db, W, 'eth', page)).immediate();
    expect(db.prepare('SELECT count(*) FROM transactions').pluck().get()).toBe(3000);
    // The same page again (an overlapping re-read), one row corrected by the service.
    const again = page.map((t, i) => (i === 1234 ? { ...t, block: 99_999 } : t));
    db.transaction(() => upsertTransactions(db, W, 'eth', again)).immediate();
    expect(db.prepare('SELECT count(*) FROM transactions').pluck().get()).toBe(3000);
    expect(db.prepare('SELECT block FROM transactions WHERE txn_hash = ?').pluck().get(numbered(1235))).toBe(99_999);
    // Search by the full hash and by a prefix they all share (the index's first column).
    expect(timelinePage(db, { search: numbered(2000), limit: 10 }).rows.map((r) => r.txnHash)).toEqual([numbered(2000)]);
    expect(timelinePage(db, { search: '0x0000000000', limit: 1000 }).rows.length).toBe(1000);
  });

  it('an existing cache gets the new index and keeps every row', () => {
    const db = createDB({ version: MIGRATIONS.indexOf(updateToSchemaVersion7) });
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now')").run(W);
    // As the store of version 6 wrote them (the store of today writes today's schema).
    const insert = db.prepare("INSERT INTO transactions (wallet, chain, txn_hash, time, status, details) VALUES (?, 'eth', ?, ?, 1, '[]')");
    insert.run(W, numbered(7), 1000);
    insert.run(W, '5verv8nmvzbjmekv8xnrlkeawrtsz9coskdyjcjjbrnb', 2000);
    updateToVersion(db, SCHEMA_VERSION);
    expect(db.prepare('SELECT txn_hash FROM transactions ORDER BY id').pluck().all()).toEqual([numbered(7), '5verv8nmvzbjmekv8xnrlkeawrtsz9coskdyjcjjbrnb']); // stored in lower case, as every hash
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
