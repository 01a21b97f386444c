import { afterEach, describe, expect, it } from 'vitest';
import { namesDay, toIsoDatetime, utcDay, writtenDay } from '../../src/shared/service/normalize.ts';
import { navHistory } from '../../src/main/core/positions/store/nav.ts';
import { cachedDates, filingDay, latestSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { chainById } from '../../src/sim/chains.ts';
import { DATETIME_READINGS, type DatetimeReading } from '../../src/sim/readings.ts';
import { positionsOn, DAY_MS } from '../../src/sim/positions.ts';
import { historyOf, transactionAt } from '../../src/sim/transactions.ts';
import { DEFAULT_HISTORY_END, DEFAULT_HISTORY_START } from '../../src/sim/server.ts';
import { allPositionsView } from '../../src/sim/views.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * Snapshot dates and datetime readings (issue 12, item 5): a snapshot asked for a day is
 * filed under that day whatever zone the service writes its datetime in; the service's own
 * date is kept beside it; the latest snapshot lands on the day the service meant.
 */

describe('datetime readings, one value each', () => {
  // Written by hand from the readings' definitions, not by the simulator's code.
  it.each([
    ['iso-utc', '2025-06-01T00:00:00Z', '2025-06-01T00:00:00.000Z', '2025-06-01', '2025-06-01'],
    ['no zone', '2025-06-01T00:00:00', '2025-06-01T00:00:00.000Z', '2025-06-01', '2025-06-01'],
    ['space', '2025-06-01 00:00:00', '2025-06-01T00:00:00.000Z', '2025-06-01', '2025-06-01'],
    ['offset west', '2025-06-01T23:00:00-05:00', '2025-06-02T04:00:00.000Z', '2025-06-01', '2025-06-02'],
    ['offset east', '2025-06-02T01:00:00+02:00', '2025-06-01T23:00:00.000Z', '2025-06-02', '2025-06-01'],
    ['unix s', 1748736000, '2025-06-01T00:00:00.000Z', '2025-06-01', '2025-06-01'],
    ['unix ms', 1748736000000, '2025-06-01T00:00:00.000Z', '2025-06-01', '2025-06-01'],
    ['unix s string', '1748736000', '2025-06-01T00:00:00.000Z', '2025-06-01', '2025-06-01'],
    ['unix ms string', '1748736000000', '2025-06-01T00:00:00.000Z', '2025-06-01', '2025-06-01'],
  ] as const)('%s: %j', (_name, value, iso, written, utc) => {
    expect(toIsoDatetime(value)).toBe(iso);
    expect(writtenDay(value)).toBe(written);
    expect(utcDay(value)).toBe(utc);
    // Each of these can name 1 June; none can name 30 May or 3 June.
    expect(namesDay(value, '2025-06-01')).toBe(true);
    expect(namesDay(value, '2025-05-30')).toBe(false);
    expect(namesDay(value, '2025-06-03')).toBe(false);
  });

  it('files a dated snapshot under the day asked, and one the service dated another day under that day, flagged', () => {
    expect(filingDay('2025-06-01T23:00:00-05:00', '2025-06-01', '2025-06-05T10:00:00.000Z')).toEqual({ asOf: '2025-06-01', mismatch: null });
    expect(filingDay('2025-06-02T01:00:00+02:00', '2025-06-01', '2025-06-05T10:00:00.000Z')).toEqual({ asOf: '2025-06-01', mismatch: null });
    expect(filingDay(null, '2025-06-01', '2025-06-05T10:00:00.000Z').asOf).toBe('2025-06-01');
    const other = filingDay('2025-05-28T00:00:00Z', '2025-06-01', '2025-06-05T10:00:00.000Z');
    expect(other.asOf).toBe('2025-05-28');
    expect(other.mismatch).toEqual({ path: 'data[0].date', value: '2025-05-28T00:00:00Z (asked for 2025-06-01)' });
    // Latest: the day resolved by the caller, else the day written, else the fetch day.
    expect(filingDay('2025-06-02T01:00:00+02:00', null, '2025-06-05T10:00:00.000Z', '2025-06-01').asOf).toBe('2025-06-01');
    expect(filingDay('2025-06-01T23:00:00-05:00', null, '2025-06-05T10:00:00.000Z').asOf).toBe('2025-06-01');
    expect(filingDay(null, null, '2025-06-05T10:00:00.000Z').asOf).toBe('2025-06-05');
  });
});

const ctx = useSimulator({ txnsPerWallet: 200 });
/** The simulator's history (its holdings follow its transactions). */
const SIM_HISTORY = { seed: 7, txnsPerWallet: 200, historyStart: DEFAULT_HISTORY_START, historyEnd: DEFAULT_HISTORY_END };
afterEach(() => ctx.sim.setConventions({}));

/** NAV of the simulator's model at a day, summed in integer cents (the service's figures have 2 decimals). */
function modelNav(chainId: string, day: string): { principal: number; reward: number; total: number } {
  const chain = chainById(chainId)!;
  const positions = allPositionsView(chain.id, positionsOn(SIM_HISTORY, WALLET, chain, Date.parse(`${day}T00:00:00Z`) / DAY_MS));
  const cents = (f: (p: (typeof positions)[number]) => number | null) => positions.reduce((s, p) => s + Math.round((f(p) ?? 0) * 100), 0);
  const principal = cents((p) => p.principal_nav);
  const reward = cents((p) => p.reward_nav);
  return { principal: principal / 100, reward: reward / 100, total: (principal + reward) / 100 };
}

/** What each reading sends for the snapshot of 2025-06-01 (by hand, from the readings' definitions). */
const SENT_FOR_JUNE_1: Record<DatetimeReading, string> = {
  'iso-utc': '2025-06-01T00:00:00Z',
  'no-zone': '2025-06-01T00:00:00',
  space: '2025-06-01 00:00:00',
  'offset-west': '2025-06-01T23:00:00-05:00',
  'offset-east': '2025-06-02T01:00:00+02:00',
  'unix-s': '1748736000',
  'unix-ms': '1748736000000',
  'unix-s-string': '1748736000',
  'unix-ms-string': '1748736000000',
};

function setup() {
  const db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Main' });
  return { db, ...engineFor(ctx.sim, db) };
}

describe.each(DATETIME_READINGS)('the real client against datetime=%s', (reading) => {
  it('files the snapshot of 2025-06-01 under 2025-06-01, keeps the service date, and sums its NAV exactly', async () => {
    ctx.sim.setConventions({ datetime: reading });
    const { db, engine } = setup();
    expect(await engine.syncPositions(WALLET, { date: '2025-06-01' }).result).toEqual(['2025-06-01']);
    expect(cachedDates(db, WALLET)).toEqual(['2025-06-01']);
    for (const chain of ['eth', 'arb']) {
      const snap = latestSnapshot(db, 'allPositions', WALLET, chain, '2025-06-01')!;
      expect(snap.serviceDate).toBe(SENT_FOR_JUNE_1[reading]);
      expect(snap.quality).toEqual([]);
      const want = modelNav(chain, '2025-06-01');
      expect([snap.principalNav, snap.rewardNav, snap.totalNav]).toEqual([want.principal, want.reward, want.total]);
    }
    const eth = modelNav('eth', '2025-06-01');
    const arb = modelNav('arb', '2025-06-01');
    const [point] = navHistory(db, { wallet: WALLET }).points;
    expect(point).toMatchObject({ date: '2025-06-01', chainsCached: 2, chainsWatched: 2, flagged: 0 });
    expect(point!.totalNav).toBe(Math.round((eth.total + arb.total) * 100) / 100);
  });

  it("files the latest snapshot under the simulator's today (2026-11-20)", async () => {
    ctx.sim.setConventions({ datetime: reading });
    const { db, engine } = setup();
    expect(await engine.syncPositions(WALLET, { chains: ['eth'] }).result).toEqual(['2026-11-20']);
    expect(cachedDates(db, WALLET)).toEqual(['2026-11-20']);
    const snap = latestSnapshot(db, 'allPositions', WALLET, 'eth', '2026-11-20')!;
    expect(snap.requestedDate).toBeNull();
    expect(snap.totalNav).toBe(modelNav('eth', '2026-11-20').total);
  });

  it('stores every transaction at its instant', async () => {
    ctx.sim.setConventions({ datetime: reading });
    const { db, engine } = setup();
    const [result] = await engine.syncTransactions(WALLET, { chains: ['eth'] }).result;
    expect(result!.complete).toBe(true);
    const h = historyOf(
      { seed: 7, txnsPerWallet: 200, historyStart: Date.UTC(2024, 0, 1) / 1000, historyEnd: Date.UTC(2026, 10, 1) / 1000 },
      WALLET,
      chainById('eth')!,
    );
    const want = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const t = transactionAt(h, i);
      want.set(t.txn_hash, Date.parse(t.date as string));
    }
    const got = new Map(
      (db.prepare("SELECT txn_hash, time FROM transactions WHERE chain = 'eth'").all() as Array<{ txn_hash: string; time: number }>).map((r) => [
        r.txn_hash,
        r.time,
      ]),
    );
    expect(got).toEqual(want);
  });
});

describe('the latest snapshot when the day written and the UTC day differ', () => {
  it.each([
    ['offset-west', 1], // 2026-11-20T23:00:00-05:00: the day written is the day (one probe)
    ['offset-east', 2], // 2026-11-21T01:00:00+02:00: the first probe (21 Nov) is refused as future, the UTC day is the day
  ] as const)('%s: probes the candidate days and files under 2026-11-20', async (reading, probes) => {
    ctx.sim.setConventions({ datetime: reading });
    const { db, engine } = setup();
    const mark = ctx.sim.requests.length;
    await engine.syncPositions(WALLET, { chains: ['eth'] }).result;
    const dated = ctx.sim.requests.slice(mark).filter((r) => r.endpoint === 'allPositions' && r.query['date']);
    expect(dated.length).toBe(probes);
    expect(cachedDates(db, WALLET)).toEqual(['2026-11-20']);
    // Nothing was filed under the neighbouring days.
    expect(latestSnapshot(db, 'allPositions', WALLET, 'eth', '2026-11-21')).toBeNull();
    expect(latestSnapshot(db, 'allPositions', WALLET, 'eth', '2026-11-19')).toBeNull();
    expect(SIM_NOW).toBe(Date.UTC(2026, 10, 20, 12));
  });
});

describe('a snapshot date that cannot be read', () => {
  it('is flagged, and the snapshot filed under the day asked', async () => {
    const { parseEnvelope } = await import('../../src/main/core/service/client.ts');
    const { positionSnapshot } = await import('../../src/shared/service/schemas.ts');
    const { snapshotRecord } = await import('../../src/main/core/positions/store/snapshots.ts');
    const body = JSON.stringify({
      status: 'OK',
      message: 'Get Positions (ID: 0a) succeed.',
      data: [{ wallet_id: WALLET, date: 'yesterday', positions: [{ principal_nav: 1.25, reward_nav: 0.5, underlying: [] }] }],
    });
    const response = parseEnvelope('allPositions', positionSnapshot, body, 'http://x/', '2025-06-05T10:00:00.000Z', 1);
    expect(response.data[0]!.date).toBeNull();
    const r = snapshotRecord({ endpoint: 'allPositions', wallet: WALLET, chain: 'eth', requestedDate: '2025-06-01', response });
    expect([r.as_of, r.service_date, r.total_nav]).toEqual(['2025-06-01', 'yesterday', 1.75]);
    expect(JSON.parse(r.quality!)).toEqual([{ path: 'data[0].date', value: '"yesterday"' }]);
    expect(snapshotRecord({ endpoint: 'allPositions', wallet: WALLET, chain: 'eth', requestedDate: null, response }).as_of).toBe('2025-06-05');
  });
});
