import { afterEach, describe, expect, it } from 'vitest';
import type { WalletStatus } from '../../src/shared/contract.ts';
import type { JobInfo } from '../../src/shared/model.ts';
import type { Position } from '../../src/shared/service/schemas.ts';
import { chainName } from '../../src/shared/chain-names.ts';
import { keccak_256 } from '@noble/hashes/sha3';
import { decodeLog, EVENTS, eventName, METHODS, methodName, methodSignature } from '../../src/shared/signatures.ts';
import { ago, dateField, datePattern, dayOf, parseDateField, setLocale, setTimeZone, time, timeZoneLabel } from '../../src/renderer/src/lib/format.ts';
import { freshness } from '../../src/renderer/src/lib/freshness.ts';
import { distinguishers, tokensOf } from '../../src/renderer/src/lib/portfolio.ts';
import type { PositionRow } from '../../src/shared/portfolio/rows.ts';
import { health } from '../../src/shared/portfolio/risk.ts';

afterEach(() => {
  setLocale(null);
  setTimeZone('utc');
});

describe('date fields follow the locale', () => {
  it('shows and reads the locale’s numeric form', () => {
    setLocale('de-DE');
    expect(datePattern().placeholder).toBe('DD.MM.YYYY');
    expect(dateField('2025-06-01')).toBe('01.06.2025');
    expect(parseDateField('1.6.2025')).toBe('2025-06-01');
    setLocale('en-US');
    expect(datePattern().placeholder).toBe('MM/DD/YYYY');
    expect(dateField('2025-06-01')).toBe('06/01/2025');
    expect(parseDateField('06/01/2025')).toBe('2025-06-01');
    setLocale('en-GB');
    expect(parseDateField('06/01/2025')).toBe('2025-01-06');
    setLocale('ja-JP');
    expect(parseDateField(dateField('2025-06-01'))).toBe('2025-06-01');
  });

  it('accepts ISO in any locale and refuses what is not a real date', () => {
    setLocale('de-DE');
    expect(parseDateField('2025-06-01')).toBe('2025-06-01');
    expect(parseDateField('31.02.2025')).toBeNull();
    expect(parseDateField('2025-02-30')).toBeNull();
    expect(parseDateField('1.6.25')).toBeNull();
    expect(parseDateField('next tuesday')).toBeNull();
    expect(parseDateField('')).toBeNull();
  });
});

describe('times in UTC or local time', () => {
  it('says which zone the times are in, and groups days in it', () => {
    setLocale('en-US');
    expect(timeZoneLabel()).toBe('UTC');
    expect(time('2026-03-01T23:30:00Z')).toBe('11:30 PM');
    expect(dayOf('2026-03-01T23:30:00Z')).toBe('2026-03-01');
    setTimeZone('local');
    const local = new Date('2026-03-01T23:30:00Z');
    expect(time('2026-03-01T23:30:00Z')).toBe(new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit' }).format(local));
    expect(dayOf('2026-03-01T23:30:00Z')).toBe(
      `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`,
    );
    expect(timeZoneLabel()).not.toBe('');
  });

  it('relative times follow the locale, once (no sentence adds a second stop)', () => {
    setLocale('de-DE');
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(ago('2026-11-22T11:56:00Z', now)).toBe('vor 4 Min.');
  });
});

describe('sync status words agree', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const ok: WalletStatus = {
    address: '0xa',
    positionsFetchedAt: '2026-11-22T11:59:30Z',
    transactionsSyncedAt: null,
    latestDate: null,
    incomplete: false,
    lastError: null,
  };
  const failed: WalletStatus = { ...ok, lastError: { kind: 'network', message: 'Could not reach the service', retryable: true } };
  const job = { id: '1', kind: 'positions', state: 'running', wallet: '0xa' } as unknown as JobInfo;

  it('a failed last sync never reads "Synced", even with a fresh earlier fetch', () => {
    setLocale('en-US');
    const f = freshness(failed, false, now);
    expect(f.level).toBe('failed');
    expect(f.short).toBe('Sync failed');
    expect(f.text).not.toMatch(/Synced/);
  });

  it('a running sync reads "Syncing…" wherever it is shown', () => {
    setLocale('en-US');
    expect(freshness(failed, false, now, [job]).short).toBe('Syncing…');
    expect(freshness(ok, false, now, [{ ...job, state: 'done' } as JobInfo]).short).toMatch(/^Synced /);
    expect(freshness(undefined, false, now).short).toBe('Not synced yet');
  });
});

describe('the timeline reads well-known methods and events', () => {
  const pad = (a: string) => `0x${a.replace(/^0x/, '').padStart(64, '0')}`;
  const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
  const from = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
  const to = '0x00000000219ab540356cbb839cbe05303d7705fa';

  it('ships only selectors and topics that are the keccak-256 of their signatures', () => {
    const keccak = (sig: string) => `0x${Buffer.from(keccak_256(new TextEncoder().encode(sig))).toString('hex')}`;
    for (const [selector, sig] of Object.entries(METHODS)) expect(keccak(sig).slice(0, 10), sig).toBe(selector);
    for (const [topic, spec] of Object.entries(EVENTS)) {
      const types = [...spec.indexed, ...spec.data].map((p) => p.type);
      // A signature lists parameters in the event's order, not indexed-first: Uniswap V2's Swap is the one that differs.
      const sig =
        topic === '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822'
          ? 'Swap(address,uint256,uint256,uint256,uint256,address)'
          : `${spec.name}(${types.join(',')})`;
      expect(keccak(sig), sig).toBe(topic);
    }
  });

  it('names methods from the shipped table, and leaves others unnamed', () => {
    expect(methodName('0x3593564c')).toBe('execute');
    expect(methodName('0xA9059CBB')).toBe('transfer');
    expect(methodSignature('0x095ea7b3')).toBe('approve(address,uint256)');
    expect(methodName('0xdeadbeef')).toBeNull();
    expect(methodName('0x')).toBeNull();
    expect(methodName(null)).toBeNull();
  });

  it('decodes a Transfer and an Approval exactly, amounts as raw integers', () => {
    const amount = 10n ** 24n + 7n; // beyond a double's exact range
    const t = decodeLog([TRANSFER, pad(from), pad(to)], pad(amount.toString(16)));
    expect(t).toEqual({
      name: 'Transfer',
      args: [
        { name: 'from', value: from },
        { name: 'to', value: to },
        { name: 'value', value: amount.toString() },
      ],
    });
    const a = decodeLog(['0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925', pad(from), pad(to)], pad('ff'));
    expect(a?.name).toBe('Approval');
    expect(a?.args.at(-1)).toEqual({ name: 'value', value: '255' });
  });

  it('decodes a V3 Swap’s signed amounts', () => {
    const minusOne = 'f'.repeat(64);
    const s = decodeLog(
      ['0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67', pad(from), pad(to)],
      `0x${minusOne}${pad('2').slice(2)}${pad('3').slice(2)}${pad('4').slice(2)}${minusOne}`,
    );
    expect(s?.name).toBe('Swap');
    expect(s?.args.map((x) => x.value)).toEqual([from, to, '-1', '2', '3', '4', '-1']);
  });

  it('never guesses: a wrong shape or an unknown topic stays raw', () => {
    expect(decodeLog([TRANSFER, pad(from)], pad('1'))).toBeNull(); // ERC-721-like or truncated: other shape
    expect(decodeLog([TRANSFER, pad(from), pad(to)], `${pad('1')}00`)).toBeNull();
    expect(decodeLog([TRANSFER, pad(from), `0x${'1'.repeat(64)}`], pad('1'))).toBeNull(); // not an address
    expect(decodeLog([`0x${'ab'.repeat(32)}`, pad(from)], '0x')).toBeNull();
    expect(decodeLog([], '0x')).toBeNull();
    // The topic is still named, so the detail can say what the log claims to be.
    expect(eventName(TRANSFER)).toBe('Transfer');
    expect(eventName(`0x${'ab'.repeat(32)}`)).toBeNull();
  });

  it('names chains beside their codes, and leaves unknown codes alone', () => {
    expect(chainName('arb')).toBe('Arbitrum One');
    expect(chainName('zksync-era')).toBeNull();
  });
});

describe('positions told apart and read by token', () => {
  const leg = (id: string, symbol: string, extra: Record<string, unknown> = {}) => ({
    internal_id: id,
    symbol,
    name: symbol,
    qty: 1,
    nav: 1,
    details: { ...extra },
  });
  const pos = (cid: string, legs: ReturnType<typeof leg>[]) =>
    ({
      name: 'Aave V3 WETH supply / USDC borrow',
      cid,
      symbol: null,
      protocol_id: 'aave_v3',
      asset_type: 'lending',
      principal_nav: 1,
      reward_nav: 0,
      underlying: legs,
    }) as unknown as Position;
  const row = (key: string, p: Position): PositionRow => ({
    key,
    wallet: '0xa',
    chain: 'eth',
    position: p,
    total: 1,
    ratio: null,
    liqThreshold: null,
    atRisk: false,
  });

  it('leaves unique names alone, and gives twins their pair, else a short id', () => {
    const a = pos('0x1111', [leg('s1', 'WETH'), leg('b1', 'USDC')]);
    const b = pos('0x2222', [leg('s2', 'WETH'), leg('b2', 'USDC')]);
    const c = pos('0x3333', [leg('s3', 'WBTC'), leg('b3', 'USDC')]);
    const d = { ...pos('0x4444', [leg('x', 'LINK')]), name: 'Chainlink' } as Position;
    const m = distinguishers([row('a', a), row('b', b), row('c', c), row('d', d)]);
    expect(m.get('a')).toBe('#1111');
    expect(m.get('b')).toBe('#2222');
    expect(m.get('c')).toBe('WBTC/USDC');
    expect(m.has('d')).toBe(false);
  });

  it('names the chain when that is what differs (the chain column may be hidden)', () => {
    const lido = (cid: string) => ({ ...pos(cid, [leg(`l${cid}`, 'stETH')]), name: 'Lido stETH' }) as Position;
    const m = distinguishers([
      { ...row('e', lido('0x1')), chain: 'eth' },
      { ...row('a', lido('0x2')), chain: 'arb' },
    ]);
    expect(m.get('e')).toBe('Ethereum');
    expect(m.get('a')).toBe('Arbitrum One');
  });

  it('shows debt and collateral by token, not by raw id', () => {
    const p = pos('0x1', [leg('eth:0xaaa', 'WETH'), leg('eth:0xbbb0e6d', 'USDC')]);
    expect(tokensOf(p, ['eth:0xbbb0e6d'])).toBe('USDC');
    expect(tokensOf(p, ['eth:0xunknown1'])).toBe('eth:0x…');
  });

  it('health is collateral/debt × liquidation threshold', () => {
    expect(health(2, 0.8)).toBeCloseTo(1.6);
    expect(health(null, 0.8)).toBeNull();
  });
});
