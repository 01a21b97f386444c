import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Transaction, transaction as transactionSchema, underlyingSnapshot } from '../src/shared/service/schemas.ts';
import { successMessage } from '../src/shared/service/endpoints.ts';
import { type WritableDB, openDatabase } from '../src/main/core/store/db.ts';
import { reconcile } from '../src/main/core/store/queries/reconcile.ts';
import { insertSnapshot, latestSnapshot } from '../src/main/core/store/snapshots.ts';
import { saveRange, upsertTransactions } from '../src/main/core/store/transactions.ts';
import { addWallet, listWallets } from '../src/main/core/store/wallets.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { positionsOn } from '../src/sim/positions.ts';
import { type HistoryConfig, historyOf, transactionAt } from '../src/sim/transactions.ts';
import { byUnderlyingView } from '../src/sim/views.ts';
import { DATA_DIR, fmt, percentile, report, timeRuns } from './lib.ts';

const WALLETS = 10;
const PER_WALLET = 100_000;
const FROM = '2025-01-31';
const TO = '2026-01-31';
const HISTORY: HistoryConfig = { seed: 3, txnsPerWallet: PER_WALLET / 2, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 };

/** 1,000,000 cached transactions across 10 wallets × 2 chains, synced ranges, and both dates' positions (built once). */
function cache(): WritableDB {
  const path = join(DATA_DIR, 'reconcile-1m.sqlite');
  const ready = existsSync(path);
  const db = openDatabase(path);
  if (ready && listWallets(db).length === WALLETS) return db;
  console.log('  building the 1,000,000-transaction cache (once)…');
  for (let w = 0; w < WALLETS; w++) {
    const wallet = '0x' + (w + 1).toString(16).padStart(40, 'a');
    addWallet(db, { address: wallet, chains: ['eth', 'arb'] });
    for (const chain of [CHAINS[0]!, CHAINS[1]!]) {
      const h = historyOf(HISTORY, wallet, chain);
      for (let i = 0; i < PER_WALLET / 2; i += 1000) {
        const page: Transaction[] = [];
        for (let j = i; j < i + 1000; j++) page.push(transactionSchema.parse(transactionAt(h, j)));
        db.transaction(() => upsertTransactions(db, wallet, chain.id, page)).immediate();
      }
      saveRange(db, {
        wallet,
        chain: chain.id,
        startTime: HISTORY.historyStart,
        endTime: HISTORY.historyEnd + 30 * 86_400,
        state: 'complete',
        nextPage: null,
        pageSize: 1000,
        startBlock: null,
        endBlock: null,
        completionRatio: 1,
        rowsRead: PER_WALLET / 2,
        updatedAt: new Date().toISOString(),
        reason: null,
      });
      for (const date of [FROM, TO]) {
        const day = Date.parse(`${date}T00:00:00Z`) / 86_400_000;
        const data = [
          underlyingSnapshot.parse({
            wallet_id: wallet,
            date: `${date}T00:00:00Z`,
            positions: byUnderlyingView(chain.id, positionsOn(HISTORY, wallet, chain, day)),
          }),
        ];
        const body = JSON.stringify({ status: 'OK', data, message: successMessage('positionsByUnderlying', 'bench') });
        insertSnapshot(db, {
          endpoint: 'positionsByUnderlying',
          wallet,
          chain: chain.id,
          requestedDate: date,
          response: {
            endpoint: 'positionsByUnderlying',
            data,
            message: '',
            requestId: 'bench',
            total: null,
            body,
            url: '',
            fetchedAt: new Date().toISOString(),
            attempts: 1,
          },
        });
      }
    }
  }
  db.exec('ANALYZE');
  return db;
}

export async function reconcileBench(): Promise<void> {
  const db = cache();
  const total = (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
  const wallets = listWallets(db).map((w) => w.address);
  const start = Date.parse(`${FROM}T00:00:00Z`) + 86_400_000;
  const end = Date.parse(`${TO}T00:00:00Z`) + 86_400_000;
  const inPeriod = (db.prepare('SELECT count(*) AS n FROM transactions WHERE time >= ? AND time < ?').get(start, end) as { n: number }).n;
  // Baseline: the least any reconciliation must do: read the period's transfers (each row's
  // details text) for the 10 wallets and read both dates' snapshots, with no arithmetic.
  const read = db.prepare('SELECT details FROM transactions WHERE wallet = ? AND time >= ? AND time < ?').pluck();
  const baseline = timeRuns(
    10,
    () => {
      let bytes = 0;
      for (const w of wallets) for (const d of read.iterate(w, start, end) as Iterable<string>) bytes += d.length;
      for (const w of wallets) for (const c of ['eth', 'arb']) for (const date of [FROM, TO]) latestSnapshot(db, 'positionsByUnderlying', w, c, date);
      if (bytes === 0) throw new Error('nothing read');
    },
    2,
  );
  // Cold: the daily transfer sums built from scratch (once per cache; later syncs add to them).
  db.exec('DELETE FROM transfer_days_state; DELETE FROM transfer_days;');
  const coldStart = performance.now();
  reconcile(db, { wallets, from: FROM, to: TO });
  const cold = performance.now() - coldStart;
  let rows = 0;
  let complete = false;
  const runs = timeRuns(
    10,
    () => {
      const r = reconcile(db, { wallets, from: FROM, to: TO });
      rows = r.rows.length;
      complete = r.complete;
    },
    2,
  );
  report(
    `Reconciliation of one year (${FROM} → ${TO}) for ${wallets.length} wallets × 2 chains over ${total.toLocaleString('en-US')} cached transactions (${inPeriod.toLocaleString('en-US')} in the period)`,
    [
      ["baseline: read the period's transfers and snapshots", `p50 ${fmt(percentile(baseline, 50), 1)} ms  max ${fmt(baseline.at(-1)!, 1)} ms`],
      [
        'reconcile (all rows, completeness checks)',
        `p50 ${fmt(percentile(runs, 50), 1)} ms  max ${fmt(runs.at(-1)!, 1)} ms  (${rows} rows, ${complete ? 'complete' : 'INCOMPLETE'}; target < 1000 ms)`,
      ],
      ['first reconcile on this cache (builds the daily sums of all 1M transactions)', `${fmt(cold, 0)} ms (once)`],
      ['ratio to baseline (p50)', `${fmt(percentile(runs, 50) / percentile(baseline, 50), 2)} ×`],
    ],
  );
  db.close();
}
