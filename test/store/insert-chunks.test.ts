import { describe, expect, it } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { HASH_KEY, HASH_TAIL } from '../../src/main/core/store/hash-key.ts';
import { keyCounts } from '../../src/main/core/transactions/store/hash-levels.ts';
import { refreshTransferDays } from '../../src/main/core/transactions/store/transfer-days.ts';
import { transferDaysKeeper } from '../../src/main/core/transactions/store/transfer-days-keeper.ts';
import { countTransactions, upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { WriteBatch } from '../../src/main/core/transactions/store/write-batch.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';
import { generator } from '../../src/sim/random.ts';
import { createDB } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

/**
 * New rows are inserted up to 128 at a time, in one multi-row INSERT (insertRows in
 * transactions.ts), their ids counted back from the statement's last. Checked against the same
 * rows written one at a time: every column and id the same, every key on its own row, for
 * pages of every size around the chunks' powers of two, with repeated hashes in a page and rows
 * already cached; the daily sums kept by the writer the same as rebuilt from the rows.
 * A row that fails takes its whole page with it.
 */
const W = '0x00000000000000000000000000000000000000aa';
const T0 = Date.UTC(2025, 0, 1);

const hashOf = (i: number) => `0x${(i * 2654435761).toString(16).padStart(16, '0')}${'ab'.repeat(24)}`;

const fresh = () => {
  const db = createDB();
  db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now')").run(W);
  return db;
};

/** Pages as a sync writes them: each in the write worker's batch, with its daily sums kept. */
const writePages = (db: WritableDB, pages: Transaction[][]) => {
  const batch = new WriteBatch(db, { maxRows: 1_000, maxMs: 60_000, exclusive: true }, transferDaysKeeper(db));
  for (const page of pages) batch.write(page.length, () => upsertTransactions(db, W, 'eth', page));
  batch.commit();
};

const sums = (db: WritableDB) => db.prepare('SELECT * FROM transfer_days ORDER BY day, token_cid').all();
const everything = (db: WritableDB) => db.prepare('SELECT * FROM transactions ORDER BY id').all();
const keysOnTheirRows = (db: WritableDB) => {
  const key = (level: string) =>
    `SELECT count(*) FROM ${level} k JOIN transactions t ON t.id = k.id
      WHERE k.key = ${HASH_KEY.replaceAll('txn_hash', 't.txn_hash')} AND k.tail = ${HASH_TAIL.replaceAll('txn_hash', 't.txn_hash')}`;
  return (db.prepare(key('hash_keys')).pluck().get() as number) + (db.prepare(key('hash_keys_recent')).pluck().get() as number);
};

describe('rows inserted in chunks', () => {
  it('stores exactly what rows written one at a time store: ids, columns, keys and daily sums', () => {
    const next = generator(16);
    let n = 0;
    const row = (hash: number) =>
      transactionRow({
        wallet_id: W,
        txn_hash: hashOf(hash),
        block: n,
        date: new Date(T0 - n++ * 60_000).toISOString(),
        // Two transfers on most rows, so the sums have something to add.
        details: [
          { token_cid: '0xt1', symbol: 'T1', type: next() < 0.5 ? 'in' : 'out', qty: Math.floor(next() * 1000) / 8 },
          { token_cid: '0xt2', symbol: 'T2', type: 'in', qty: n },
        ],
      });
    // Sizes around every chunk size (128, 64, … 1); hashes drawn from a pool, so a page repeats
    // some of its own and meets rows already written by earlier pages.
    const sizes = [1, 2, 3, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 7];
    let pool = 0;
    const pages = sizes.map((size) => {
      pool += size;
      return Array.from({ length: size }, () => row(next() < 0.85 ? pool - size + Math.floor(next() * size) : Math.floor(next() * pool)));
    });
    const chunked = fresh();
    writePages(chunked, pages);
    const rowByRow = fresh();
    writePages(
      rowByRow,
      pages.flatMap((page) => page.map((r) => [r])),
    );
    expect(countTransactions(chunked)).toBeGreaterThan(1000);
    expect(everything(chunked)).toEqual(everything(rowByRow));
    const keys = keyCounts(chunked);
    expect(keys.large + keys.recent).toBe(countTransactions(chunked));
    expect(keysOnTheirRows(chunked)).toBe(countTransactions(chunked));
    // Updated rows leave the daily sums to the refresh after the sync; rebuilt, they agree.
    refreshTransferDays(chunked, [{ wallet: W, chain: 'eth' }]);
    refreshTransferDays(rowByRow, [{ wallet: W, chain: 'eth' }]);
    expect(sums(chunked)).toEqual(sums(rowByRow));
  });

  it('keeps the daily sums of rows inserted in chunks as it writes them', () => {
    let n = 0;
    const page = (size: number) =>
      Array.from({ length: size }, () =>
        transactionRow({
          wallet_id: W,
          txn_hash: hashOf(n),
          block: n,
          date: new Date(T0 - n * 3_600_000).toISOString(),
          details: [{ token_cid: '0xt1', symbol: 'T1', type: n % 3 ? 'in' : 'out', qty: n++ }],
        }),
      );
    const db = fresh();
    writePages(db, [1, 129, 1000, 63, 256].map(page));
    const kept = sums(db);
    expect(kept.length).toBeGreaterThan(50);
    // Kept by the writer up to the last row, not left to a refresh.
    expect(db.prepare('SELECT built_to_id FROM transfer_days_state').pluck().get()).toBe(countTransactions(db));
    db.exec('DELETE FROM transfer_days; DELETE FROM transfer_days_state');
    refreshTransferDays(db, [{ wallet: W, chain: 'eth' }]);
    expect(sums(db)).toEqual(kept);
  });

  it('keeps nothing of a page whose row fails, wherever in its chunks that row is', () => {
    for (const bad of [0, 127, 128, 200, 299]) {
      const db = fresh();
      writePages(db, [Array.from({ length: 50 }, (_, i) => transactionRow({ wallet_id: W, txn_hash: hashOf(10_000 + i), block: i }))]);
      // A block SQLite's STRICT INTEGER column refuses.
      const page = Array.from({ length: 300 }, (_, i) => transactionRow({ wallet_id: W, txn_hash: hashOf(i), block: i === bad ? 1.5 : i }));
      expect(() => db.transaction(() => upsertTransactions(db, W, 'eth', page))()).toThrow(/REAL value in INTEGER column/);
      expect(countTransactions(db)).toBe(50);
      expect(keyCounts(db)).toEqual({ large: 0, recent: 50 });
      // The same page without the bad row is written whole afterwards.
      page[bad] = transactionRow({ wallet_id: W, txn_hash: hashOf(bad), block: bad });
      writePages(db, [page]);
      expect(countTransactions(db)).toBe(350);
      expect(keysOnTheirRows(db)).toBe(350);
    }
  });
});
