import { createServiceClient } from '../src/main/core/service/client.ts';
import type { WritableDB } from '../src/main/core/store/db.ts';
import { updateSettings } from '../src/main/core/store/settings.ts';
import { addWallet } from '../src/main/core/store/wallets.ts';
import { SyncEngine } from '../src/main/core/sync/engine.ts';
import { transactionHistory } from '../src/shared/service/schemas.ts';
import { transactionRecord } from '../src/main/core/transactions/store/transactions.ts';
import { CHAINS } from '../src/sim/chains.ts';
import { historyOf, transactionAt } from '../src/sim/transactions.ts';
import { bareInserter, freshDatabase } from './ingest.ts';
import { fmt, percentile, report } from './lib.ts';
import { startSimProcess } from './sync.ts';

export const WHALE = '0x77a1e0000000000000000000000000000000a1e5';
/** The service's largest page (the simulator's, as the spec's reference service caps it). */
export const LARGEST_PAGE = 1000;

/** A whale sync: rows, wall time, requests, peak RSS of this (the syncing) process. */
export interface WhaleRun {
  rows: number;
  ms: number;
  requests: number;
  peakRssMiB: number;
}

/** Starts the simulator (its own process, as a remote service) with one whale's history. */
export function whaleSimulator(rows: number, latencyMs: number) {
  return startSimProcess(['--access-key', 'bench', '--txns-per-wallet', String(rows), '--latency-ms', String(latencyMs)]);
}

export async function syncWhale(db: WritableDB, url: string, concurrency: number, onProgress?: () => void): Promise<WhaleRun> {
  addWallet(db, { address: WHALE, chains: ['eth'] });
  let requests = 0;
  const client = createServiceClient({
    baseUrl: url,
    accessKey: 'bench',
    concurrency,
    fetch: (input, init) => {
      requests++;
      return fetch(input, init);
    },
  });
  const engine = new SyncEngine({ db, client, now: () => Date.UTC(2026, 10, 1), transactionPageSize: LARGEST_PAGE });
  // memoryUsage.rss() reads the RSS alone: the full memoryUsage() walks the heaps, ~90 ms of
  // the main thread over a whale sync at this rate.
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 25);
  const off = onProgress ? engine.onProgress(onProgress) : () => undefined;
  const t = performance.now();
  const [result] = await engine.syncTransactions(WHALE).result;
  const ms = performance.now() - t;
  off();
  clearInterval(sampler);
  return { rows: result!.rowsRead, ms, requests, peakRssMiB: Math.max(peak, process.memoryUsage.rss()) / 2 ** 20 };
}

/** Bare index-free INSERT rate of `rows` of the whale's own rows, on the same disk. */
function bareRate(rows: number): number {
  const h = historyOf({ seed: 1, txnsPerWallet: rows, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 }, WHALE, CHAINS[0]!);
  const json = JSON.stringify(Array.from({ length: rows }, (_, i) => transactionAt(h, rows - 1 - i)));
  const parsed = transactionHistory.parse({
    transaction_history: JSON.parse(json),
    start_block: null,
    end_block: null,
    completion_ratio: 1,
  }).transaction_history;
  const records = parsed.map((t) => transactionRecord(WHALE, 'eth', t));
  const db = freshDatabase('whale-bare.sqlite');
  const insert = bareInserter(db);
  const t = performance.now();
  for (let i = 0; i < records.length; i += 50_000) insert(records.slice(i, i + 50_000));
  const ms = performance.now() - t;
  db.close();
  return rows / (ms / 1000);
}

/**
 * The rows the whale cached, read back as they are stored and inserted raw into a table of the
 * same columns and no index or constraint (positional values, 50,000-row transactions): the
 * floor of writing exactly what the sync wrote, on the same disk in the same run.
 */
function bareOfCached(cached: WritableDB): { rows: number; rate: number } {
  const columns = cached.prepare("SELECT name FROM pragma_table_info('transactions') WHERE name != 'id' ORDER BY cid").pluck().all() as string[];
  const rows = cached
    .prepare(`SELECT ${columns.join(', ')} FROM transactions`)
    .raw()
    .all() as unknown[][];
  const db = freshDatabase('whale-bare-cached.sqlite');
  db.exec(`CREATE TABLE bare (${columns.join(', ')})`);
  const insert = db.prepare(`INSERT INTO bare VALUES (${columns.map(() => '?').join(', ')})`);
  const batch = db.transaction((slice: unknown[][]) => {
    for (const r of slice) insert.run(...r);
  });
  const t = performance.now();
  for (let i = 0; i < rows.length; i += 50_000) batch(rows.slice(i, i + 50_000));
  const ms = performance.now() - t;
  db.close();
  return { rows: rows.length, rate: rows.length / (ms / 1000) };
}

/**
 * Whale: 200,000 transactions from an empty cache at 30 ms latency, beside
 * max(the network ideal at the service's largest page and the configured concurrency,
 * the ingest target = the rows at 35 % of a bare INSERT measured in this run).
 * Target: ≤ 1.5 × that.
 */
export async function whaleBench(rows = 200_000, latencyMs = 30, concurrency = 4): Promise<void> {
  const sim = await whaleSimulator(rows, latencyMs);
  try {
    const db = freshDatabase('whale.sqlite');
    const run = await syncWhale(db, sim.url, concurrency);
    const cached = bareOfCached(db);
    db.close();
    const bare = bareRate(rows);
    // Full pages, then the short (here empty) one that ends the read.
    const pages = Math.floor(rows / LARGEST_PAGE) + 1;
    const networkIdeal = Math.ceil(pages / concurrency) * latencyMs;
    const ingestTarget = (1000 * rows) / (0.35 * bare);
    const ideal = Math.max(networkIdeal, ingestTarget);
    report(`Whale: ${rows.toLocaleString('en-US')} transactions from empty, ${latencyMs} ms latency, concurrency ${concurrency}, pages of ${LARGEST_PAGE}`, [
      [
        'sync wall time',
        `${fmt(run.ms, 0)} ms for ${run.rows.toLocaleString('en-US')} rows in ${run.requests} requests (${fmt(run.rows / (run.ms / 1000), 0)} rows/s)`,
      ],
      ['network ideal', `${fmt(networkIdeal, 0)} ms (ceil(${pages} pages / ${concurrency}) × ${latencyMs} ms)`],
      ['ingest target', `${fmt(ingestTarget, 0)} ms (35 % of a bare INSERT at ${fmt(bare, 0)} rows/s, same run)`],
      ['sync / max(network, ingest)', `${fmt(run.ms / ideal)} × (target ≤ 1.5)`],
      [
        'bare INSERT of the cached rows',
        `${fmt(cached.rate, 0)} rows/s: ${fmt((1000 * cached.rows) / cached.rate, 0)} ms for the ${cached.rows.toLocaleString('en-US')} rows read back (positional, 50,000-row transactions); sync ÷ that ${fmt(run.ms / ((1000 * cached.rows) / cached.rate))} ×`,
      ],
      ['peak RSS of the syncing process', `${fmt(run.peakRssMiB, 0)} MiB (target < 500 MB)`],
    ]);
    await mainWritesDuringWhale(sim.url, concurrency);
  } finally {
    sim.close();
  }
}

/** Latencies of a small write on the main connection (a setting), one every 50 ms while `busy` says so. */
async function probeMainWrites(db: WritableDB, busy: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; busy(); i++) {
    await new Promise((r) => setTimeout(r, 50));
    const t = performance.now();
    updateSettings(db, { theme: i % 2 ? 'dark' : 'light' });
    latencies.push(performance.now() - t);
  }
  return latencies.sort((a, b) => a - b);
}

/**
 * A write of the main connection (a snapshot, a setting) while a whale syncs on the write
 * worker: how long it blocks the main thread, beside the same write with nothing syncing
 * (same run). It waited for the worker's whole batch before (p50 ~230 ms); the worker now
 * makes way (write-yield.ts). The whale's wall time with those writes is printed too.
 */
async function mainWritesDuringWhale(url: string, concurrency: number): Promise<void> {
  const idleDb = freshDatabase('whale-idle-writes.sqlite');
  const until = performance.now() + 2000;
  const idle = await probeMainWrites(idleDb, () => performance.now() < until);
  idleDb.close();
  const db = freshDatabase('whale-writes.sqlite');
  let syncing = true;
  const sync = syncWhale(db, url, concurrency).finally(() => (syncing = false));
  const during = await probeMainWrites(db, () => syncing);
  const run = await sync;
  db.close();
  const line = (l: number[]) => `p50 ${fmt(percentile(l, 50), 1)} ms  p95 ${fmt(percentile(l, 95), 1)} ms  max ${fmt(l.at(-1)!, 1)} ms (${l.length} writes)`;
  report('Main-connection writes while the whale syncs on the write worker (one every 50 ms)', [
    ['during the sync', line(during)],
    ['beside: the same write, nothing syncing', line(idle)],
    ['the whale with those writes', `${fmt(run.ms, 0)} ms for ${run.rows.toLocaleString('en-US')} rows`],
  ]);
}
