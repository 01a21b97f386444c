import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServiceClient } from '../src/main/core/service/client.ts';
import { openDatabase } from '../src/main/core/store/db.ts';
import { countTransactions } from '../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../src/main/core/store/wallets.ts';
import { SyncEngine } from '../src/main/core/sync/engine.ts';
import { DATA_DIR, fmt, report } from './lib.ts';
import { startSimProcess } from './sync.ts';

/**
 * Many wallets through a service's rate quota: 30 wallets × 3 chains (3,000 transactions each,
 * and the three position views of each chain) through a simulator that serves 20 requests in
 * any rolling second and refuses the rest with 429, without and with Retry-After. Targets:
 * every job completes; 429s at most 10 % of the requests served; wall time within 1.3 × the
 * quota's bound (requests served ÷ 20 per second).
 */
export async function quotaBench(): Promise<void> {
  for (const retryAfter of [false, true]) await throughQuota(retryAfter);
  await dailyRefresh();
}

const WALLETS = 30;
const CHAINS = ['eth', 'arb', 'base'];
const PER_CHAIN = 3000;
const QUOTA = 20;

async function throughQuota(retryAfter: boolean): Promise<void> {
  const sim = await startSimProcess([
    '--access-key',
    'bench-quota-key',
    '--txns-per-wallet',
    String(PER_CHAIN),
    '--quota',
    `${QUOTA}/s${retryAfter ? '' : ',no-retry-after'}`,
  ]);
  const path = join(DATA_DIR, 'quota.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const db = openDatabase(path);
  const wallets = [...Array(WALLETS).keys()].map((i) => `0x${(0xbe0c4 + i * 7919).toString(16).padStart(40, '0')}`);
  for (const w of wallets) addWallet(db, { address: w, chains: CHAINS });
  const statuses = new Map<number, number>();
  const client = createServiceClient({
    baseUrl: sim.url,
    accessKey: 'bench-quota-key',
    concurrency: 4,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      return res;
    },
  });
  const engine = new SyncEngine({ db, client, now: () => Date.UTC(2026, 10, 1) });
  const t = performance.now();
  const jobs = wallets.flatMap((w) => [engine.syncPositions(w), engine.syncTransactions(w)]);
  const settled = await Promise.allSettled(jobs.map((j) => j.result));
  const seconds = (performance.now() - t) / 1000;
  const failed = settled.filter((s) => s.status === 'rejected').length;
  const rows = wallets.reduce((n, w) => n + countTransactions(db, w), 0);
  const served = statuses.get(200) ?? 0;
  const refused = statuses.get(429) ?? 0;
  const bound = served / QUOTA;
  report(`${WALLETS} wallets × ${CHAINS.length} chains through a ${QUOTA} requests/s quota, ${retryAfter ? 'with' : 'without'} Retry-After`, [
    [
      'jobs',
      `${jobs.length - failed} of ${jobs.length} completed (target: all); ${rows.toLocaleString('en-US')} of ${(WALLETS * CHAINS.length * PER_CHAIN).toLocaleString('en-US')} rows`,
    ],
    ['429s', `${refused} for ${served} requests served = ${fmt((100 * refused) / served, 1)} % (target ≤ 10 %)`],
    ['wall time', `${fmt(seconds, 1)} s; quota bound ${fmt(bound, 1)} s; ratio ${fmt(seconds / bound)} (target ≤ 1.3)`],
    ['pace learned', `${fmt(client.limiter.state.rate ?? NaN, 1)} requests/s`],
  ]);
  db.close();
  sim.close();
}

/**
 * A daily refresh with nothing new: 100 wallets × 6 chains whose histories are cached, synced
 * again through the same quota. The fewest requests that can prove nothing is new are one per
 * wallet and chain (a page of the range since the last sync, empty); printed beside the
 * requests made, and the wall time beside the quota's bound for those requests.
 */
async function dailyRefresh(): Promise<void> {
  const wallets = [...Array(100).keys()].map((i) => `0x${(0xd0a11 + i * 104_729).toString(16).padStart(40, '0')}`);
  const chains = ['eth', 'arb', 'op', 'base', 'matic', 'bsc'];
  const sim = await startSimProcess(['--access-key', 'bench-quota-key', '--txns-per-wallet', '20', '--quota', `${QUOTA}/s,no-retry-after`]);
  const path = join(DATA_DIR, 'refresh.sqlite');
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const db = openDatabase(path);
  for (const w of wallets) addWallet(db, { address: w, chains });
  const statuses = new Map<number, number>();
  const client = createServiceClient({
    baseUrl: sim.url,
    accessKey: 'bench-quota-key',
    concurrency: 4,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      return res;
    },
  });
  // Yesterday's sync, then today's: the simulator's history ends before both.
  const first = new SyncEngine({ db, client, now: () => Date.UTC(2026, 10, 1) });
  await Promise.all(wallets.map((w) => first.syncTransactions(w).result));
  statuses.clear();
  const refresh = new SyncEngine({ db, client, now: () => Date.UTC(2026, 10, 2) });
  const t = performance.now();
  const settled = await Promise.allSettled(wallets.map((w) => refresh.syncTransactions(w).result));
  const seconds = (performance.now() - t) / 1000;
  const served = statuses.get(200) ?? 0;
  const refused = statuses.get(429) ?? 0;
  const fewest = wallets.length * chains.length;
  report(`Daily refresh, nothing new: ${wallets.length} wallets × ${chains.length} chains through a ${QUOTA} requests/s quota`, [
    ['jobs', `${settled.filter((s) => s.status === 'fulfilled').length} of ${settled.length} completed`],
    ['requests', `${served} served (+ ${refused} refused); the fewest that prove nothing is new: ${fewest}; ratio ${fmt(served / fewest)}`],
    ['wall time', `${fmt(seconds, 1)} s; quota bound for the fewest ${fmt(fewest / QUOTA, 1)} s; ratio ${fmt(seconds / (fewest / QUOTA))}`],
  ]);
  db.close();
  sim.close();
}
