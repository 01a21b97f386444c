import BetterSqlite3 from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { transaction as transactionSchema } from '../src/shared/service/schemas.ts';
import { openDatabase } from '../src/main/core/store/db.ts';
import { transactionRecord, upsertTransactions } from '../src/main/core/store/transactions.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { historyOf, transactionAt } from '../src/sim/transactions.ts';
import { DATA_DIR, fmt, report } from './lib.ts';
import type { Transaction } from '../src/shared/service/schemas.ts';

/**
 * Ingest: rows/s through the store's write path (upsert with token index, one transaction
 * per 1,000-row page) versus a bare better-sqlite3 INSERT of the same rows into the same
 * schema, in the same run. Target: ≥ 50% of bare.
 */
export async function ingestBench(rowsCount = 100_000): Promise<void> {
  const wallet = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
  const h = historyOf({ seed: 1, txnsPerWallet: rowsCount, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 }, wallet, CHAINS[0]!);
  const rows: Transaction[] = [];
  for (let i = 0; i < rowsCount; i++) rows.push(transactionSchema.parse(transactionAt(h, i)));
  const pages: Transaction[][] = [];
  for (let i = 0; i < rows.length; i += 1000) pages.push(rows.slice(i, i + 1000));

  const fresh = (name: string) => {
    const path = join(DATA_DIR, name);
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    return openDatabase(path);
  };

  // Bare: the same records, a plain prepared INSERT, same schema and pragmas.
  const bareDb = fresh('ingest-bare.sqlite');
  const records = rows.map((t) => transactionRecord(wallet, 'eth', t));
  const insert = bareDb.prepare(`INSERT INTO transactions (wallet, chain, txn_hash, time, block, from_addr, to_addr, from_type, to_type, txn_fee, gas_fee,
    action_type, method_hex, protocol_id, status, details, extra) VALUES (@wallet, @chain, @txn_hash, @time, @block, @from_addr, @to_addr, @from_type, @to_type,
    @txn_fee, @gas_fee, @action_type, @method_hex, @protocol_id, @status, @details, @extra)`);
  let t = performance.now();
  for (let i = 0; i < records.length; i += 1000) {
    const batch = records.slice(i, i + 1000);
    bareDb.transaction(() => {
      for (const r of batch) insert.run(r);
    })();
  }
  const bareMs = performance.now() - t;
  bareDb.close();

  const storeDb = fresh('ingest-store.sqlite');
  t = performance.now();
  for (const page of pages) storeDb.transaction(() => upsertTransactions(storeDb, wallet, 'eth', page)).immediate();
  const storeMs = performance.now() - t;
  storeDb.close();
  void BetterSqlite3;

  const bareRate = rowsCount / (bareMs / 1000);
  const storeRate = rowsCount / (storeMs / 1000);
  report(`Ingest ${rowsCount.toLocaleString('en-US')} transactions (1,000-row transactions)`, [
    ['bare better-sqlite3 INSERT', `${fmt(bareRate, 0)} rows/s`],
    ['store upsertTransactions', `${fmt(storeRate, 0)} rows/s (includes token index rows)`],
    ['store / bare', `${fmt((100 * storeRate) / bareRate, 1)} % (target ≥ 50 %)`],
  ]);
}
