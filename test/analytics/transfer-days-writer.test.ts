import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { reconcile } from '../../src/main/core/analytics/store/reconcile.ts';
import { builtTo, flowsByDay, flowsDirect, refreshTransferDays, sumsCurrent, undatedTransfers } from '../../src/main/core/transactions/store/transfer-days.ts';
import { refreshTransferDaysFor } from '../../src/main/core/transactions/store/transfer-days-refresh.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { putTransactions } from '../support/analytics.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { waitForJobs } from '../support/jobs.ts';
import { cacheOf, createDB, tempDir } from '../support/store.ts';

/**
 * The daily transfer sums are written by an explicit writer only (refreshTransferDays, and the
 * core before a reconciliation or a report that reconciles); readers take a ReadableDB and read
 * the sums of a pair only while they count every one of its transactions.
 */
const W1 = '0x' + '1'.repeat(40);
const W2 = '0x' + '2'.repeat(40);
const T0 = Date.UTC(2025, 0, 2);
const stored = (db: WritableDB) => [
  db.prepare('SELECT * FROM transfer_days ORDER BY 1, 2, 3, 4').all(),
  db.prepare('SELECT * FROM transfer_days_state ORDER BY 1, 2').all(),
];
const inflow = (db: WritableDB, wallet: string) => flowsByDay(db, wallet, ['eth'], 0, 100_000).reduce((n, f) => n + f.inflow, 0);
const put = (db: WritableDB, wallet: string, hash: string, qty: number, time = T0) =>
  putTransactions(db, wallet, 'eth', [{ hash, time, status: 1, details: [{ token_cid: '0xaa', type: 'in', qty }] }]);

describe('the daily transfer sums: an explicit writer, readers that never write', () => {
  it('are read only where current: other pairs’ rows since leave a pair current, its own rows or a state above the largest id do not', () => {
    const db = createDB();
    addWallet(db, { address: W1, chains: ['eth'] });
    addWallet(db, { address: W2, chains: ['eth'] });
    put(db, W1, '0x01', 1);
    expect(sumsCurrent(db, W1, 'eth')).toBe(false); // never built
    expect(refreshTransferDays(db, [{ wallet: W1, chain: 'eth' }])).toBe(1);
    expect(sumsCurrent(db, W1, 'eth')).toBe(true);
    // A stored figure the reader can be caught reading: it reads the sums of a current pair.
    db.prepare('UPDATE transfer_days SET inflow = 100').run();
    expect(inflow(db, W1)).toBe(100);
    // Another wallet's rows since: still current (none of its own lies above its state).
    put(db, W2, '0x02', 7);
    expect(builtTo(db, W1, 'eth')).toBe(1);
    expect(sumsCurrent(db, W1, 'eth')).toBe(true);
    expect(inflow(db, W1)).toBe(100);
    // A row of its own since: not current, so summed from the transactions (not 100 + 5).
    put(db, W1, '0x03', 5, 0);
    expect(sumsCurrent(db, W1, 'eth')).toBe(false);
    const before = stored(db);
    expect(inflow(db, W1)).toBe(6);
    expect(flowsByDay(db, W1, ['eth'], 0, 100_000)).toEqual(flowsDirect(db, W1, ['eth'], 0, 100_000));
    expect(undatedTransfers(db, W1, 'eth')).toBe(1);
    expect(stored(db)).toEqual(before); // reading wrote nothing
    // A state above the largest id (rows deleted; their ids will be given again): not current.
    db.prepare('INSERT INTO transfer_days_state VALUES (?, ?, 99)').run(W2, 'eth');
    expect(sumsCurrent(db, W2, 'eth')).toBe(false);
    expect(inflow(db, W2)).toBe(7);
  });

  it('are kept by the core before a reconciliation and before a report that reconciles, and by nothing that only reads', async () => {
    const core = await createCore({
      dataDir: tempDir(),
      shell: 'web',
      baseUrl: null,
      env: {},
      scheduleEveryMs: 0,
      demo: demoStarter({ txnsPerWallet: 200, now: () => SIM_NOW }),
    });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      const db = await cacheOf(core);
      const maxId = () => db.prepare('SELECT max(id) FROM transactions').pluck().get() as number;
      // A cache whose sums were never made (synced before migration 5, or dropped by a correction).
      const drop = () => db.exec('DELETE FROM transfer_days; DELETE FROM transfer_days_state');
      const period = { wallet: WALLET, from: '2026-01-31', to: '2026-10-31' };

      drop();
      // Bad input is refused before anything is written.
      expect(await core.dispatch('reconcile.get', { ...period, to: '2025-01-01' })).toMatchObject({ ok: false, error: { field: 'to' } });
      expect(builtTo(db, WALLET, 'eth')).toBeUndefined();
      const reconciled = await core.request('reconcile.get', period);
      expect(builtTo(db, WALLET, 'eth')).toBe(maxId());

      drop();
      await core.request('timeline.page', { wallet: WALLET, limit: 10 });
      const plain = await core.request('export.start', { format: 'csv', report: 'transactions', wallet: WALLET, from: period.from, to: period.to });
      await waitForJobs(core, [plain!]);
      expect(builtTo(db, WALLET, 'eth')).toBeUndefined();
      const sheet = await core.request('export.start', { format: 'csv', report: 'reconciliation', wallet: WALLET, from: period.from, to: period.to });
      await waitForJobs(core, [sheet!]);
      expect(builtTo(db, WALLET, 'eth')).toBe(maxId());
      // Read-only (no sums kept, none made), the same figures straight from the transactions.
      drop();
      db.pragma('query_only = ON');
      expect(refreshTransferDaysFor(db, [WALLET])).toBe(0); // a connection that cannot write keeps nothing
      expect(reconcile(db, { wallets: [WALLET], from: period.from, to: period.to })).toEqual(reconciled);
      db.pragma('query_only = OFF');
      expect(builtTo(db, WALLET, 'eth')).toBeUndefined();
    } finally {
      await core.close();
    }
  });
});
