import { describe, expect, it } from 'vitest';
import type { PositionsResult } from '../../src/shared/contract.ts';
import type { TimelineRow } from '../../src/shared/model.ts';
import { ago, pct, price, qty, setLocale, usd } from '../../src/renderer/src/lib/format.ts';
import { freshness } from '../../src/renderer/src/lib/freshness.ts';
import { rangeStart, sortBy } from '../../src/renderer/src/lib/portfolio.ts';
import { allocation, positionRows, totals } from '../../src/shared/portfolio/rows.ts';
import { isAtRisk } from '../../src/shared/portfolio/risk.ts';
import { formatRoute, parseRoute } from '../../src/renderer/src/lib/route.svelte.ts';
import { appendByDay, groupByDay, transferSummary } from '../../src/renderer/src/lib/timeline.ts';
import { checkWalletForm } from '../../src/renderer/src/lib/wallet-form.ts';
import { tabListMove, verticalMove } from '../../src/renderer/src/lib/roving.ts';

describe('formatting for the locale', () => {
  it('formats money, quantities and percentages, with a dash for missing values', () => {
    setLocale('en-US');
    expect(usd(1234.5)).toBe('$1,234.50');
    expect(usd(-12, { sign: true })).toBe('-$12.00');
    expect(usd(1_250_000, { compact: true })).toBe('$1.3M');
    expect(usd(null)).toBe('—');
    expect(qty(0.00012345)).toBe('0.000123');
    expect(pct(12.3456)).toBe('12.35%');
    setLocale('de-DE');
    expect(usd(1234.5)).toBe('1.234,50\u00a0$');
    setLocale(null);
  });

  it('formats an implied price: cents from 1 up, four significant digits below, a dash when unknown', () => {
    setLocale('en-US');
    expect(price(2280.031)).toBe('$2,280.03');
    expect(price(0.3458)).toBe('$0.3458');
    expect(price(0.00001234)).toBe('$0.00001234');
    expect(price(-0.5)).toBe('-$0.50');
    expect(price(null)).toBe('—');
    setLocale(null);
  });

  it('says how long ago', () => {
    setLocale('en-US');
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(ago('2026-11-22T11:55:00Z', now)).toBe('5 min. ago');
    expect(ago('2026-11-19T12:00:00Z', now)).toBe('3 days ago');
    expect(ago(null, now)).toBe('never');
    setLocale(null);
  });
});

describe('the route in the URL', () => {
  it('round-trips tab, wallet, date and timeline filters', () => {
    const r = parseRoute('#/timeline?wallet=0xabc&action=swap,stake&status=0&from=2025-01-01&q=0xdeadbeef');
    expect(r).toMatchObject({ tab: 'timeline', wallet: '0xabc', action: ['swap', 'stake'], status: ['0'], from: '2025-01-01', q: '0xdeadbeef' });
    expect(parseRoute(formatRoute(r))).toEqual(r);
    expect(parseRoute('#/nonsense')).toMatchObject({ tab: 'overview', view: 'all', range: '1y' });
    expect(formatRoute({ ...parseRoute(''), tab: 'positions', view: 'liquidity', compare: '2025-01-01' })).toBe(
      '#/positions?view=liquidity&compare=2025-01-01',
    );
  });

  it('keeps the timeline’s “Hide spam” (shown dimmed unless asked), and only on the timeline', () => {
    expect(parseRoute('#/timeline').hideSpam).toBe(false);
    const r = parseRoute('#/timeline?wallet=0xabc&spam=hide');
    expect(r.hideSpam).toBe(true);
    expect(parseRoute(formatRoute(r))).toEqual(r);
    expect(formatRoute({ ...r, tab: 'overview' })).toBe('#/overview?wallet=0xabc');
  });
});

const position = (name: string, principal: number | null, reward: number | null, extra: Record<string, unknown> = {}) => ({
  asset_type: 'lending',
  chain_id: 'eth',
  protocol_id: 'aave_v3',
  cid: name,
  name,
  symbol: null,
  principal_nav: principal,
  reward_nav: reward,
  underlying: [],
  ...extra,
});

describe('portfolio helpers', () => {
  const results = [
    {
      wallet: '0xa',
      date: '2025-01-01',
      view: 'all',
      chains: [
        {
          chain: 'eth',
          snapshot: { data: [{ wallet_id: '0xa', date: null, positions: [position('A', 100, 5), position('B', null, null, { asset_type: 'wallet' })] }] },
        },
        { chain: 'arb', snapshot: null },
      ],
    },
    {
      wallet: '0xb',
      date: '2025-01-01',
      view: 'all',
      chains: [
        {
          chain: 'arb',
          snapshot: {
            data: [
              {
                wallet_id: '0xb',
                date: null,
                positions: [
                  position('C', 50, 0, {
                    underlying: [{ internal_id: 'x', name: null, symbol: null, qty: 1, nav: 50, details: { collateral_debt_ratio: 1.3, liq_threshold: 0.8 } }],
                  }),
                ],
              },
            ],
          },
        },
      ],
    },
  ] as unknown as PositionsResult[];

  it('flattens snapshots into rows with totals, keeping unknown values unknown', () => {
    const rows = positionRows(results);
    expect(rows.map((r) => [r.wallet, r.chain, r.total])).toEqual([
      ['0xa', 'eth', 105],
      ['0xa', 'eth', null],
      ['0xb', 'arb', 50],
    ]);
    expect(totals(rows)).toEqual({ total: 155, principal: 150, reward: 5, count: 3 });
    expect(totals([])).toEqual({ total: null, principal: null, reward: null, count: 0 });
  });

  it('flags lending positions near liquidation', () => {
    const rows = positionRows(results);
    expect(rows.find((r) => r.position.name === 'C')?.atRisk).toBe(true); // 1.3 × 0.8 = 1.04 < 1.15
    expect(isAtRisk(2, 0.8)).toBe(false);
    expect(isAtRisk(null, 0.8)).toBe(false);
  });

  it('allocates by type, protocol and chain, largest first', () => {
    const rows = positionRows(results);
    expect(allocation(rows, 'chain')).toEqual([
      { label: 'eth', value: 105 },
      { label: 'arb', value: 50 },
    ]);
    expect(allocation(rows, 'asset_type')).toEqual([{ label: 'lending', value: 155 }]);
  });

  it('sorts with nulls last either way', () => {
    const xs = [{ v: 2 }, { v: null }, { v: 5 }];
    expect(sortBy(xs, (x) => x.v, 'asc').map((x) => x.v)).toEqual([2, 5, null]);
    expect(sortBy(xs, (x) => x.v, 'desc').map((x) => x.v)).toEqual([5, 2, null]);
  });

  it('range presets start where they say, with a fitting step', () => {
    expect(rangeStart('30d', '2025-03-31')).toEqual({ from: '2025-03-02', every: 'day' });
    expect(rangeStart('1y', '2025-03-31')).toEqual({ from: '2024-03-31', every: 'week' });
    expect(rangeStart('all', '2025-03-31').every).toBe('month');
  });
});

describe('timeline grouping', () => {
  const row = (id: number, date: string, extra: Partial<TimelineRow> = {}): TimelineRow => ({
    id,
    wallet: '0xa',
    chain: 'eth',
    txnHash: `0x${id}`,
    date,
    block: 1,
    from: null,
    to: null,
    fromType: null,
    toType: null,
    txnFee: null,
    gasFee: null,
    actionType: 'swap',
    methodHex: null,
    protocolId: null,
    status: 1,
    details: [],
    ...extra,
  });

  it('puts a heading before each day, counting its transactions', () => {
    const items = groupByDay([row(3, '2025-01-02T10:00:00.000Z'), row(2, '2025-01-02T01:00:00.000Z'), row(1, '2025-01-01T09:00:00.000Z')]);
    expect(items.map((i) => (i.kind === 'day' ? `${i.date}:${i.count}` : i.row.id))).toEqual(['2025-01-02:2', 3, 2, '2025-01-01:1', 1]);
  });

  it('summarises transfers', () => {
    const r = row(1, '2025-01-01T00:00:00Z', {
      details: [
        { token_cid: null, type: 'out', qty: 1, symbol: 'WETH' },
        { token_cid: null, type: 'in', qty: 2500, symbol: 'USDC' },
      ],
    });
    expect(transferSummary(r, (n) => (n! > 0 ? `+${n}` : String(n)))).toBe('-1 WETH → +2500 USDC');
    expect(transferSummary(row(2, '2025-01-01T00:00:00Z', { status: 0 }), String)).toBe('failed — nothing moved');
  });
});

describe('wallet form and freshness', () => {
  it('checks the address and chains before asking the core', () => {
    expect(checkWalletForm({ address: '', chains: ['eth'] })).toEqual({ address: 'Enter a wallet address.' });
    expect(checkWalletForm({ address: '0x12', chains: [] })).toEqual({
      address: 'Not an EVM address: expected 0x followed by 40 hexadecimal characters.',
      chains: 'Choose at least one chain.',
    });
    expect(checkWalletForm({ address: '0x' + 'a'.repeat(40), chains: ['eth'] })).toEqual({});
  });

  it('says how fresh a wallet is, offline, or that its sync failed', () => {
    setLocale('en-US');
    const now = Date.parse('2026-11-22T12:00:00Z');
    const status = {
      address: '0xa',
      positionsFetchedAt: '2026-11-22T11:55:00Z',
      transactionsSyncedAt: '2026-11-22T11:50:00Z',
      latestDate: null,
      incomplete: false,
      lastError: null,
    };
    expect(freshness(status, false, now)).toEqual({ level: 'fresh', text: 'Synced 5 min. ago', short: 'Synced 5 min. ago' });
    expect(freshness({ ...status, positionsFetchedAt: '2026-11-19T12:00:00Z', transactionsSyncedAt: null }, true, now)).toEqual({
      level: 'offline',
      text: 'Offline — cached 3 days ago',
      short: 'Offline — cached 3 days ago',
    });
    expect(freshness({ ...status, lastError: { kind: 'network', message: 'Could not reach the service', retryable: true } }, false, now).text).toBe(
      'Sync failed: Could not reach the service',
    );
    expect(freshness(undefined, false, now).level).toBe('never');
    setLocale(null);
  });
});

describe('appending timeline pages', () => {
  const row = (id: number, date: string): TimelineRow => ({
    id,
    wallet: '0xa',
    chain: 'eth',
    txnHash: `0x${id}`,
    date,
    block: 1,
    from: null,
    to: null,
    fromType: null,
    toType: null,
    txnFee: null,
    gasFee: null,
    actionType: 'swap',
    methodHex: null,
    protocolId: null,
    status: 1,
    details: [],
  });

  it('gives the same items as grouping everything at once, continuing a day across pages', () => {
    const all = [
      row(6, '2025-01-03T10:00:00Z'),
      row(5, '2025-01-02T12:00:00Z'),
      row(4, '2025-01-02T08:00:00Z'),
      row(3, '2025-01-02T01:00:00Z'),
      row(2, '2025-01-01T09:00:00Z'),
      row(1, '2025-01-01T01:00:00Z'),
    ];
    const paged = appendByDay(appendByDay(groupByDay(all.slice(0, 2)), all.slice(2, 5)), all.slice(5));
    expect(paged).toEqual(groupByDay(all));
  });
});

describe('roving focus moves', () => {
  it('a vertical list stops at its ends; Home and End jump; other keys are not its own', () => {
    expect(verticalMove('ArrowDown', 0, 3)).toBe(1);
    expect(verticalMove('ArrowDown', 2, 3)).toBe(2);
    expect(verticalMove('ArrowUp', 0, 3)).toBe(0);
    expect(verticalMove('ArrowDown', -1, 3)).toBe(0);
    expect(verticalMove('Home', 2, 3)).toBe(0);
    expect(verticalMove('End', 0, 3)).toBe(2);
    expect(verticalMove('ArrowRight', 1, 3)).toBe(-1);
  });

  it('a tab list wraps around', () => {
    expect(tabListMove('ArrowRight', 2, 3)).toBe(0);
    expect(tabListMove('ArrowLeft', 0, 3)).toBe(2);
    expect(tabListMove('Home', 1, 3)).toBe(0);
    expect(tabListMove('End', 0, 3)).toBe(2);
    expect(tabListMove('ArrowDown', 1, 3)).toBe(-1);
  });
});
