import { describe, expect, it } from 'vitest';
import { latestSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { chainById } from '../../src/sim/chains.ts';
import { parseConventions } from '../../src/sim/conventions.ts';
import { DAY_MS, positionsOn } from '../../src/sim/positions.ts';
import { DEFAULT_HISTORY_END, DEFAULT_HISTORY_START } from '../../src/sim/server.ts';
import { historyOf, transactionAt } from '../../src/sim/transactions.ts';
import { allPositionsView } from '../../src/sim/views.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * Every datetime and bad-value reading (i12b) paired with every paging/time/ordering/logs
 * reading (i12a's matrix): the real client syncs a dated snapshot and the whole transaction
 * history; figures come from the simulator's generator, never from what the client stored.
 */
const SEED = 7;
const TXNS = 120;
const ctx = useSimulator({ txnsPerWallet: TXNS, seed: SEED });

const MINE = [
  'datetime=offset-west',
  'datetime=offset-east',
  'datetime=no-zone',
  'datetime=space',
  'datetime=unix-s',
  'datetime=unix-ms',
  'datetime=unix-s-string',
  'datetime=unix-ms-string',
  'bad-value=nan',
  'bad-value=infinity',
  'bad-value=nan-string',
  'bad-value=huge',
  'bad-value=text',
];
const THEIRS = [
  'page-base=0',
  'page-size-cap=25',
  'page-size-max=100',
  'time-unit=ms',
  'bounds=half-open',
  'bounds=exclusive',
  'order=oldest-first',
  'order=unordered',
  'past-end=repeat-last',
  'logs-total=pages',
  'log-index=per-page',
  'logs-page-cap=50',
];
const CASES = MINE.flatMap((m) => THEIRS.map((t) => [m, t] as const));

const DAY = '2025-06-01';
const chain = chainById('eth')!;
const view = allPositionsView(
  'eth',
  positionsOn(
    { seed: SEED, txnsPerWallet: TXNS, historyStart: DEFAULT_HISTORY_START, historyEnd: DEFAULT_HISTORY_END },
    WALLET,
    chain,
    Date.parse(`${DAY}T00:00:00Z`) / DAY_MS,
  ),
);
const cents = (xs: Array<number | null | undefined>) => xs.reduce<number>((s, v) => s + Math.round((v ?? 0) * 100), 0);
const h = historyOf({ seed: SEED, txnsPerWallet: TXNS, historyStart: DEFAULT_HISTORY_START, historyEnd: DEFAULT_HISTORY_END }, WALLET, chain);
const all = Array.from({ length: TXNS }, (_, i) => transactionAt(h, i));
const feeNanos = all.reduce((s, t) => s + Math.round((t.txn_fee ?? 0) * 1e9), 0);

describe('pairs of a datetime or bad-value reading with a paging/time/ordering/logs reading', () => {
  it('has every pair', () => expect(CASES.length).toBe(MINE.length * THEIRS.length));

  it.each(CASES)('%s with %s', async (mine, theirs) => {
    const conv = parseConventions([mine, theirs, 'bad-field=principal_nav']);
    ctx.sim.setConventions(conv);
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth'] });
    const { engine } = engineFor(ctx.sim, db, { now: () => SIM_NOW });

    // The snapshot of the day asked, under that day; the bad value (if any) null and flagged.
    expect(await engine.syncPositions(WALLET, { date: DAY }).result).toEqual([DAY]);
    const snap = latestSnapshot(db, 'allPositions', WALLET, 'eth', DAY)!;
    const bad = conv.badValue !== 'none';
    expect(snap.quality.map((f) => f.path)).toEqual(bad ? ['data[0].positions[0].principal_nav'] : []);
    expect(snap.principalNav).toBe(cents(view.slice(bad ? 1 : 0).map((p) => p.principal_nav)) / 100);
    expect(snap.rewardNav).toBe(cents(view.map((p) => p.reward_nav)) / 100);

    // Every transaction once, at its instant, with its fee.
    const [result] = await engine.syncTransactions(WALLET).result;
    expect(result!.complete).toBe(true);
    const s = db
      .prepare(
        "SELECT count(*) AS n, count(DISTINCT txn_hash) AS d, sum(round(txn_fee * 1e9)) AS fees, min(time) AS first, max(time) AS last FROM transactions WHERE chain = 'eth'",
      )
      .get() as {
      n: number;
      d: number;
      fees: number;
      first: number;
      last: number;
    };
    expect(s).toEqual({ n: TXNS, d: TXNS, fees: feeNanos, first: Date.parse(all[0]!.date!), last: Date.parse(all.at(-1)!.date!) });
  });
});
