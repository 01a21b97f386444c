import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServiceClient } from '../src/main/core/service/client.ts';
import { openDatabase } from '../src/main/core/store/db.ts';
import { addWallet } from '../src/main/core/store/wallets.ts';
import { SyncEngine } from '../src/main/core/sync/engine.ts';
import { spawn } from 'node:child_process';
import { DATA_DIR, fmt, report } from './lib.ts';

/**
 * Sync wall time against the simulator with injected latency, versus the latency-bound
 * ideal at the configured concurrency: ceil(requests / concurrency) × latency.
 */
export async function syncBench(latencyMs = 25, concurrency = 4): Promise<void> {
  // The simulator runs in its own process, as a remote service would: its CPU work is not ours.
  const sim = await startSimProcess(['--access-key', 'bench', '--txns-per-wallet', '10000', '--latency-ms', String(latencyMs)]);
  const path = join(DATA_DIR, 'sync.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const db = openDatabase(path);
  const wallet = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
  addWallet(db, { address: wallet, chains: ['eth'] });
  let requests = 0;
  const client = createServiceClient({
    baseUrl: sim.url,
    accessKey: 'bench',
    concurrency,
    fetch: (input, init) => {
      requests++;
      return fetch(input, init);
    },
  });
  const engine = new SyncEngine({ db, client, now: () => Date.UTC(2026, 10, 1), transactionPageSize: 100 });
  const wallet2 = '0x00000000219ab540356cbb839cbe05303d7705fa';

  // Learning the service's conventions: once per service (the first sync does it), timed alone.
  let mark = requests;
  let t = performance.now();
  await engine.checkService();
  const learnMs = performance.now() - t;
  const learnRequests = requests - mark;
  // Two rounds of parallel probes: 4, then 6 (two waves at concurrency 4).
  const learnIdeal = (1 + Math.ceil(6 / concurrency)) * latencyMs;

  mark = requests;
  t = performance.now();
  const [txns] = await engine.syncTransactions(wallet).result;
  const txnMs = performance.now() - t;
  const txnRequests = requests - mark;
  // 10,000 rows in pages of 100: 100 full pages and the short one that ends the read.
  const txnIdeal = Math.ceil(101 / concurrency) * latencyMs;

  // The same history at the largest page the service allows (learned: 1000), another wallet.
  addWallet(db, { address: wallet2, chains: ['eth'] });
  const largest = new SyncEngine({ db, client, now: () => Date.UTC(2026, 10, 1) });
  mark = requests;
  t = performance.now();
  const [big] = await largest.syncTransactions(wallet2).result;
  const bigMs = performance.now() - t;
  const bigRequests = requests - mark;
  const bigPages = Math.ceil(big!.rowsRead / 1000) + (big!.rowsRead % 1000 === 0 ? 1 : 0);
  const bigIdeal = Math.ceil(bigPages / concurrency) * latencyMs;

  mark = requests;
  t = performance.now();
  await engine.backfill({ wallet, from: '2025-11-01', to: '2026-10-31', every: 'day' }).result;
  const snapMs = performance.now() - t;
  const snapRequests = requests - mark;
  const snapIdeal = Math.ceil((365 * 3) / concurrency) * latencyMs;

  report(`Sync from the simulator, ${latencyMs} ms latency, concurrency ${concurrency}`, [
    [
      'learning conventions (once per service)',
      `${fmt(learnMs, 0)} ms in ${learnRequests} requests; ideal ${learnIdeal} ms; ratio ${fmt(learnMs / learnIdeal)}`,
    ],
    [
      '10,000 transactions, pages of 100',
      `${fmt(txnMs, 0)} ms for ${txns!.rowsRead} rows in ${txnRequests} requests; ideal ${txnIdeal} ms; ratio ${fmt(txnMs / txnIdeal)} (target ≤ 1.5)`,
    ],
    [
      '10,000 transactions, largest page',
      `${fmt(bigMs, 0)} ms for ${big!.rowsRead} rows in ${bigRequests} requests; latency ideal ${bigIdeal} ms; ratio ${fmt(bigMs / bigIdeal)} (ingest-bound at this size)`,
    ],
    [
      '365 daily snapshots (× 3 views)',
      `${fmt(snapMs, 0)} ms in ${snapRequests} requests; ideal ${snapIdeal} ms; ratio ${fmt(snapMs / snapIdeal)} (target ≤ 1.5)`,
    ],
  ]);
  db.close();
  sim.close();
}

export async function startSimProcess(args: string[]): Promise<{ url: string; close: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '../src/sim/main.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(String(d).split('\n')[0]!.trim()));
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return { url, close: () => child.kill('SIGTERM') };
}
