import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { decimalSum } from '../../src/shared/decimal.ts';
import { chainById } from '../../src/sim/chains.ts';
import { TOKENS, onChain, priceOn } from '../../src/sim/catalog.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { defaultHistory, historyOf, indexRange, transactionAt } from '../../src/sim/transactions.ts';
import { rollForwardLines } from '../../src/shared/pack.ts';
import { worldPeriod, type WorldTransfer } from '../support/world.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * The monthly pack (issue 28, item 5) over the demo's October 2026, both demo wallets, with
 * positions cached weekly. Checked against the reference service's own generator, not against
 * the client's code: the month's transfers come from its transaction plan and are valued with
 * its price model at the cached date the pack says it used, so a flow counted twice, missed,
 * signed wrongly or valued at the wrong day's price shows. The lines must add up to the change
 * in the scope's total to the cent, and every breakdown to the lines.
 */
const DEMO_WALLETS = [
  { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth', 'arb'] },
  { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] },
];
const FROM = '2026-09-30';
const TO = '2026-10-31';
/** A month in which the demo wallets open four positions of their own, a loan among them. */
const MOVES_FROM = '2025-09-30';
const MOVES_TO = '2025-10-31';
const DAY = 86_400_000;
let core: Core;

beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
  for (const w of DEMO_WALLETS) await core.call('wallets.add', { address: w.address, chains: w.chains });
  await waitForJobs(core, await core.call('sync.all', undefined));
  for (const w of DEMO_WALLETS) await waitForJobs(core, [await core.call('sync.backfill', { wallet: w.address, from: FROM, to: TO, every: 'week' })]);
  for (const w of DEMO_WALLETS) await waitForJobs(core, await Promise.all([FROM, TO].map((date) => core.call('sync.positions', { wallet: w.address, date }))));
  for (const w of DEMO_WALLETS)
    await waitForJobs(core, [await core.call('sync.backfill', { wallet: w.address, from: MOVES_FROM, to: MOVES_TO, every: 'week' })]);
  for (const w of DEMO_WALLETS)
    await waitForJobs(core, await Promise.all([MOVES_FROM, MOVES_TO].map((date) => core.call('sync.positions', { wallet: w.address, date }))));
}, 240_000);
afterAll(() => core?.close());

const sum = (xs: number[]) => decimalSum(xs);

describe('the monthly pack', () => {
  it('adds up: opening + flows + accruals + price effect = closing, to the cent, and every breakdown to its lines', async () => {
    const p = await core.call('pack.get', { month: '2026-10' });
    expect(p).toMatchObject({ from: FROM, to: TO, scope: 'All wallets', complete: true, reasons: [] });
    const view0 = await core.call('portfolio.view', { date: FROM });
    const view1 = await core.call('portfolio.view', { date: TO });
    expect(p.opening).toBe(view0.totals.total);
    expect(p.closing).toBe(view1.totals.total);
    expect(sum([p.opening!, p.inflows, -p.outflows, p.internal, p.accruals!, p.priceEffect!, p.other!])).toBe(p.closing);
    // The positions view and the by-token view agree here: what is left is rounding to the cent.
    expect(Math.abs(p.other!)).toBeLessThanOrEqual(0.05);
    for (const lines of [p.byCategory, p.byCounterparty, p.byWallet, p.byProtocol, p.byChain]) {
      expect(sum(lines.map((l) => l.inflow))).toBeCloseTo(p.inflows, 1);
      expect(sum(lines.map((l) => l.outflow))).toBeCloseTo(p.outflows, 1);
    }
    // Opening and closing by part add up to the totals.
    for (const parts of [p.byWallet, p.byChain, p.byProtocol]) {
      expect(sum(parts.map((x) => x.opening ?? 0))).toBeCloseTo(p.opening!, 2);
      expect(sum(parts.map((x) => x.closing ?? 0))).toBeCloseTo(p.closing!, 2);
    }
    // Per token: its own roll-forward closes exactly.
    for (const t of p.tokens) expect(sum([t.openingNav!, t.flowValue!, t.accrualValue!, t.priceEffect!])).toBeCloseTo(t.closingNav!, 1);
    expect(p.internal).toBe(0);
    // Swaps and deposits are told apart from money sent and received, and are part of the flows.
    expect(p.protocolIn).toBeGreaterThan(0);
    expect(p.protocolIn).toBeLessThan(p.inflows);
    expect(p.protocolOut).toBeLessThan(p.outflows);
    expect(sum(p.byProtocol.filter((x) => x.key !== '' && x.key !== 'wallet').map((x) => x.inflow))).toBeCloseTo(p.protocolIn, 1);
    // Without an address book every counterparty is unknown, and every outflow is flagged.
    expect(p.byCounterparty.every((c) => c.kind === 'unknown')).toBe(true);
    expect(p.unknownOutflows).toBeGreaterThan(0);
  });

  it('counts and values the month’s transfers as the reference service made them', async () => {
    const p = await core.call('pack.get', { month: '2026-10' });
    const cached = (await core.call('positions.dates', {})).filter((d) => d >= FROM && d <= TO).sort();
    expect(cached.length).toBeGreaterThanOrEqual(5);
    const start = Date.parse(`${FROM}T00:00:00Z`) + DAY;
    const end = Date.parse(`${TO}T00:00:00Z`) + DAY;
    let inflow = 0;
    let outflow = 0;
    let transfers = 0;
    for (const w of DEMO_WALLETS)
      for (const chainId of w.chains) {
        const chain = chainById(chainId)!;
        const keyOf = new Map(Object.keys(TOKENS).map((k) => [onChain(k, chain).address, k]));
        // The tokens the scope holds at each cached date on this chain: only those dates price it.
        const heldOn = new Map<string, Set<string>>();
        for (const date of cached) {
          const v = await core.call('portfolio.view', { date });
          heldOn.set(
            date,
            new Set(v.underlying.filter((u) => u.chain === chainId && (u.group.total_qty ?? 0) !== 0).map((u) => u.group.token_cid!.toLowerCase())),
          );
        }
        const h = historyOf(defaultHistory(1), w.address, chain);
        const [i0, i1] = indexRange(h, start / 1000, end / 1000 - 1);
        for (let i = i0; i < i1; i++) {
          const t = transactionAt(h, i);
          if (t.status !== 1) continue;
          const day = t.date!.slice(0, 10);
          for (const d of t.details) {
            const key = keyOf.get(d.token_cid!)!;
            let best: string | null = null;
            for (const date of cached)
              if (
                heldOn.get(date)!.has(d.token_cid!.toLowerCase()) &&
                (best === null || Math.abs(Date.parse(date) - Date.parse(day)) < Math.abs(Date.parse(best) - Date.parse(day)))
              )
                best = date;
            expect(best, `${t.txn_hash} ${d.symbol}`).not.toBeNull();
            const value = d.qty! * priceOn(key, Date.parse(best!) / DAY, chain.id);
            if (d.type === 'in') inflow += value;
            else outflow += value;
            transfers++;
          }
        }
      }
    expect(sum(p.byCategory.map((c) => c.transfers))).toBe(transfers);
    // The service rounds quantities and values in its snapshots; the implied prices carry that.
    expect(p.inflows).toBeCloseTo(inflow, -1);
    expect(p.outflows).toBeCloseTo(outflow, -1);
    expect(Math.abs(p.inflows - inflow) / inflow).toBeLessThan(1e-5);
    expect(Math.abs(p.outflows - outflow) / outflow).toBeLessThan(1e-5);
  });

  it('is partial, naming why, where a member is not cached at an end or the period is not synced', async () => {
    // A date with no positions cached at all: both ends partial, the month's flows unproved.
    const p = await core.call('pack.get', { from: '2026-10-31', to: '2026-11-03' });
    expect(p.complete).toBe(false);
    expect(p.closing).toBeNull();
    expect(p.change).toBeNull();
    // The lines of a change that cannot be known are unknown, not 0.
    expect([p.accruals, p.priceEffect, p.other]).toEqual([null, null, null]);
    expect(p.reasons.join(' ')).toMatch(/not cached at 2026-11-03/);
    // One wallet of a group not cached at the opening date.
    await waitForJobs(core, [await core.call('sync.positions', { wallet: DEMO_WALLETS[1]!.address, date: '2026-08-31' })]);
    const group = await core.call('groups.save', { name: 'Fund', wallets: DEMO_WALLETS.map((w) => w.address) });
    const q = await core.call('pack.get', { group: group.id, from: '2026-08-31', to: TO });
    expect(q).toMatchObject({ scope: 'Fund', complete: false });
    expect(q.reasons[0]).toMatch(/^Partial: .*not cached at 2026-08-31/);
    expect(await core.dispatch('pack.get', { month: '2026-13' })).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(await core.dispatch('pack.get', {})).toMatchObject({ ok: false, error: { field: 'month' } });
  });
});

describe('a month in which the scope opens positions of its own', () => {
  // Against the world's plan (test/support/world.ts): which transfers are its openings' deposits and
  // debts drawn, and what its positions accrued. Before moves were told apart, each deposit was
  // counted as money sent or a protocol move and its quantity again under accruals.
  it('names the deposits and the debt drawn, keeps them out of the flows and the accruals, and still adds up to the cent', async () => {
    const p = await core.call('pack.get', { month: '2025-10' });
    expect(p).toMatchObject({ from: MOVES_FROM, to: MOVES_TO, complete: true, reasons: [] });
    const world = worldPeriod(MOVES_FROM, MOVES_TO);
    const cached = (await core.call('positions.dates', {})).filter((d) => d >= MOVES_FROM && d <= MOVES_TO).sort();
    // Each transfer at the world's price on the cached date nearest its day where the scope holds the token (as the pack values it).
    const heldOn = new Map<string, Set<string>>();
    for (const date of cached)
      heldOn.set(
        date,
        new Set(
          (await core.call('portfolio.view', { date })).underlying
            .filter((u) => (u.group.total_qty ?? 0) !== 0)
            .map((u) => `${u.chain}|${u.group.token_cid!.toLowerCase()}`),
        ),
      );
    const valueOf = (t: WorldTransfer) => {
      let best: string | null = null;
      const day = new Date(t.day * DAY).toISOString().slice(0, 10);
      for (const date of cached)
        if (
          heldOn.get(date)!.has(`${t.chain}|${t.tokenCid}`) &&
          (best === null || Math.abs(Date.parse(date) - Date.parse(day)) < Math.abs(Date.parse(best) - Date.parse(day)))
        )
          best = date;
      return t.qty * priceOn(t.key, Date.parse(best!) / DAY, t.chain);
    };
    const moves = { moved_into_positions: 0, moved_out_of_positions: 0, debt_drawn: 0, debt_repaid: 0 };
    let outflow = 0;
    let inflow = 0;
    for (const t of world.transfers) {
      if (t.move) moves[t.move] += valueOf(t);
      else if (t.type === 'in') inflow += valueOf(t);
      else outflow += valueOf(t);
    }
    expect(moves.moved_into_positions).toBeGreaterThan(100_000);
    expect(moves.debt_drawn).toBeGreaterThan(100);
    // Not flows: what was sent and received is the rest of the world's transfers.
    expect(Math.abs(p.outflows - outflow) / outflow).toBeLessThan(1e-5);
    expect(Math.abs(p.inflows - inflow) / inflow).toBeLessThan(1e-5);
    // Not accruals either: those are the world's declared accruals, at the closing prices.
    let accrual = 0;
    for (const [k, r] of world.rows) {
      const [, chain, cid] = k.split('|') as [string, string, string];
      const key = Object.keys(TOKENS).find((t) => onChain(t, chainById(chain)!).address === cid)!;
      accrual += (r.accrual / 1e6) * priceOn(key, Date.parse(MOVES_TO) / DAY, chain);
    }
    expect(Math.abs(p.accruals! - accrual)).toBeLessThanOrEqual(Math.max(1, 1e-4 * Math.abs(accrual)));
    // Named, at the world's values (the snapshots' implied prices carry the service's rounding).
    for (const k of Object.keys(moves) as Array<keyof typeof moves>)
      expect(Math.abs(p.positionMoves![k] - moves[k]), k).toBeLessThanOrEqual(1e-5 * moves[k] + 0.01);
    const lines = rollForwardLines(p);
    expect(lines.filter((l) => l.memo).map((l) => [l.key, l.value])).toEqual(Object.entries(p.positionMoves!));
    // The lines from the opening add up to the closing to the cent; the moves are outside the sum.
    expect(sum([p.opening!, p.inflows, -p.outflows, p.internal, p.accruals!, p.priceEffect!, p.other!])).toBe(p.closing);
    expect(sum(lines.filter((l) => !l.total && !l.memo && l.key !== 'change').map((l) => l.value!))).toBe(sum([p.closing!, -p.opening!]));
    // The positions view and the by-token view agree to the cent at both ends, so `other` is only
    // each token's lines rounded to the cent (at most half a cent per token and line).
    expect([sum(p.tokens.map((t) => t.openingNav!)), sum(p.tokens.map((t) => t.closingNav!))]).toEqual([p.opening, p.closing]);
    expect(Math.abs(p.other!)).toBeLessThanOrEqual(0.005 * (2 * p.tokens.length + 1));
    for (const t of p.tokens) expect(sum([t.openingNav!, t.flowValue!, t.accrualValue!, t.priceEffect!])).toBeCloseTo(t.closingNav!, 1);
  });
});

describe('the monthly pack as files, written by the program as a user runs it', () => {
  it('the PDF, the CSV and pack.get agree line by line; the PDF regenerates byte for byte', async () => {
    const { spawnSync } = await import('node:child_process');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { parse } = await import('csv-parse/sync');
    const { CLI } = await import('../support/cli-process.ts');
    const info = await core.call('app.info', undefined);
    const pack = await core.call('pack.get', { month: '2026-10' });
    await core.close();
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [CLI, '--data-dir', info.dataDir, ...args], {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: '' },
      });
    const dir = info.dataDir;
    const pdf = join(dir, 'pack.pdf');
    const made = cli(['export', 'pdf', '--document', 'pack', '--month', '2026-10', '--out', pdf]);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/Wrote a \d+-page monthly pack \(2026-09-30 to 2026-10-31\)/);
    const text = spawnSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).stdout;
    const usd = (v: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(v);
    expect(text).toContain('Monthly pack: All wallets');
    for (const [label, v] of [
      ['Opening NAV (2026-09-30)', usd(pack.opening!)],
      ['Received (transfers in)', `+${usd(pack.inflows - pack.protocolIn)}`],
      ['Sent (transfers out)', usd(-(pack.outflows - pack.protocolOut))],
      ['Trades and protocol moves (net)', `${pack.protocolIn - pack.protocolOut > 0 ? '+' : ''}${usd(pack.protocolIn - pack.protocolOut)}`],
      ['Price effect', `${pack.priceEffect! > 0 ? '+' : ''}${usd(pack.priceEffect!)}`],
      ['Closing NAV (2026-10-31)', usd(pack.closing!)],
    ] as const)
      expect(text).toMatch(new RegExp(`${label.replace(/[()]/g, '\\$&')}\\s+${v.replace(/[$+.]/g, '\\$&')}`));
    // Byte for byte, the same request again.
    const again = join(dir, 'pack-again.pdf');
    expect(cli(['export', 'pdf', '--document', 'pack', '--from', '2026-09-30', '--to', '2026-10-31', '--out', again]).status).toBe(0);
    expect(readFileSync(again).equals(readFileSync(pdf))).toBe(true);

    const csv = join(dir, 'pack.csv');
    const wrote = cli(['export', 'csv', '--report', 'pack', '--month', '2026-10', '--out', csv]);
    expect(wrote.status, wrote.stderr).toBe(0);
    const rows = parse(readFileSync(csv), { columns: true, bom: true }) as Array<Record<string, string>>;
    const summary = new Map(rows.filter((r) => r['section'] === 'summary').map((r) => [r['key'], Number(r['value_usd'])]));
    expect(summary.get('opening')).toBe(pack.opening);
    expect(summary.get('received')).toBe(sum([pack.inflows, -pack.protocolIn]));
    expect(summary.get('sent')).toBe(sum([-pack.outflows, pack.protocolOut]));
    expect(summary.get('protocol_moves')).toBe(sum([pack.protocolIn, -pack.protocolOut]));
    // The summary's lines from the opening add up to the closing in the file too.
    expect(sum([...summary].filter(([k]) => !['closing', 'change'].includes(k!)).map(([, v]) => v))).toBe(pack.closing);
    expect(summary.get('closing')).toBe(pack.closing);
    expect(rows.filter((r) => r['section'] === 'counterparty')).toHaveLength(pack.byCounterparty.length);
    expect(rows.filter((r) => r['section'] === 'token')).toHaveLength(pack.tokens.length);

    // A period not cached: the file says partial, the CLI says why and exits 3.
    const partial = cli(['export', 'csv', '--report', 'pack', '--from', '2026-10-31', '--to', '2026-11-03', '--out', join(dir, 'partial.csv')]);
    expect(partial.status).toBe(3);
    expect(partial.stdout).toMatch(/not cached at 2026-11-03/);
    expect(cli(['export', 'csv', '--report', 'pack', '--month', '2026-13', '--out', csv]).status).toBe(2);
    expect(cli(['export', 'csv', '--report', 'positions', '--month', '2026-10', '--out', csv]).status).toBe(2);
  }, 120_000);
});
