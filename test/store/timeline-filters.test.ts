import { beforeAll, describe, expect, it } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import type { TimelineQuery } from '../../src/shared/contract.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import type { TransferDetail } from '../../src/shared/model.ts';
import { engineFor } from '../support/engine.ts';
import { createDB } from '../support/store.ts';
import { useSimulator, WALLET, WALLET_2 } from '../support/sim.ts';

/**
 * Every combination of the timeline's filters against a brute-force filter of the same rows,
 * read straight from the table: the planner picks a different index per combination (and
 * differently with and without statistics), and every choice must page to the same rows.
 */
const ctx = useSimulator({ txnsPerWallet: 500 });
const REMOVED = '0x1111111111111111111111111111111111111111';
let db: WritableDB;

interface Plain {
  id: number;
  wallet: string;
  chain: string;
  time: number;
  action_type: string | null;
  protocol_id: string | null;
  status: number | null;
  details: string;
}
let rows: Plain[] = [];

beforeAll(async () => {
  db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth', 'arb'] });
  addWallet(db, { address: WALLET_2, chains: ['eth'] });
  addWallet(db, { address: REMOVED, chains: ['arb'] });
  const { engine } = engineFor(ctx.sim, db);
  await Promise.all([engine.syncTransactions(WALLET).result, engine.syncTransactions(WALLET_2).result, engine.syncTransactions(REMOVED).result]);
  // A wallet removed without purging: its rows stay cached and must never show.
  removeWallet(db, REMOVED);
  rows = db.prepare('SELECT id, wallet, chain, time, action_type, protocol_id, status, details FROM transactions').all() as Plain[];
});

const DAY = 86_400_000;
const dates = [{}, { from: '2025-01-01' }, { to: '2025-06-30' }, { from: '2024-11-15', to: '2025-08-31' }] as const;

type Query = TimelineQuery & { wallets?: readonly string[] };

function combinations(): Query[] {
  const out: Query[] = [];
  // One wallet, a group's members (resolved by the core, see ScopedTimelineFilter), or every watched wallet.
  const scopes: Array<{ wallet?: string; wallets?: readonly string[] }> = [
    {},
    { wallet: WALLET },
    { wallet: WALLET_2 },
    { wallet: REMOVED },
    { wallets: [WALLET_2] },
    { wallets: [WALLET, WALLET_2] },
  ];
  for (const scope of scopes)
    for (const chains of [undefined, ['arb'], ['eth', 'arb']])
      for (const actionTypes of [undefined, ['swap'], ['stake', 'transfer_in']])
        for (const protocols of [undefined, ['uniswap_v3', 'lido']])
          for (const statuses of [undefined, [0]])
            for (const tokens of [undefined, ['USDC']])
              for (const range of dates)
                out.push({
                  ...scope,
                  ...(chains && { chains }),
                  ...(actionTypes && { actionTypes }),
                  ...(protocols && { protocols }),
                  ...(statuses && { statuses }),
                  ...(tokens && { tokens }),
                  ...range,
                });
  return out;
}

function bruteForce(q: Query): number[] {
  const watched = new Set([WALLET, WALLET_2]);
  const from = q.from ? Date.parse(`${q.from}T00:00:00Z`) : -Infinity;
  const to = q.to ? Date.parse(`${q.to}T00:00:00Z`) + DAY : Infinity;
  return rows
    .filter(
      (r) =>
        (q.wallet ? r.wallet === q.wallet : q.wallets ? q.wallets.includes(r.wallet) : watched.has(r.wallet)) &&
        (!q.chains || q.chains.includes(r.chain)) &&
        (!q.actionTypes || q.actionTypes.includes(r.action_type ?? '')) &&
        (!q.protocols || q.protocols.includes(r.protocol_id ?? '')) &&
        (!q.statuses || q.statuses.includes(r.status ?? -1)) &&
        (!q.tokens || (JSON.parse(r.details) as TransferDetail[]).some((d) => q.tokens!.includes(d.symbol ?? ''))) &&
        r.time >= from &&
        r.time < to,
    )
    .sort((a, b) => b.time - a.time || b.id - a.id)
    .map((r) => r.id);
}

function paged(q: Query, limit: number): number[] {
  const ids: number[] = [];
  let cursor: string | null = null;
  do {
    const page = timelinePage(db, { ...q, cursor, limit });
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

describe('timeline filters, every combination', () => {
  it('the data exercises every filter value (rows match each one)', () => {
    expect(rows.length).toBeGreaterThan(1500);
    expect(rows.some((r) => r.wallet === REMOVED)).toBe(true);
    for (const q of [{ statuses: [0] }, { protocols: ['lido'] }, { actionTypes: ['stake'] }, { tokens: ['USDC'] }, { chains: ['arb'] }] as TimelineQuery[])
      expect(bruteForce(q).length).toBeGreaterThan(0);
  });

  for (const stats of ['without statistics', 'after ANALYZE'] as const) {
    it(`pages every combination to exactly the brute-force rows, in order (${stats})`, () => {
      if (stats === 'after ANALYZE') db.exec('ANALYZE');
      let nonEmpty = 0;
      for (const q of combinations()) {
        const want = bruteForce(q);
        if (want.length) nonEmpty++;
        // Pages of 7 cross many cursors; one page of 1,000 reads each result whole.
        expect(paged(q, 7), JSON.stringify(q)).toEqual(want);
        expect(paged(q, 1000), JSON.stringify(q)).toEqual(want);
      }
      expect(nonEmpty).toBeGreaterThan(300);
    });
  }
});
