import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { decodeLog, eventName } from '../../src/shared/signatures.ts';
import { chainById } from '../../src/sim/chains.ts';
import { onChain } from '../../src/sim/catalog.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { DAY_MS, declaredPositions } from '../../src/sim/positions.ts';
import { defaultHistory, historyOf, indexRange, timeOf, transactionAt } from '../../src/sim/transactions.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * The demo as a newcomer meets it (issue 27): the core in demo mode with the shells' starter,
 * the two wallets the first screen offers, synced; then the two features tried first. Reconcile:
 * every token's plain wallet balance moves by exactly its transfers, so whatever is unexplained
 * sits in protocol positions: exactly their declared accruals (interest, rebases, rewards), recomputed
 * here from the rates the generator declares, and what the transactions that open or close them moved. Logs: every log of the demo's
 * transactions decodes as a well-known event.
 */
const DEMO_WALLETS = [
  { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth', 'arb'] },
  { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] },
];
/** The last complete month before the demo's clock, and one well inside the history. */
const PERIODS = [
  ['2026-09-30', '2026-10-31'],
  ['2025-05-31', '2025-06-30'],
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

  it.each(PERIODS)('explains every remainder from %s to %s by the declared accruals and openings, to the digits the service sends', async (from, to) => {
    const r = await core.call('reconcile.get', { from, to });
    const [d0, d1] = [from, to].map((d) => Date.parse(`${d}T00:00:00Z`) / DAY_MS) as [number, number];
    // A leg's quantity on a day from its declared course, as the service rounds it (micro-units);
    // nothing where the position is not held that day.
    const qtyOn = (leg: { qty0: number; rate: number; perDay: number }, p: { openDay: number; closeDay: number }, day: number) =>
      day < p.openDay || day >= p.closeDay ? 0 : Math.round((leg.qty0 * Math.exp((leg.rate * (day - p.openDay)) / 365) + leg.perDay * (day - p.openDay)) * 1e6);
    const counts = { reconciled: 0, accrual: 0, openedOrClosed: 0 };
    for (const x of r.rows) {
      const chain = chainById(x.chain)!;
      let micro = 0;
      let moved = false;
      for (const p of declaredPositions(defaultHistory(1), x.wallet, chain)) {
        for (const leg of p.legs) {
          if (onChain(leg.key, chain).address !== x.token_cid) continue;
          micro += qtyOn(leg, p, d1) - qtyOn(leg, p, d0);
          if ((p.openDay > d0 && p.openDay <= d1) || (p.closeDay > d0 && p.closeDay <= d1)) moved = true;
        }
      }
      const what = `${x.wallet} ${x.chain} ${x.token_symbol}`;
      // The position part moves by the accruals, and by what an opening or closing transaction moved in
      // or out (the roll-forward counts that transfer as a flow while the token stays the wallet's).
      expect(x.unexplained_qty, what).toBeCloseTo(micro / 1e6, 6);
      if (x.status === 'reconciled') counts.reconciled++;
      else if (moved) counts.openedOrClosed++;
      else counts.accrual++;
    }
    expect(counts.reconciled + counts.accrual + counts.openedOrClosed).toBe(r.rows.length);
    expect(counts.accrual).toBeGreaterThan(5);
  });

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
