import { beforeAll, describe, expect, it } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { diffDates, NotCachedError } from '../../src/main/core/positions/store/diff.ts';
import { exposureAt } from '../../src/main/core/portfolio/view.ts';
import { navHistory } from '../../src/main/core/positions/store/nav.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import type { TimelineQuery } from '../../src/shared/contract.ts';
import type { TimelineRow } from '../../src/shared/model.ts';
import { latestSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { engineFor } from '../support/engine.ts';
import { createDB } from '../support/store.ts';
import { useSimulator, WALLET, WALLET_2 } from '../support/sim.ts';

const ctx = useSimulator({ txnsPerWallet: 1200 });
let db: WritableDB;

/** One cache shared by these read-only tests: two wallets, synced once. */
beforeAll(async () => {
  db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Main' });
  addWallet(db, { address: WALLET_2, chains: ['eth'], label: 'Cold' });
  const { engine } = engineFor(ctx.sim, db);
  await Promise.all([
    engine.syncTransactions(WALLET).result,
    engine.syncTransactions(WALLET_2).result,
    engine.backfill({ wallet: WALLET, from: '2025-01-01', to: '2025-03-01', every: 'month' }).result,
    engine.backfill({ wallet: WALLET_2, from: '2025-01-01', to: '2025-02-01', every: 'month' }).result,
  ]);
});

function allPages(q: TimelineQuery): TimelineRow[] {
  const rows: TimelineRow[] = [];
  let cursor: string | null = null;
  do {
    const page = timelinePage(db, { ...q, cursor, limit: q.limit ?? 100 });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

const isNewestFirst = (rows: TimelineRow[]) => rows.every((r, i) => i === 0 || (r.date ?? '') <= (rows[i - 1]!.date ?? ''));

describe('timeline', () => {
  it('pages all watched wallets newest first, each row once', () => {
    const rows = allPages({});
    expect(rows).toHaveLength(3600);
    expect(new Set(rows.map((r) => r.id)).size).toBe(3600);
    expect(isNewestFirst(rows)).toBe(true);
    expect(rows[0]!.details).toBeInstanceOf(Array);
  });

  it('pages one wallet, and carries sync freshness', () => {
    const page = timelinePage(db, { wallet: WALLET_2, limit: 50 });
    expect(page.rows).toHaveLength(50);
    expect(page.rows.every((r) => r.wallet === WALLET_2)).toBe(true);
    expect(page.syncedAt).not.toBeNull();
    expect(page.incomplete).toBe(false);
    expect(allPages({ wallet: WALLET_2 })).toHaveLength(1200);
  });

  it('filters by chain, action type, protocol, token, status and date range, combined', () => {
    const all = allPages({});
    const expectSame = (q: TimelineQuery, pred: (r: TimelineRow) => boolean) => {
      const got = allPages(q);
      const want = all.filter(pred);
      expect(want.length).toBeGreaterThan(0);
      expect(got.map((r) => r.id)).toEqual(want.map((r) => r.id));
    };
    expectSame({ chains: ['arb'] }, (r) => r.chain === 'arb');
    expectSame({ actionTypes: ['swap', 'stake'] }, (r) => r.actionType === 'swap' || r.actionType === 'stake');
    expectSame({ protocols: ['lido'] }, (r) => r.protocolId === 'lido');
    expectSame({ statuses: [0] }, (r) => r.status === 0);
    expectSame({ tokens: ['WBTC'] }, (r) => r.details.some((d) => d.symbol === 'WBTC'));
    expectSame({ from: '2025-01-01', to: '2025-03-31' }, (r) => r.date! >= '2025-01-01' && r.date! < '2025-04-01');
    expectSame(
      { wallet: WALLET, chains: ['eth'], actionTypes: ['swap'], tokens: ['USDC'], from: '2024-06-01' },
      (r) => r.wallet === WALLET && r.chain === 'eth' && r.actionType === 'swap' && r.details.some((d) => d.symbol === 'USDC') && r.date! >= '2024-06-01',
    );
  });

  it('searches by transaction hash or address, whole or by prefix, in any case', () => {
    const some = allPages({})[777]!;
    expect(allPages({ search: some.txnHash.toUpperCase().replace('0X', '0x') }).map((r) => r.id)).toEqual([some.id]);
    expect(allPages({ search: some.txnHash.slice(0, 12) }).map((r) => r.id)).toContain(some.id);
    const counterparty = some.from === some.wallet ? some.to! : some.from!;
    const byAddress = allPages({ search: counterparty, limit: 7 });
    expect(byAddress.length).toBeGreaterThan(7);
    expect(byAddress.map((r) => r.id)).toEqual(
      allPages({})
        .filter((r) => r.from === counterparty || r.to === counterparty)
        .map((r) => r.id),
    );
    expect(() => timelinePage(db, { search: '0x5f' })).toThrow('at least 6 characters');
    expect(() => timelinePage(db, { search: 'has spaces' })).toThrow('transaction hash or an address');
    expect(() => timelinePage(db, { from: '2025-02-30' })).toThrow('not a date');
  });

  it('is stable under concurrent inserts: no row repeated or skipped across pages', () => {
    const before = allPages({ wallet: WALLET_2 });
    const page1 = timelinePage(db, { wallet: WALLET_2, limit: 100 });
    // Meanwhile a sync adds newer rows and older ones.
    const template = {
      wallet_id: WALLET_2,
      block: 1,
      from: WALLET_2,
      to: WALLET_2,
      from_type: 'eoa',
      to_type: 'eoa',
      txn_fee: 0,
      gas_fee: 0,
      action_type: 'approve',
      method_hex: '0x',
      protocol_id: 'wallet',
      chain_id: 'eth',
      details: [],
      status: 1,
    };
    db.transaction(() =>
      upsertTransactions(db, WALLET_2, 'eth', [
        { ...template, txn_hash: '0x' + 'f'.repeat(64), date: '2026-12-01T00:00:00.000Z' },
        { ...template, txn_hash: '0x' + 'e'.repeat(64), date: '2019-01-01T00:00:00.000Z' },
      ]),
    )();
    const rest: TimelineRow[] = [];
    let cursor = page1.nextCursor;
    while (cursor) {
      const p = timelinePage(db, { wallet: WALLET_2, limit: 100, cursor });
      rest.push(...p.rows);
      cursor = p.nextCursor;
    }
    const seen = [...page1.rows, ...rest].map((r) => r.id);
    expect(new Set(seen).size).toBe(seen.length);
    // Every row that existed at the first page is seen; the older newcomer is seen too.
    expect(seen.slice(0, before.length)).toEqual(before.map((r) => r.id));
    expect(rest.at(-1)!.txnHash).toBe('0x' + 'e'.repeat(64));
    db.prepare('DELETE FROM transactions WHERE txn_hash IN (?, ?)').run('0x' + 'f'.repeat(64), '0x' + 'e'.repeat(64));
  });
});

describe('NAV, diff and exposure from cached snapshots', () => {
  it('NAV per date per wallet and in total, with how complete each date is', () => {
    const main = navHistory(db, { wallet: WALLET });
    expect(main.points.map((p) => p.date)).toEqual(['2025-01-01', '2025-02-01', '2025-03-01']);
    const jan = main.points[0]!;
    const eth = latestSnapshot(db, 'allPositions', WALLET, 'eth', '2025-01-01')!;
    const arb = latestSnapshot(db, 'allPositions', WALLET, 'arb', '2025-01-01')!;
    expect(jan.totalNav).toBeCloseTo(eth.totalNav! + arb.totalNav!, 6);
    expect(jan.principalNav! + jan.rewardNav!).toBeCloseTo(jan.totalNav!, 6);
    expect(jan).toMatchObject({ chainsCached: 2, chainsWatched: 2 });
    expect(main.freshness.asOf).toBe('2025-03-01');

    const total = navHistory(db, {});
    const cold = navHistory(db, { wallet: WALLET_2 });
    expect(total.points[0]!.totalNav).toBeCloseTo(jan.totalNav! + cold.points[0]!.totalNav!, 6);
    expect(total.points.find((p) => p.date === '2025-03-01')).toMatchObject({ chainsCached: 2, chainsWatched: 3 });
    expect(navHistory(db, { wallet: WALLET, from: '2025-02-01', to: '2025-02-28' }).points.map((p) => p.date)).toEqual(['2025-02-01']);
  });

  it('diff of two dates: opened, closed and changed, split into principal and reward', () => {
    const d = diffDates(db, WALLET, '2025-01-01', '2025-03-01');
    expect(d.chains).toEqual(['eth', 'arb']);
    expect(d.missing).toEqual([]);
    const a = navHistory(db, { wallet: WALLET }).points;
    expect(d.totalChange).toBeCloseTo(a[2]!.totalNav! - a[0]!.totalNav!, 4);
    expect(d.principalChange).toBeCloseTo(a[2]!.principalNav! - a[0]!.principalNav!, 4);
    expect(d.rewardChange).toBeCloseTo(a[2]!.rewardNav! - a[0]!.rewardNav!, 4);
    expect(d.changed.length).toBeGreaterThan(0);
    for (const o of d.opened) expect(o.before).toBeNull();
    for (const c of d.closed) expect(c.after).toBeNull();
    expect(() => diffDates(db, WALLET, '2025-01-01', '2024-01-01')).toThrow(NotCachedError);
  });

  it('exposure per underlying token across wallets at a date', () => {
    const e = exposureAt(db, '2025-02-01');
    expect(e.missing).toEqual([]);
    expect(e.tokens.length).toBeGreaterThan(3);
    const nav = navHistory(db, {}).points.find((p) => p.date === '2025-02-01')!;
    expect(e.totalNav).toBeCloseTo(nav.totalNav!, 0);
    const multi = e.tokens.find((t) => new Set(t.wallets.map((w) => w.wallet)).size > 1);
    expect(multi?.totalNav).toBeCloseTo(
      multi!.wallets.reduce((s, w) => s + w.nav, 0),
      6,
    );
    expect(exposureAt(db, '2025-03-01').missing).toEqual([{ wallet: WALLET_2, chain: 'eth' }]);
    expect(e.freshness.oldestFetchedAt).not.toBeNull();
  });
});
