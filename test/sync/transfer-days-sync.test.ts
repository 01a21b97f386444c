import { describe, expect, it } from 'vitest';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { flowsByDay, flowsDirect, refreshTransferDays, type TokenFlows } from '../../src/main/core/transactions/store/transfer-days.ts';
import { countTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import { syncTransactions } from '../../src/main/core/transactions/sync.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator, WALLET, WALLET_2 } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * Syncs keep the daily transfer sums as they write (transfer-days-keeper.ts): after a sync
 * through the write worker and one on this thread, running at once on two connections, the
 * sums are current (the refresh the engine runs after a sync finds nothing to read) and equal
 * the sums rebuilt from the stored rows and SQLite's own (flowsDirect); also after a purge and
 * a sync again.
 */
const TXNS = 3000;
const ctx = useSimulator({ txnsPerWallet: TXNS, latencyMs: 2 });
const PAIRS = [WALLET, WALLET_2].map((wallet) => ({ wallet, chain: 'eth' }));

const norm = (rows: readonly TokenFlows[]) =>
  rows
    .map((r) => ({ ...r, inflow: Number(r.inflow.toPrecision(9)), outflow: Number(r.outflow.toPrecision(9)) }))
    .sort((a, b) => a.chain.localeCompare(b.chain) || a.cid.localeCompare(b.cid));
const table = (db: WritableDB) =>
  (db.prepare('SELECT * FROM transfer_days ORDER BY wallet, chain, day, token_cid').all() as Array<{ inflow: number; outflow: number }>).map((r) => ({
    ...r,
    inflow: Number(r.inflow.toPrecision(9)),
    outflow: Number(r.outflow.toPrecision(9)),
  }));

function sync(db: WritableDB, wallet: string, workerFromRows: number, onRows?: (n: number) => void) {
  return syncTransactions({
    db,
    client: engineFor(ctx.sim, db).client,
    wallet,
    chain: 'eth',
    now: Math.floor(SIM_NOW / 1000),
    historyStart: 0,
    pageSize: 100,
    pagesInFlight: 4,
    // Short in time: two writers in one process wait for each other's commits (the in-thread
    // one blocks this thread while it waits, so it must not wait for a commit by time here).
    batch: { maxRows: 700, maxMs: 100 },
    workerFromRows,
    ...(onRows && { onPage: (p: { rowsRead: number }) => onRows(p.rowsRead) }),
  });
}

/** The refresh reads nothing; the sums equal a rebuild from zero and flowsDirect. */
function expectKept(db: WritableDB, current: readonly string[]): void {
  for (const wallet of current) expect(refreshTransferDays(db, [{ wallet, chain: 'eth' }])).toBe(0);
  refreshTransferDays(db, PAIRS);
  const kept = table(db);
  expect(kept.length).toBeGreaterThan(0);
  db.exec('DELETE FROM transfer_days_state');
  refreshTransferDays(db, PAIRS);
  expect(kept).toEqual(table(db));
  for (const { wallet } of PAIRS) {
    const flows = norm(flowsByDay(db, wallet, ['eth'], 0, 100_000));
    expect(flows).toEqual(norm(flowsDirect(db, wallet, ['eth'], 0, 100_000)));
  }
}

describe('a sync keeps the daily transfer sums as it writes', () => {
  it('through the worker and on this thread at once, then after a purge and a sync again on another connection', async () => {
    const db = createDB();
    const path = db.name;
    addWallet(db, { address: WALLET, chains: ['eth'] });
    addWallet(db, { address: WALLET_2, chains: ['eth'] });
    const second = openDatabase(path);
    try {
      // WALLET's pages go to the worker after 1 row (at its first commit), WALLET_2's stay on
      // this thread (the main connection, as in the app), started once WALLET's are on the
      // worker. (Two connections written from this one thread could wait on each other.)
      let onWorker!: () => void;
      const handedOver = new Promise<void>((resolve) => (onWorker = resolve));
      const first = sync(db, WALLET, 1, (n) => n >= 1400 && onWorker());
      await handedOver;
      await Promise.all([first, sync(db, WALLET_2, Infinity)]);
      expect(countTransactions(db)).toBe(2 * TXNS);
      // Ids of the two wallets interleave (each wrote while the other's batches committed).
      const runs = db
        .prepare('SELECT count(DISTINCT wallet || g) FROM (SELECT wallet, id - row_number() OVER (PARTITION BY wallet ORDER BY id) AS g FROM transactions)')
        .pluck()
        .get() as number;
      expect(runs).toBeGreaterThan(2);
      expectKept(db, [WALLET, WALLET_2]);

      removeWallet(db, WALLET_2, { purge: true });
      addWallet(db, { address: WALLET_2, chains: ['eth'] });
      await sync(second, WALLET_2, 1);
      expect(countTransactions(db)).toBe(2 * TXNS);
      expectKept(db, [WALLET_2]);
    } finally {
      second.close();
    }
  }, 60_000);
});
