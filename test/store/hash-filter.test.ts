import { describe, expect, it } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { BUILD_LIMIT, enableNewHashFilter, MAX_PAIRS, newHashFilterOf, type PairFilter } from '../../src/main/core/transactions/store/hash-filter.ts';
import { mergeKeys } from '../../src/main/core/transactions/store/hash-levels.ts';
import { countTransactions, upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import { openWriterConnection } from '../../src/main/core/transactions/store/writer-connection.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';
import { createDB } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

/**
 * The write worker's filter of new hashes (hash-filter.ts): a page's hashes it answers "not
 * cached" are inserted without a lookup, so a wrong answer adds a transaction twice, silently.
 * Each case writes on the worker's kind of connection (openWriterConnection) after another
 * connection, or a rolled-back write, changed the pair's rows behind the filter's back, then
 * checks that no transaction is there twice.
 */
const W = '0x00000000000000000000000000000000000000aa';
const W2 = '0x00000000000000000000000000000000000000bb';

const hashOf = (i: number) => `0x${(i + 1).toString(16).padStart(8, '0')}${'5d'.repeat(24)}${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}`;
const txn = (i: number, block = i, wallet = W): Transaction =>
  transactionRow({ wallet_id: wallet, txn_hash: hashOf(i), block, date: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString() });
const range = (from: number, to: number, block?: number, wallet = W) => Array.from({ length: to - from }, (_, k) => txn(from + k, block ?? from + k, wallet));

/** A page written as the worker writes one: in a transaction that takes the write lock first. */
const write = (db: WritableDB, rows: Transaction[], wallet = W) => db.transaction(() => upsertTransactions(db, wallet, 'eth', rows)).immediate();

/** Transactions stored more than once (same hash, wallet, chain). */
const copies = (db: WritableDB) =>
  db.prepare('SELECT count(*) FROM (SELECT 1 FROM transactions GROUP BY txn_hash, wallet, chain HAVING count(*) > 1)').pluck().get() as number;

function setup() {
  const main = createDB();
  const path = main.name;
  addWallet(main, { address: W, chains: ['eth'] });
  addWallet(main, { address: W2, chains: ['eth'] });
  const worker = openWriterConnection(path);
  const filter = (): PairFilter => {
    const f = newHashFilterOf(worker)!;
    return worker.transaction(() => f.forPage(W, 'eth'))()!;
  };
  return { main, path, worker, filter, close: () => worker.close() };
}

describe("the write worker's filter of new hashes", () => {
  it('inserts new hashes without looking them up, and still finds every row again', () => {
    const { worker, filter, close } = setup();
    write(worker, range(0, 3000));
    const f = filter();
    expect(f.counts.asked).toBe(3000);
    // Fresh hashes: at most a handful answered "maybe" (false positives of the Bloom filter).
    expect(f.counts.skipped).toBeGreaterThan(2990);
    // A page read again (corrected by the service): every hash is looked up, every row updated.
    write(worker, range(0, 3000, 7));
    expect(countTransactions(worker)).toBe(3000);
    expect(worker.prepare('SELECT count(*) FROM transactions WHERE block = 7').pluck().get()).toBe(3000);
    expect(f.counts.asked - f.counts.skipped).toBeGreaterThanOrEqual(3000);
    // A hash twice in one page, and a page that overlaps the last: one row each.
    write(worker, [...range(3000, 3100), txn(3050, 9), ...range(2950, 3000)]);
    expect(countTransactions(worker)).toBe(3100);
    expect(copies(worker)).toBe(0);
    close();
  });

  it("sees rows another connection inserted for the pair since the filter's last write, and then looks the pair up as before", () => {
    const { main, worker, close } = setup();
    write(worker, range(0, 500));
    write(main, range(500, 1000)); // the main thread's writer, say a sync started there
    // Two writers of one pair: no filter any more on this connection (no rebuild at every page).
    expect(worker.transaction(() => newHashFilterOf(worker)!.forPage(W, 'eth'))()).toBeNull();
    write(worker, range(0, 1200, 3));
    expect(countTransactions(worker)).toBe(1200);
    expect(copies(worker)).toBe(0);
    // Also once the other connection's keys were merged into the large level.
    write(main, range(1200, 1500));
    mergeKeys(main);
    write(worker, range(1000, 1600, 4));
    expect(countTransactions(worker)).toBe(1600);
    expect(copies(worker)).toBe(0);
    close();
  });

  it("takes a rolled-back write of its own for a change (a stamp restored is never the filter's)", () => {
    const { main, worker, close } = setup();
    write(worker, range(0, 100));
    // The worker's next page is rolled back (a failed batch): its stamp with it.
    expect(() =>
      worker
        .transaction(() => {
          upsertTransactions(worker, W, 'eth', range(100, 200));
          throw new Error('the batch failed');
        })
        .immediate(),
    ).toThrow('the batch failed');
    // Another connection then writes the pair once (had stamps been counters, it would now
    // carry the very number the worker remembers from its rolled-back write).
    write(main, range(200, 300));
    write(worker, range(100, 300, 5));
    expect(countTransactions(worker)).toBe(300);
    expect(copies(worker)).toBe(0);
    close();
  });

  it('after a purge, rows written again by another connection are found', () => {
    const { main, worker, close } = setup();
    write(worker, range(0, 400));
    removeWallet(main, W, { purge: true });
    addWallet(main, { address: W, chains: ['eth'] });
    write(main, range(1000, 1200)); // ids of the purged rows given again
    write(worker, range(1000, 1300, 6));
    expect(countTransactions(worker)).toBe(300);
    expect(copies(worker)).toBe(0);
    close();
  });

  it("keeps one filter per pair: another wallet's rows with the same hashes are other transactions", () => {
    const { worker, close } = setup();
    write(worker, range(0, 300));
    write(worker, range(0, 300, 1, W2), W2);
    write(worker, range(0, 300, 2, W2), W2);
    expect(countTransactions(worker)).toBe(600);
    expect(worker.prepare('SELECT count(*) FROM transactions WHERE wallet = ? AND block = 2').pluck().get(W2)).toBe(300);
    expect(copies(worker)).toBe(0);
    close();
  });

  it('is built from the rows already cached when the worker starts mid-history', () => {
    const { main, worker, filter, close } = setup();
    write(main, range(0, 2000));
    mergeKeys(main);
    write(main, range(2000, 2500));
    write(worker, range(1500, 3500, 8));
    expect(countTransactions(worker)).toBe(3500);
    expect(copies(worker)).toBe(0);
    expect(filter().counts.skipped).toBeGreaterThan(990); // the 1,000 new ones
    close();
  });

  it('never answers "not cached" for a hash that is not printable ASCII', () => {
    const { main, worker, filter, close } = setup();
    const odd = ['Ünï' + 'a'.repeat(30), '💵'.repeat(10), 'a\u0000b', '\ud800' + 'f'.repeat(20), ' 0xab'];
    const rows = odd.map((h, i) => ({ ...txn(i), txn_hash: h }));
    write(worker, rows);
    expect(filter().counts.skipped).toBe(0);
    write(
      main,
      rows.map((t) => ({ ...t, block: 5 })),
    );
    write(
      worker,
      rows.map((t) => ({ ...t, block: 6 })),
    );
    expect(countTransactions(worker)).toBe(odd.length);
    expect(copies(worker)).toBe(0);
    close();
  });

  it('leaves a wallet with too many rows (any chain) to the lookup, as before', () => {
    const { main, worker, close } = setup();
    write(
      main,
      range(0, 120).map((t) => ({ ...t, chain_id: 'arb' })),
    );
    main.transaction(() => upsertTransactions(main, W, 'arb', range(0, 120)))();
    // A filter that reads at most 100 of the wallet's rows to build: it has 120, on another chain.
    enableNewHashFilter(worker, { buildLimit: 100 });
    expect(worker.transaction(() => newHashFilterOf(worker)!.forPage(W, 'eth'))()).toBeNull();
    write(worker, range(0, 200, 2));
    expect(worker.prepare("SELECT count(*) FROM transactions WHERE chain = 'eth'").pluck().get()).toBe(200);
    expect(copies(worker)).toBe(0);
    expect(BUILD_LIMIT).toBeGreaterThan(100_000);
    close();
  });

  it("finds each pair's filter by the exact pair: wallets and chains whose texts run together are other pairs", () => {
    const { main, path, close } = setup();
    close();
    const X = ['a\u0000b', 'c'] as const;
    const Y = ['a', 'b\u0000c'] as const;
    const row = (hash: string, block: number, wallet: string) => ({ ...txn(block, block, wallet), txn_hash: hash });
    const hx = `0x${'11'.repeat(32)}`;
    const hy = `0x${'22'.repeat(32)}`;
    upsertTransactions(main, X[0], X[1], [row(hx, 1, X[0])]);
    upsertTransactions(main, Y[0], Y[1], [row(hy, 1, Y[0])]);
    // As a cache cached before migration 11 is: rows, no stamps.
    main.exec('DELETE FROM transaction_write_stamps');
    const worker = openWriterConnection(path);
    upsertTransactions(worker, X[0], X[1], [row(hx, 2, X[0])]);
    upsertTransactions(worker, Y[0], Y[1], [row(hy, 2, Y[0])]);
    expect(countTransactions(main)).toBe(2);
    expect(copies(main)).toBe(0);
    worker.close();
  });

  it(`keeps at most ${MAX_PAIRS} filters a connection; a pair whose filter was dropped is built again, exactly`, () => {
    const { worker, close } = setup();
    const wallets = Array.from({ length: MAX_PAIRS + 2 }, (_, k) => `0x${String(k + 1).padStart(40, '0')}`);
    for (const w of wallets) write(worker, range(0, 200, 1, w), w);
    for (const w of wallets) write(worker, range(100, 300, 2, w), w);
    expect(countTransactions(worker)).toBe(300 * wallets.length);
    expect(copies(worker)).toBe(0);
    close();
  });
});
