import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { WritableDB } from '../src/main/core/store/db.ts';
import { openDatabase } from '../src/main/core/store/db.ts';
import { transactionRecord } from '../src/main/core/transactions/store/transactions.ts';
import { type Transaction, transactionHistory } from '../src/shared/service/schemas.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { historyOf, transactionAt } from '../src/sim/transactions.ts';
import { DATA_DIR, fmt, report } from './lib.ts';
import { storeWriter } from './store-writer.ts';
import { openWriterConnection } from '../src/main/core/transactions/store/writer-connection.ts';
import { addWallet } from '../src/main/core/store/wallets.ts';
import { builtTo } from '../src/main/core/transactions/store/transfer-days.ts';

/** Pages as the service sends them: 1,000 rows, newest first, parsed by the client's schema. */
const PAGE = 1000;
const WALLET = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';

const sum = (xs: ReadonlyArray<Record<'bare' | 'store', number>>, k: 'bare' | 'store') => xs.reduce((a, x) => a + x[k], 0);

export function freshDatabase(name: string): WritableDB {
  const path = join(DATA_DIR, name);
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  return openDatabase(path);
}

/**
 * The physical limit: the same records, a plain prepared INSERT into a table with the same
 * columns and no index or constraint at all, in the same database settings and on the same
 * disk, in transactions as large as the store's batches.
 */
export function bareInserter(db: WritableDB): (records: ReadonlyArray<ReturnType<typeof transactionRecord>>) => void {
  db.exec(`CREATE TABLE bare (id INTEGER PRIMARY KEY, wallet TEXT NOT NULL, chain TEXT NOT NULL, txn_hash TEXT NOT NULL, time INTEGER NOT NULL, block INTEGER,
    from_addr TEXT, to_addr TEXT, from_type TEXT, to_type TEXT, txn_fee REAL, gas_fee REAL, action_type TEXT, method_hex TEXT, protocol_id TEXT,
    status INTEGER, details TEXT NOT NULL, extra TEXT, tokens TEXT) STRICT`);
  const insert = db.prepare(`INSERT INTO bare (wallet, chain, txn_hash, time, block, from_addr, to_addr, from_type, to_type, txn_fee, gas_fee,
    action_type, method_hex, protocol_id, status, details, extra, tokens) VALUES (@wallet, @chain, @txn_hash, @time, @block, @from_addr, @to_addr, @from_type, @to_type,
    @txn_fee, @gas_fee, @action_type, @method_hex, @protocol_id, @status, @details, @extra, @tokens)`);
  return db.transaction((records: ReadonlyArray<ReturnType<typeof transactionRecord>>) => {
    for (const r of records) insert.run(r);
  });
}

/**
 * Ingest: rows/s through the store's write path (what sync calls: records, upsert, token
 * index, batching) versus a bare index-free INSERT of the same rows, slice by slice up to
 * `totalRows`, interleaved so both see the same machine load. Target: store ≥ 35 % of bare,
 * sustained: over the last three slices together, with the cache at its largest (one slice
 * alone is ~2–3 s a side, and on a shared machine one window in ten reads a third lower than
 * its neighbours, for the store and for the tree before it alike: bench/RESULTS.md, rounds 6–7).
 */
export async function ingestBench(totalRows = 1_000_000, slice = 100_000): Promise<void> {
  const h = historyOf(
    { seed: 1, txnsPerWallet: totalRows, historyStart: Date.UTC(2018, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 },
    WALLET,
    CHAINS[0]!,
  );
  const bareDb = freshDatabase('ingest-bare.sqlite');
  const bare = bareInserter(bareDb);
  // Made and the wallet watched (as a synced wallet is) on a connection of the app's, then
  // written on one opened as the write worker opens its own.
  const made = freshDatabase('ingest-store.sqlite');
  addWallet(made, { address: WALLET, chains: ['eth'] });
  made.close();
  const storeDb = openWriterConnection(made.name);
  const store = storeWriter(storeDb, WALLET, 'eth');
  let parseMs = 0;
  let bareMs = 0;
  let storeMs = 0;
  const rows: Array<[string, string]> = [];
  let worst = Infinity;
  let last = 0;
  // Each slice's times, for the ratio over the last three together (one slice is ~2 s a side,
  // and on a shared machine one window in ten reads a third lower than its neighbours).
  const slices: Array<{ bare: number; store: number }> = [];
  for (let at = 0; at < totalRows; at += slice) {
    // Newest first, as the service pages them. Generating is the simulator's work (untimed);
    // parsing the JSON of a page with the client's schema is ours, timed apart.
    const pages: Transaction[][] = [];
    for (let p = at; p < at + slice; p += PAGE) {
      const json: string[] = [];
      for (let i = p; i < p + PAGE; i++) json.push(JSON.stringify(transactionAt(h, totalRows - 1 - i)));
      const body = `[${json.join(',')}]`;
      const t = performance.now();
      pages.push(
        transactionHistory.parse({ transaction_history: JSON.parse(body), start_block: null, end_block: null, completion_ratio: 1 }).transaction_history,
      );
      parseMs += performance.now() - t;
    }
    const records = pages.flat().map((t) => transactionRecord(WALLET, 'eth', t));
    let t = performance.now();
    for (let i = 0; i < records.length; i += store.batchRows) bare(records.slice(i, i + store.batchRows));
    const bareSlice = performance.now() - t;
    t = performance.now();
    for (const page of pages) store.page(page);
    store.flush();
    const storeSlice = performance.now() - t;
    bareMs += bareSlice;
    storeMs += storeSlice;
    slices.push({ bare: bareSlice, store: storeSlice });
    const ratio = bareSlice / storeSlice;
    worst = Math.min(worst, ratio);
    last = ratio;
    rows.push([
      `rows ${fmt(at, 0)}–${fmt(at + slice, 0)}`,
      `store ${fmt(slice / (storeSlice / 1000), 0)} rows/s  beside bare ${fmt(slice / (bareSlice / 1000), 0)} rows/s  = ${fmt(100 * ratio, 1)} %`,
    ]);
  }
  const tail = slices.slice(-3);
  const bareRate = totalRows / (bareMs / 1000);
  const storeRate = totalRows / (storeMs / 1000);
  rows.push(
    ['bare index-free INSERT, overall', `${fmt(bareRate, 0)} rows/s (${store.batchRows.toLocaleString('en-US')}-row transactions)`],
    ['store write path, overall', `${fmt(storeRate, 0)} rows/s (${store.describe})`],
    ['store / bare, overall', `${fmt((100 * storeRate) / bareRate, 1)} %`],
    [
      `store / bare, last ${tail.length} slices together (sustained)`,
      `${fmt((100 * sum(tail, 'bare')) / sum(tail, 'store'), 1)} % (the last ${fmt(tail.length * slice, 0)} rows, target ≥ 35 %)`,
    ],
    ['store / bare, last slice alone', `${fmt(100 * last, 1)} %; worst slice ${fmt(100 * worst, 1)} % (one slice is a few seconds a side: noisy)`],
    [
      'client JSON parse + validation per row',
      `${fmt((1000 * parseMs) / totalRows, 2)} µs (${fmt(totalRows / (parseMs / 1000), 0)} rows/s, not in the store figure)`,
    ],
  );
  // The sums were kept by the writer (its cost is in the figure), not left to a refresh.
  const summedTo = builtTo(storeDb, WALLET, 'eth');
  rows.push(['transfer sums kept by the writer up to', `row ${fmt(Number(summedTo ?? 0), 0)} of ${fmt(totalRows, 0)}`]);
  report(`Ingest ${totalRows.toLocaleString('en-US')} transactions into one cache, side by side with a bare INSERT`, rows);
  bareDb.close();
  storeDb.close();
}
