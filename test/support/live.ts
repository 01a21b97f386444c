import { expect } from 'vitest';
import { chainById } from '../../src/sim/chains.ts';
import type { LiveOptions } from '../../src/sim/live.ts';
import type { Simulator, SimulatorOptions } from '../../src/sim/server.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { engineFor } from './engine.ts';
import { SIM_NOW, WALLET } from './sim.ts';
import { createDB } from './store.ts';

/**
 * A live service for the live-*.test.ts files: one to four months of history (each wallet starts
 * within 90 days of the start, simulator transactions.ts) ending ten minutes before
 * the simulator's now, so every live event (live.ts) lands inside the recent window the client
 * re-reads, and pages of 100 rows, so a read crosses many page seams.
 */
export function liveSimOptions(live: LiveOptions, txnsPerWallet = 2000): Partial<SimulatorOptions> {
  const end = Math.floor(SIM_NOW / 1000) - 600;
  return { txnsPerWallet, historyStart: end - 120 * 86_400, historyEnd: end, live };
}

export interface CacheRow {
  txn_hash: string;
  block: number;
  status: number;
  txn_fee: number;
  details: string;
}

/** The transactions the cache holds for the wallet on a chain, by hash. */
export function cached(db: WritableDB, chain = 'eth'): Map<string, CacheRow> {
  const rows = db.prepare('SELECT txn_hash, block, status, txn_fee, details FROM transactions WHERE wallet = ? AND chain = ?').all(WALLET, chain) as CacheRow[];
  return new Map(rows.map((r) => [r.txn_hash, r]));
}

export interface Comparison {
  truth: number;
  cached: number;
  missing: string[];
  ghosts: string[];
  stale: string[];
}

/** The cache against the service's ground truth now: rows missing, rows kept that the service no longer has, rows whose block, status, fee or transfers differ. */
export function compare(sim: Simulator, db: WritableDB, chain = 'eth'): Comparison {
  const truth = sim.live!.truth(WALLET, chainById(chain)!);
  const cache = cached(db, chain);
  const byHash = new Map(truth.map((t) => [t.txn_hash, t]));
  const stale: string[] = [];
  for (const t of truth) {
    const c = cache.get(t.txn_hash);
    if (!c) continue;
    const transfers = JSON.stringify(t.details.map((d) => [d.type, d.qty]));
    const cachedTransfers = JSON.stringify((JSON.parse(c.details) as Array<{ type: string; qty: number }>).map((d) => [d.type, d.qty]));
    if (c.block !== t.block || c.status !== t.status || c.txn_fee !== t.txn_fee || transfers !== cachedTransfers) stale.push(t.txn_hash);
  }
  return {
    truth: truth.length,
    cached: cache.size,
    missing: truth.filter((t) => !cache.has(t.txn_hash)).map((t) => t.txn_hash),
    ghosts: [...cache.keys()].filter((h) => !byHash.has(h)),
    stale,
  };
}

/** A wallet's first sync while the service changes under it, then the next sync once every event has happened. */
export async function syncTwice(sim: Simulator, options: { pageSize?: number } = {}) {
  const db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth'] });
  const { engine } = engineFor(sim, db, { transactionPageSize: options.pageSize ?? 100, now: () => SIM_NOW });
  const [first] = await engine.syncTransactions(WALLET).result;
  const afterFirst = compare(sim, db);
  sim.live!.settle(WALLET, chainById('eth')!);
  const [second] = await engine.syncTransactions(WALLET).result;
  const afterSecond = compare(sim, db);
  return { db, engine, first: first!, second: second!, afterFirst, afterSecond };
}

/** Nothing missing, no ghost, nothing stale. */
export function expectExact(c: Comparison): void {
  expect({ missing: c.missing.length, ghosts: c.ghosts.length, stale: c.stale.length, cached: c.cached }).toEqual({
    missing: 0,
    ghosts: 0,
    stale: 0,
    cached: c.truth,
  });
}
