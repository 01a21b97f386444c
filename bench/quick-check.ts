/**
 * The cost of the start-up integrity check (store/db.ts) on the 1M-row cache the timeline
 * bench builds: PRAGMA quick_check against a bare open, each run on a cold connection.
 * Run: npx tsx bench/quick-check.ts (builds bench/.data/timeline-1m.sqlite once if missing).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { type Transaction, transaction as transactionSchema } from '../src/shared/service/schemas.ts';
import { openDatabase } from '../src/main/core/store/db.ts';
import { upsertTransactions } from '../src/main/core/transactions/store/transactions.ts';
import { addWallet, listWallets } from '../src/main/core/store/wallets.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { historyOf, transactionAt } from '../src/sim/transactions.ts';
import { DATA_DIR } from './lib.ts';

const path = join(DATA_DIR, 'timeline-1m.sqlite');
const db = openDatabase(path);
if (listWallets(db).length !== 10) {
  console.log('building the 1,000,000-row cache…');
  for (let w = 0; w < 10; w++) {
    const wallet = '0x' + (w + 1).toString(16).padStart(40, 'a');
    addWallet(db, { address: wallet, chains: ['eth', 'arb'] });
    for (const chain of [CHAINS[0]!, CHAINS[1]!]) {
      const h = historyOf(
        { seed: 3, txnsPerWallet: 50_000, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 },
        wallet,
        chain,
      );
      for (let i = 0; i < 50_000; i += 1000) {
        const page: Transaction[] = [];
        for (let j = i; j < i + 1000; j++) page.push(transactionSchema.parse(transactionAt(h, j)));
        db.transaction(() => upsertTransactions(db, wallet, chain.id, page)).immediate();
      }
    }
  }
  db.exec('ANALYZE');
}
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
const mib = statSync(path).size / 2 ** 20;
const time = (sql: string) => {
  const c = new BetterSqlite3(path, { readonly: true });
  const t0 = performance.now();
  const r = c.pragma(sql);
  const ms = performance.now() - t0;
  c.close();
  return { ms, r: JSON.stringify(r).slice(0, 60) };
};
for (const sql of ['quick_check', 'quick_check', 'quick_check', 'integrity_check']) {
  const { ms, r } = time(sql);
  console.log(`${sql}: ${ms.toFixed(0)} ms on ${mib.toFixed(0)} MiB (${r})`);
}
