import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/shared/model.ts';
import { alertText, isHigh, type AlertNames } from '../../src/renderer/src/lib/alert-text.ts';
import { setLocale } from '../../src/renderer/src/lib/format.ts';

/** Intl separates a number from "%" and "$" with no-break spaces; the assertions read plain ones. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

afterEach(() => setLocale(null));

describe('alert texts in the inbox are written in the locale from the stored figures', () => {
  const names: AlertNames = {
    walletLabel: (a) => (a === '0xabc' ? 'Treasury' : null),
    scope: (s) => (s.kind === 'all' ? 'all wallets' : s.kind === 'group' ? `Group: G${s.id}` : s.address),
  };
  const alert = (kind: Alert['kind'], facts: Alert['facts'], extra: Partial<Alert> = {}): Alert => ({
    id: 1,
    ruleId: 1,
    kind,
    subject: 's',
    wallet: '0xabc',
    title: 'core title',
    detail: 'core detail',
    facts,
    firedAt: '2026-01-02T06:00:00.000Z',
    resolvedAt: null,
    resolution: null,
    acknowledgedAt: null,
    snoozedUntil: null,
    delivery: null,
    ...extra,
  });
  const health = alert('health', {
    wallet: '0xabc',
    chain: 'eth',
    cid: '0xc1d',
    position: 'Aave V3 WETH supply / USDC borrow',
    date: '2025-12-31',
    health: 1.084123,
    collateralDebtRatio: 1.314,
    liqThreshold: 0.825,
    below: 1.1,
  });

  it('health: German decimals and date, not the core English ones', () => {
    setLocale('de-DE');
    const t = alertText(health, names);
    expect(t.title).toBe('Health 1,084 below 1,1: Aave V3 WETH supply / USDC borrow');
    expect(t.detail).toBe(
      'Aave V3 WETH supply / USDC borrow of Treasury (0xabc) on Ethereum, 31. Dez. 2025: collateral/debt 1,314 × liquidation threshold 0,825 = health 1,084 (below 1 it can be liquidated).',
    );
    setLocale('en-US');
    expect(alertText(health, names).title).toBe('Health 1.084 below 1.1: Aave V3 WETH supply / USDC borrow');
  });

  it('a NAV move: percentages and money in the locale, whose NAV it is', () => {
    setLocale('de-DE');
    const t = alertText(
      alert('nav-move', { from: '2025-12-30', to: '2025-12-31', navFrom: 1_000_000, navTo: 940_000, movePercent: -6, percent: 5, scope: 'group', group: 3 }),
      names,
    );
    expect(plain(t.title)).toBe('NAV fell 6 % (more than 5 %)');
    expect(plain(t.detail)).toBe(
      'NAV of Group: G3 went from 1.000.000,00 $ on 30. Dez. 2025 to 940.000,00 $ on 31. Dez. 2025 (every watched chain cached on both dates).',
    );
  });

  it('an outflow and an unlock: quantities and times in the locale', () => {
    setLocale('de-DE');
    const out = alertText(
      alert('outflow', {
        wallet: '0xabc',
        chain: 'eth',
        txnHash: '0xhash',
        time: '2026-01-01T10:00:00.000Z',
        to: '0xdef',
        symbol: 'USDC',
        qty: 12345.678,
        above: 10000,
      }),
      names,
    );
    expect(out.title).toBe('Outflow of 12.345,68 USDC (above 10.000)');
    expect(out.detail).toMatch(/^Treasury \(0xabc\) sent 12\.345,68 USDC on Ethereum to 0xdef at 1\. Jan\. 2026, 10:00 UTC \(transaction 0xhash\)\.$/);
    const unlock = alertText(
      alert('unlock', {
        wallet: '0xabc',
        chain: 'eth',
        position: 'veCRV',
        symbol: 'CRV',
        qty: 1500.5,
        nav: 900,
        unlockTime: '2026-01-05T00:00:00.000Z',
        date: '2025-12-31',
        withinDays: 30,
      }),
      names,
    );
    expect(unlock.title).toBe('Unlock in 3 days: 1.500,5 CRV of veCRV');
  });

  it('stale and incomplete syncs: counts and times in the locale', () => {
    setLocale('de-DE');
    const stale = alertText(
      alert('stale', { wallet: '0xabc', what: 'transactions', lastSynced: '2025-12-30T06:00:00.000Z', hours: 24, ageHours: 1234 }),
      names,
    );
    expect(stale.title).toBe('Transactions not synced for 1.234 h: Treasury');
    const incomplete = alertText(
      alert('stale', { wallet: '0xabc', incompleteSince: '2025-12-30T06:00:00.000Z', openRanges: 1, anomalies: 2, hours: 36 }),
      names,
    );
    expect(incomplete.title).toBe('Sync incomplete for more than 36 h: Treasury');
    expect(incomplete.detail).toMatch(/since 30\. Dez\. 2025, 06:00 UTC \(1 transaction range not complete, 2 open anomalies\)\.$/);
  });

  it('a payment to a lookalike: both addresses whole, what they share, the amount in the locale; high severity', () => {
    setLocale('de-DE');
    const lookalike = '0x67086ea01472352e575987a64bf36438d87716ce';
    const imitates = '0x67086ebe063089484ee49a4c8d925985b0b716ce';
    const a = alert(
      'address-poisoning',
      {
        severity: 'high',
        wallet: '0xabc',
        chain: 'eth',
        txnHash: '0xhash',
        time: '2025-09-27T22:44:24.000Z',
        lookalike,
        imitates,
        prefix: '0x67086e',
        suffix: '716ce',
        sent: '4513.199684 UNI',
      },
      { ruleId: null },
    );
    const t = alertText(a, names);
    expect(t.title).toBe(`Payment to a lookalike address ${lookalike}`);
    expect(t.detail).toBe(
      `Treasury (0xabc) sent 4.513,2 UNI on Ethereum to ${lookalike}, which is not ${imitates}, the counterparty it imitates: both start 0x67086e and end …716ce. Transaction 0xhash, 27. Sept. 2025, 22:44 UTC. Check whether this payment reached the intended counterparty.`,
    );
    expect(isHigh(a)).toBe(true);
    expect(isHigh(health)).toBe(false);
  });

  it("an alert whose figures are missing or of another type shows the core's text", () => {
    setLocale('de-DE');
    expect(alertText(alert('health', { wallet: '0xabc', chain: 'eth' }), names)).toEqual({ title: 'core title', detail: 'core detail' });
    expect(alertText(alert('outflow', { ...health.facts, qty: '12', symbol: 'USDC', time: 'x', txnHash: 'h' }), names).title).toBe('core title');
  });

  it('service text in an alert is shown with its controls visible, as everywhere else', () => {
    setLocale('en-US');
    const t = alertText(alert('health', { ...health.facts, position: 'evil\u202eWETH' }), names);
    expect(t.title).toBe('Health 1.084 below 1.1: evil<U+202E>WETH');
  });
});

describe('an alert rule’s own figures are shown as typed', () => {
  it('every digit of the threshold, and the health with the digits that show it below', () => {
    setLocale('de-DE');
    const a: Alert = {
      id: 2,
      ruleId: 1,
      kind: 'health',
      subject: 's',
      wallet: '0xabc',
      title: 'core title',
      detail: 'core detail',
      facts: {
        wallet: '0xabc',
        chain: 'eth',
        cid: '0xc1d',
        date: '2025-12-31',
        health: 1.08496,
        collateralDebtRatio: 1.3151,
        liqThreshold: 0.825,
        below: 1.085,
      },
      firedAt: '2026-01-02T06:00:00.000Z',
      resolvedAt: null,
      resolution: null,
      acknowledgedAt: null,
      snoozedUntil: null,
      delivery: null,
    };
    expect(alertText(a, { walletLabel: () => null, scope: () => '' }).title).toBe('Health 1,08496 below 1,085: 0xc1d');
    const typed = { ...a, facts: { ...a.facts, health: 1.0812, below: 1.085312 } };
    expect(alertText(typed, { walletLabel: () => null, scope: () => '' }).title).toBe('Health 1,081 below 1,085312: 0xc1d');
  });
});
