/**
 * What a closed period costs to check (docs/closes.md): the hash of the data behind it is
 * recomputed after every sync job, for every close in force. 200,000 cached transactions (2
 * wallets × 2 chains × 50,000 over a year): the hash of one month's data and of the whole
 * year's, against the least such a check must do (read the period's rows); and one check of
 * twelve monthly closes, what a sync job adds.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Transaction, transaction as transactionSchema } from '../src/shared/service/schemas.ts';
import type { MonthlyPack } from '../src/shared/pack.ts';
import { type WritableDB, openDatabase } from '../src/main/core/store/db.ts';
import { upsertTransactions } from '../src/main/core/transactions/store/transactions.ts';
import { addWallet, listWallets } from '../src/main/core/store/wallets.ts';
import { insertClose } from '../src/main/core/closes/store/closes.ts';
import { basisSnapshots } from '../src/main/core/positions/store/basis.ts';
import { periodHash } from '../src/main/core/closes/hash.ts';
import { checkCloses } from '../src/main/core/closes/closes.ts';
import { monthPeriod } from '../src/main/core/pack/pack.ts';
import { flowWindow } from '../src/main/core/analytics/store/reconcile.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { type HistoryConfig, historyOf, transactionAt } from '../src/sim/transactions.ts';
import { DATA_DIR, fmt, percentile, report, timeRuns } from './lib.ts';

const WALLETS = 2;
const PER_CHAIN = 50_000;
const HISTORY: HistoryConfig = { seed: 5, txnsPerWallet: PER_CHAIN, historyStart: Date.UTC(2025, 0, 1) / 1000, historyEnd: Date.UTC(2026, 0, 1) / 1000 };
const MONTHS = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`);

function cache(): WritableDB {
  const path = join(DATA_DIR, 'closes-200k.sqlite');
  const ready = existsSync(path);
  const db = openDatabase(path);
  if (ready && listWallets(db).length === WALLETS) return db;
  console.log('  building the 200,000-transaction cache (once)…');
  for (let w = 0; w < WALLETS; w++) {
    const wallet = '0x' + (w + 1).toString(16).padStart(40, 'c');
    addWallet(db, { address: wallet, chains: ['eth', 'arb'] });
    for (const chain of [CHAINS[0]!, CHAINS[1]!]) {
      const h = historyOf(HISTORY, wallet, chain);
      for (let i = 0; i < PER_CHAIN; i += 1000) {
        const page: Transaction[] = [];
        for (let j = i; j < i + 1000; j++) page.push(transactionSchema.parse(transactionAt(h, j)));
        db.transaction(() => upsertTransactions(db, wallet, chain.id, page)).immediate();
      }
    }
  }
  db.exec('ANALYZE');
  return db;
}

export function closesBench(): void {
  const db = cache();
  db.exec('DELETE FROM period_closes');
  const wallets = listWallets(db).map((w) => w.address);
  const rowsIn = (from: string, to: string) => {
    const { start, end } = flowWindow(from, to);
    return (db.prepare('SELECT count(*) AS n FROM transactions WHERE time >= ? AND time < ?').get(start, end) as { n: number }).n;
  };
  const read = db.prepare('SELECT txn_hash, time, block, status, txn_fee, gas_fee, details FROM transactions WHERE wallet = ? AND time >= ? AND time < ?');
  const measure = (from: string, to: string) => {
    const { start, end } = flowWindow(from, to);
    const baseline = timeRuns(
      5,
      () => {
        let n = 0;
        for (const w of wallets) for (const _ of read.iterate(w, start, end)) n++;
        if (!n) throw new Error('nothing read');
      },
      1,
    );
    const hashed = timeRuns(5, () => void periodHash(db, { wallets, from, to, group: null }), 1);
    return { rows: rowsIn(from, to), baseline: percentile(baseline, 50), hash: percentile(hashed, 50) };
  };
  const month = measure('2025-05-31', '2025-06-30');
  const year = measure('2024-12-31', '2025-12-31');

  // Twelve monthly closes in force, then one check of all of them (nothing changed): what each sync job adds.
  for (const m of MONTHS) {
    const { from, to } = monthPeriod(m);
    const { hash, parts } = periodHash(db, { wallets, from, to, group: null });
    const pack = { from, to, opening: null, closing: null } as unknown as MonthlyPack;
    insertClose(db, {
      scope: { kind: 'all', wallet: null, group: null, name: 'All wallets', members: wallets },
      from,
      to,
      pack,
      hash,
      parts,
      basis: basisSnapshots(db, wallets, from, to),
    });
  }
  const check = timeRuns(5, () => void checkCloses(db), 1);
  db.exec('DELETE FROM period_closes');
  db.close();
  report('Closed periods: the hash of the data behind a close (200,000 transactions, 2 wallets × 2 chains over 2025)', [
    ['one month (rows in the window)', `${fmt(month.rows, 0)} rows: hash ${fmt(month.hash)} ms (median of 5) vs reading them ${fmt(month.baseline)} ms`],
    ['one year', `${fmt(year.rows, 0)} rows: hash ${fmt(year.hash)} ms vs reading them ${fmt(year.baseline)} ms`],
    ['check of 12 monthly closes in force (after every sync job)', `${fmt(percentile(check, 50))} ms (median of 5)`],
  ]);
}
