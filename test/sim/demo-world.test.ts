import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { decodeLog, eventName } from '../../src/shared/signatures.ts';
import { chainById } from '../../src/sim/chains.ts';
import { onChain } from '../../src/sim/catalog.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { DAY_MS, declaredPositions } from '../../src/sim/positions.ts';
import { defaultHistory, historyOf, indexRange, positionEventsOf, timeOf, transactionAt } from '../../src/sim/transactions.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { worldPeriod } from '../support/world.ts';
import { tempDir } from '../support/store.ts';

/**
 * The demo as a newcomer meets it (issue 27): the core in demo mode with the shells' starter,
 * the two wallets the first screen offers, synced; then the two features tried first. Reconcile:
 * every row closes exactly on the world's own plan (its holdings at each end, its transfers), every
 * token's plain wallet balance moves by exactly its transfers and its moves into and out of the
 * wallet's own positions (the deposit that opens one, the withdrawal that closes it), so whatever
 * is unexplained sits in protocol positions: exactly their declared accruals (interest, rebases,
 * rewards), recomputed here from the rates the generator declares. Logs: every log of the demo's
 * transactions decodes as a well-known event.
 */
const DEMO_WALLETS = [
  { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth', 'arb'] },
  { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] },
];
/**
 * The last complete month before the demo's clock; one well inside the history (a farm opens in
 * it); one where four positions open, a loan among them (a debt drawn); two months where a loan
 * closes (a debt repaid), another opens and a farm closes.
 */
const PERIODS = [
  ['2026-09-30', '2026-10-31'],
  ['2025-05-31', '2025-06-30'],
  ['2025-09-30', '2025-10-31'],
  ['2025-12-31', '2026-02-28'],
] as const;
let core: Core;

beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
  for (const w of DEMO_WALLETS) await core.call('wallets.add', { address: w.address, chains: w.chains });
  await waitForJobs(core, await core.call('sync.all', undefined));
  const dates = [...new Set(PERIODS.flat())];
  for (const w of DEMO_WALLETS) await waitForJobs(core, await Promise.all(dates.map((date) => core.call('sync.positions', { wallet: w.address, date }))));
}, 120_000);
afterAll(() => core?.close());

describe('the demo adds up', () => {
  it.each(PERIODS)('reconciles every plain wallet balance exactly from %s to %s; the rest is in protocol positions', async (from, to) => {
    const r = await core.call('reconcile.get', { from, to });
    expect(r.problems).toEqual([]);
    expect(r.complete).toBe(true);
    expect(new Set(r.rows.map((x) => x.wallet))).toEqual(new Set(DEMO_WALLETS.map((w) => w.address)));
    for (const x of r.rows) {
      const what = `${x.wallet} ${x.chain} ${x.token_symbol}`;
      expect(x.wallet_unexplained_qty, what).toBe(0);
      expect(x.unexplained_qty, what).toBe(x.position_change_qty);
      expect(x.status === 'reconciled' || (x.status === 'unexplained' && x.position_change_qty !== 0), what).toBe(true);
    }
    // Tokens that moved and are held plainly only close to the last digit.
    expect(r.rows.filter((x) => x.status === 'reconciled' && x.inflow_qty + x.outflow_qty > 0).length).toBeGreaterThan(3);
  });

  it.each(PERIODS)('closes every row exactly on the world’s plan from %s to %s; the remainder is the declared accruals', async (from, to) => {
    const r = await core.call('reconcile.get', { from, to });
    const [d0, d1] = [from, to].map((d) => Date.parse(`${d}T00:00:00Z`) / DAY_MS) as [number, number];
    // A leg's quantity on a day from its declared course, as the service rounds it (micro-units);
    // nothing where the position is not held that day.
    const qtyOn = (leg: { qty0: number; rate: number; perDay: number }, p: { openDay: number; closeDay: number }, day: number) =>
      day < p.openDay || day >= p.closeDay ? 0 : Math.round((leg.qty0 * Math.exp((leg.rate * (day - p.openDay)) / 365) + leg.perDay * (day - p.openDay)) * 1e6);
    const counts = { reconciled: 0, accrual: 0, moved: 0 };
    const world = worldPeriod(from, to).rows;
    expect(new Set(r.rows.map((x) => `${x.wallet}|${x.chain}|${x.token_cid}`))).toEqual(new Set(world.keys()));
    for (const x of r.rows) {
      const chain = chainById(x.chain)!;
      const what = `${x.wallet} ${x.chain} ${x.token_symbol}`;
      // The roll-forward's figures are the world's, to the micro-unit: its holdings at each end
      // (plain balances and positions), the transfers of its successful transactions in the period
      // less its moves, and those moves (the transactions that open or close a position held at one end only).
      const w = world.get(`${x.wallet}|${x.chain}|${x.token_cid}`)!;
      expect(
        [x.opening_qty, x.inflow_qty, x.outflow_qty, x.moved_to_positions_qty, x.closing_qty].map((q) => Math.round(q! * 1e6)),
        what,
      ).toEqual([w.opening, w.inflow, w.outflow, w.moved, w.closing]);
      let micro = 0;
      for (const p of declaredPositions(defaultHistory(1), x.wallet, chain))
        for (const leg of p.legs) if (onChain(leg.key, chain).address === x.token_cid) micro += qtyOn(leg, p, d1) - qtyOn(leg, p, d0);
      // The position part moves by the accruals and by what the transactions that open or close
      // positions moved into or out of them (moves, not flows: the token stays the wallet's).
      expect(x.unexplained_qty, what).toBeCloseTo((micro - w.moved) / 1e6, 6);
      expect(Math.round(x.unexplained_qty! * 1e6), what).toBe(micro - w.moved);
      expect(micro - w.moved, what).toBe(w.accrual);
      if (w.moved) counts.moved++;
      if (x.status === 'reconciled') counts.reconciled++;
      else counts.accrual++;
    }
    expect(counts.reconciled + counts.accrual).toBe(r.rows.length);
    expect(counts.accrual).toBeGreaterThan(5);
    if (from === '2025-09-30') expect(counts.moved).toBeGreaterThanOrEqual(6);
  });

  it.each(PERIODS)(
    'from %s to %s, the moves are the world’s openings and closings in the period, exactly their quantities, and nothing else',
    async (from, to) => {
      const r = await core.call('reconcile.get', { from, to });
      const [d0, d1] = [from, to].map((d) => Date.parse(`${d}T00:00:00Z`) / DAY_MS) as [number, number];
      const held = (p: { openDay: number; closeDay: number }, day: number) => p.openDay <= day && day < p.closeDay;
      const want: string[] = [];
      for (const w of DEMO_WALLETS)
        for (const id of w.chains) {
          const chain = chainById(id)!;
          const h = historyOf(defaultHistory(1), w.address, chain);
          const { byIndex, spans } = positionEventsOf(h);
          for (const [i, e] of byIndex) {
            const span = spans.get(e.template)!;
            const day = e.kind === 'open' ? span.openDay : span.closeDay;
            // In the period, and held at one end only (one opened and closed inside it is at neither end).
            if (day <= d0 || day > d1 || held(span, d0) === held(span, d1)) continue;
            const t = transactionAt(h, i);
            const transfers = t.details.map((d) => `${d.type}:${d.token_cid}:${Math.round(d.qty * 1e6)}`).sort();
            want.push(`${w.address}|${id}|${t.txn_hash}|${e.kind}|${transfers.join(',')}`);
          }
        }
      const got = r.moves.map((m) => {
        const transfers = m.transfers.map((t) => `${t.type}:${t.token_cid}:${Math.round(t.qty * 1e6)}`).sort();
        return `${m.wallet}|${m.chain}|${m.txn_hash}|${m.kind}|${transfers.join(',')}`;
      });
      expect(got.sort()).toEqual(want.sort());
      // Named by what they do: the principal into (or out of) the position, a debt drawn (or repaid).
      for (const m of r.moves)
        for (const t of m.transfers)
          expect(t.move).toBe(t.debt ? (t.type === 'in' ? 'debt_drawn' : 'debt_repaid') : t.type === 'out' ? 'moved_into_positions' : 'moved_out_of_positions');
      if (from !== '2026-09-30') expect(r.moves.length).toBeGreaterThan(0);
    },
  );

  it('opens and closes a protocol position only with a transaction that moves its quantities', () => {
    let events = 0;
    for (const w of DEMO_WALLETS) {
      for (const id of w.chains) {
        const chain = chainById(id)!;
        const h = historyOf(defaultHistory(1), w.address, chain);
        const firstDay = Math.floor(timeOf(h, 0) / 86_400);
        /** The successful transactions of a day that move exactly these quantities (micro-units by token address). */
        const movers = (day: number, want: Map<string, number>) => {
          const [i0, i1] = indexRange(h, day * 86_400, day * 86_400 + 86_399);
          const found = [];
          for (let i = i0; i < i1; i++) {
            const t = transactionAt(h, i);
            const got = new Map(t.details.map((d) => [d.token_cid, Math.round(d.qty * 1e6) * (d.type === 'in' ? 1 : -1)]));
            if (t.status === 1 && got.size === want.size && [...want].every(([k, v]) => got.get(k) === v)) found.push(t);
          }
          return found;
        };
        for (const p of declaredPositions(defaultHistory(1), w.address, chain)) {
          // Held from before the wallet's first transaction: an opening balance, like the wallet's own.
          if (p.openDay >= firstDay) {
            const want = new Map<string, number>();
            for (const l of p.legs) if (l.kind !== 'reward') want.set(onChain(l.key, chain).address, -Math.round(l.qty0 * 1e6));
            expect(
              movers(p.openDay, want).map((t) => t.action_type),
              `${p.cid} opens`,
            ).toEqual(['deposit']);
            events++;
          }
          if (p.closeDay !== Number.POSITIVE_INFINITY) {
            const want = new Map<string, number>();
            for (const l of p.legs) {
              const micro = Math.round((l.qty0 * Math.exp((l.rate * (p.closeDay - p.openDay)) / 365) + l.perDay * (p.closeDay - p.openDay)) * 1e6);
              if (micro !== 0) want.set(onChain(l.key, chain).address, micro);
            }
            expect(
              movers(p.closeDay, want).map((t) => t.action_type),
              `${p.cid} closes`,
            ).toEqual(['withdraw']);
            events++;
          }
        }
      }
    }
    expect(events).toBeGreaterThan(3);
  });

  it('decodes every log of the demo transactions a newcomer opens', async () => {
    const page = await core.call('timeline.page', { limit: 60 });
    const rows = page.rows.filter((t) => t.status === 1);
    const actions = new Set(rows.map((t) => t.actionType));
    expect(actions.size).toBeGreaterThan(5);
    let decoded = 0;
    const names = new Set<string>();
    // One or two of each action, as a person clicking down the timeline would.
    for (const action of actions) {
      for (const t of rows.filter((x) => x.actionType === action).slice(0, 2)) {
        const set = await core.call('logs.get', { chain: t.chain, txnHash: t.txnHash });
        expect(set.complete).toBe(true);
        for (const l of set.logs) {
          const d = decodeLog(l.topics, l.data);
          expect(d, `${t.txnHash} ${action} log ${l.log_index}: ${eventName(l.topics[0]) ?? 'not a well-known event'}`).not.toBeNull();
          names.add(d!.name);
          decoded++;
        }
        // Each token the transaction moved (but the native one, which moves without a log) has its Transfer.
        const erc20 = t.details.filter((d) => d.token_cid !== '0x' + 'e'.repeat(40));
        if (erc20.length) expect(set.logs.some((l) => decodeLog(l.topics, l.data)?.name === 'Transfer')).toBe(true);
      }
    }
    expect(decoded).toBeGreaterThan(10);
    expect(names).toContain('Transfer');
  });
});
