import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { HASH_KEY, hashKeyRanges } from '../../src/main/core/store/hash-key.ts';
import { MIGRATIONS } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion6 } from '../../src/main/core/store/migrations/006-hash-key.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';
import { createDB, updateToVersion } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

const BEFORE = MIGRATIONS.indexOf(updateToSchemaVersion6);
const W = '0x00000000000000000000000000000000000000aa';
const W2 = '0x00000000000000000000000000000000000000bb';

const txn = (hash: string, date: string, extra: Partial<Transaction> = {}): Transaction =>
  transactionRow({
    wallet_id: W,
    txn_hash: hash,
    date,
    details: [{ token_cid: '0xt', symbol: 'TOK', type: 'in', qty: 1, price: null, value: null }],
    ...extra,
  });

const fresh = () => {
  const db = createDB();
  db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now'), (?, '[\"eth\"]', 'now')").run(W, W2);
  return db;
};

describe('migration 6: transactions found by an 8-byte key of their hash', () => {
  it('rebuilds the table without the text key, keeping every row, id, token row and trigger, with foreign keys intact', () => {
    const db = createDB({ version: BEFORE });
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now')").run(W);
    const insert = db.prepare("INSERT INTO transactions (id, wallet, chain, txn_hash, time, status, details) VALUES (?, ?, 'eth', ?, ?, 1, '[]')");
    for (let i = 0; i < 50; i++) insert.run(1000 + i * 7, W, `0x${(i * 977).toString(16).padStart(64, '0')}`, 1_700_000_000_000 + i * 1000);
    db.prepare("INSERT INTO transaction_tokens (txn_id, symbol, token_cid) VALUES (1007, 'TOK', '0xt')").run();
    db.prepare("INSERT INTO transfer_days_state VALUES (?, 'eth', 2000)").run(W);
    const before = db.prepare('SELECT * FROM transactions ORDER BY id').all();
    const page = timelinePage(db, { limit: 1000 }).rows;

    // Version 6 itself (version 9 moves the token rows into the row, see migration-009.test.ts).
    updateToVersion(db, BEFORE + 1);
    expect(schemaVersion(db)).toBe(BEFORE + 1);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1); // restored after the rebuild
    expect(db.prepare('SELECT * FROM transactions ORDER BY id').all()).toEqual(before);
    expect(timelinePage(db, { limit: 1000 }).rows).toEqual(page);
    // The token row was not cascaded away by the rebuild, and still belongs to its transaction.
    expect(db.prepare('SELECT txn_id FROM transaction_tokens').all()).toEqual([{ txn_id: 1007 }]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    // No text key left; the hash key index is the expression the store queries by.
    const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transactions'").all() as Array<{
      name: string;
      sql: string | null;
    }>;
    expect(indexes.some((i) => i.name.startsWith('sqlite_autoindex'))).toBe(false);
    expect(indexes.find((i) => i.name === 'transactions_by_hash_key')?.sql).toContain(HASH_KEY);
    expect(indexes.map((i) => i.name).sort()).toEqual([
      'transactions_by_action_time',
      'transactions_by_from',
      'transactions_by_hash_key',
      'transactions_by_time',
      'transactions_by_to',
      'transactions_by_wallet_time',
    ]);
    // The triggers of migration 5 came back: a change to a row marks its sums stale; a delete cascades tokens.
    db.prepare('UPDATE transactions SET status = 0 WHERE id = 1000').run();
    expect(db.prepare('SELECT count(*) AS n FROM transfer_days_state').get()).toEqual({ n: 0 });
    db.prepare('DELETE FROM transactions WHERE id = 1007').run();
    expect(db.prepare('SELECT count(*) AS n FROM transaction_tokens').get()).toEqual({ n: 0 });
  });

  it('keeps two hashes that share a key apart, and one hash of two wallets as two rows; a hash seen again is updated', () => {
    const db = fresh();
    const a = `0x1234567890abcdef${'0'.repeat(48)}`;
    const b = `0x1234567890abcdef${'f'.repeat(48)}`; // the same first 8 bytes: the same key
    upsertTransactions(db, W, 'eth', [txn(a, '2026-01-01T00:00:00Z'), txn(b, '2026-01-02T00:00:00Z')]);
    upsertTransactions(db, W2, 'eth', [txn(a, '2026-01-01T00:00:00Z')]);
    const key = (h: string) => (db.prepare(`SELECT hex(${HASH_KEY}) AS k FROM (SELECT ? AS txn_hash)`).get(h) as { k: string }).k;
    expect(key(a)).toBe(key(b));
    expect(db.prepare('SELECT wallet, txn_hash FROM transactions ORDER BY id').all()).toEqual([
      { wallet: W, txn_hash: a },
      { wallet: W, txn_hash: b },
      { wallet: W2, txn_hash: a },
    ]);
    // Read again, corrected by the service: the same row, updated, tokens replaced.
    upsertTransactions(db, W, 'eth', [txn(b.toUpperCase().replace('0X', '0x'), '2026-01-03T00:00:00Z', { status: 0, details: [] })]);
    expect(db.prepare('SELECT id, status, time FROM transactions WHERE wallet = ? AND txn_hash = ?').all(W, b)).toEqual([
      { id: 2, status: 0, time: Date.parse('2026-01-03T00:00:00Z') },
    ]);
    expect(db.prepare('SELECT count(*) AS n FROM transactions').get()).toEqual({ n: 3 });
    expect(db.prepare('SELECT id, tokens FROM transactions ORDER BY id').all()).toEqual([
      { id: 1, tokens: '["TOK"]' },
      { id: 2, tokens: null },
      { id: 3, tokens: '["TOK"]' },
    ]);
  });

  it('finds every hash by any prefix: hex hashes, odd-length and non-hex ones, through the key ranges', () => {
    const db = fresh();
    const hashes = [
      `0xabcdef${'1'.repeat(58)}`,
      `0xabcdef${'2'.repeat(58)}`,
      '0xabcdef12', // short, even: a 4-byte key
      '0xabcdef123', // odd digits: a text key
      '0xabcdefzz99', // not hex: a text key
      '5kd3abcdefabcdefabcdef', // another chain family (base58-like): a text key
      `0xabcdee${'f'.repeat(58)}`, // just below the prefix
      `0xabcdf0${'0'.repeat(58)}`, // just above
    ];
    upsertTransactions(
      db,
      W,
      'eth',
      hashes.map((h, i) => txn(h, `2026-01-0${i + 1}T00:00:00Z`, { from: '0x00000000000000000000000000000000000000dd', to: null })),
    );
    const found = (search: string) =>
      timelinePage(db, { limit: 100, search })
        .rows.map((r) => r.txnHash)
        .sort();
    expect(found('0xabcdef')).toEqual(hashes.filter((h) => h.startsWith('0xabcdef')).sort());
    expect(found('0xabcdef1')).toEqual(hashes.filter((h) => h.startsWith('0xabcdef1')).sort());
    expect(found('0xabcdef12')).toEqual(hashes.filter((h) => h.startsWith('0xabcdef12')).sort());
    expect(found(hashes[0]!)).toEqual([hashes[0]]);
    expect(found('5kd3abcdefabcdefabcd')).toEqual([hashes[5]]);
    expect(found('0xabcdefzz')).toEqual([hashes[4]]);
    // The brute-force answer agrees for every prefix of every hash.
    for (const h of hashes) {
      for (let n = 6; n <= h.length; n += 5) {
        const p = h.slice(0, n);
        expect(found(p)).toEqual(hashes.filter((x) => x.startsWith(p)).sort());
      }
    }
    expect(hashKeyRanges('0xabc').blob).toEqual({ lo: Buffer.from('abc0', 'hex'), hi: Buffer.from('abcfffffffffffff', 'hex') });
  });
});
