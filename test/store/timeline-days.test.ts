import { beforeAll, describe, expect, it } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { timelinePage, type ScopedTimelineFilter } from '../../src/main/core/ledger/store/timeline.ts';
import { timelineDays, timelinePosition } from '../../src/main/core/ledger/store/days.ts';
import { zoneDays } from '../../src/main/core/ledger/store/zone-days.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import { transaction as transactionSchema, type Transaction } from '../../src/shared/service/schemas.ts';
import { CHAINS } from '../../src/sim/chains.ts';
import { historyOf, transactionAt } from '../../src/sim/transactions.ts';
import { createDB } from '../support/store.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';

/**
 * The timeline's days (`timeline.days`) and a date's place in it (`timeline.position`): what
 * lets the renderer place any row of a list of millions and read it from its day, checked
 * against the same rows grouped by hand. Zones whose days are not 24 hours (summer time, a
 * change at midnight: Santiago) or whose offsets are not whole hours (St John's, Kathmandu), a
 * wallet removed whose rows stay cached, rows the service gave no date, and searches.
 */
const REMOVED = '0x1111111111111111111111111111111111111111';
const ZONES = ['UTC', 'Europe/Berlin', 'America/Santiago', 'America/St_Johns', 'Asia/Kathmandu'];
let db: WritableDB;
let rows: Array<{ id: number; wallet: string; chain: string; time: number; action_type: string | null; status: number | null; to_addr: string | null }>;
let undated: number[];

beforeAll(() => {
  db = createDB();
  // Each wallet starts within 90 days of June: ~10 to 30 rows a day until November, across the autumn's changes of the clocks (Santiago's at midnight on 8 September).
  for (const [wallet, chains] of [
    [WALLET, ['eth', 'arb']],
    [WALLET_2, ['eth']],
    [REMOVED, ['arb']],
  ] as const) {
    addWallet(db, { address: wallet, chains: [...chains] });
    for (const chain of chains) {
      const h = historyOf(
        { seed: 11, txnsPerWallet: 500, historyStart: Date.UTC(2024, 5, 1) / 1000, historyEnd: Date.UTC(2024, 10, 10) / 1000 },
        wallet,
        CHAINS.find((c) => c.id === chain)!,
      );
      const page: Transaction[] = [];
      for (let i = 0; i < 500; i++) page.push(transactionSchema.parse(transactionAt(h, i)));
      db.transaction(() => upsertTransactions(db, wallet, chain, page)).immediate();
    }
  }
  removeWallet(db, REMOVED);
  // Rows the service gave no date (time 0): a day of their own, after every dated row.
  undated = (db.prepare("SELECT id FROM transactions WHERE wallet = ? AND chain = 'eth' ORDER BY id LIMIT 3").pluck().all(WALLET) as number[]).slice();
  db.prepare(`UPDATE transactions SET time = 0 WHERE id IN (${undated.join(',')})`).run();
  rows = db.prepare('SELECT id, wallet, chain, time, action_type, status, to_addr FROM transactions').all() as typeof rows;
});

/** The day of an instant in a zone, read another way than the store reads it (toLocaleString's parts). */
function localDay(ms: number, zone: string): string {
  if (ms === 0) return 'unknown';
  const d = new Date(ms);
  const [m, day, y] = d.toLocaleString('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).split('/');
  return `${y}-${m}-${day}`;
}

function matching(q: ScopedTimelineFilter): typeof rows {
  const watched = new Set([WALLET, WALLET_2]);
  return rows
    .filter(
      (r) =>
        (q.wallet ? r.wallet === q.wallet : q.wallets ? q.wallets.includes(r.wallet) : watched.has(r.wallet)) &&
        (!q.chains || q.chains.includes(r.chain)) &&
        (!q.actionTypes || q.actionTypes.includes(r.action_type ?? '')) &&
        (!q.statuses || q.statuses.includes(r.status ?? -1)) &&
        (!q.search || r.to_addr === q.search),
    )
    .sort((a, b) => b.time - a.time || b.id - a.id);
}

function grouped(q: ScopedTimelineFilter, zone: string): Array<{ day: string; ids: number[] }> {
  const out: Array<{ day: string; ids: number[] }> = [];
  for (const r of matching(q)) {
    const day = localDay(r.time, zone);
    if (out.at(-1)?.day !== day) out.push({ day, ids: [] });
    out.at(-1)!.ids.push(r.id);
  }
  return out;
}

const busy = () => rows.find((r) => r.wallet === WALLET && r.action_type === 'swap')!.to_addr!;
const filters = (): ScopedTimelineFilter[] => [
  {},
  { wallet: WALLET },
  { wallet: WALLET_2, chains: ['eth'] },
  { wallets: [WALLET, WALLET_2] },
  { actionTypes: ['swap'] },
  { statuses: [0] },
  { wallet: WALLET, chains: ['arb'], actionTypes: ['swap', 'transfer_in'] },
  // A full address: the search's own walk.
  { search: busy() },
];

describe('the days of a zone', () => {
  it('start at the first instant of the day, whatever the clocks did that night', () => {
    for (const zone of ZONES) {
      const days = zoneDays(zone);
      for (let t = Date.UTC(2024, 8, 1); t < Date.UTC(2024, 10, 10); t += 3_600_000 * 7 + 60_000 * 13) {
        const day = days.dayOf(t);
        expect(day, `${zone} ${new Date(t).toISOString()}`).toBe(localDay(t, zone));
        const start = days.startOf(day);
        expect(localDay(start, zone), `${zone} ${day}`).toBe(day);
        expect(localDay(start - 1, zone) < day, `${zone} ${day}`).toBe(true);
      }
    }
    // Santiago's clocks went from 24:00 to 01:00 on 8 September 2024: that day starts at 04:00 UTC (01:00 at UTC-3).
    expect(new Date(zoneDays('America/Santiago').startOf('2024-09-08')).toISOString()).toBe('2024-09-08T04:00:00.000Z');
    expect(new Date(zoneDays('Asia/Kathmandu').startOf('2024-09-08')).toISOString()).toBe('2024-09-07T18:15:00.000Z');
  });
});

describe('timeline.days', () => {
  it('counts each day of the zone, newest first, as the rows grouped by hand', () => {
    expect(rows.length).toBe(2000);
    for (const zone of ZONES)
      for (const q of filters()) {
        const want = grouped(q, zone);
        const got = timelineDays(db, q, zone);
        expect(
          got.days.map((d) => [d.day, d.count]),
          `${zone} ${JSON.stringify(q)}`,
        ).toEqual(want.map((d) => [d.day, d.ids.length]));
        expect(got.total).toBe(want.reduce((n, d) => n + d.ids.length, 0));
      }
    // Most days hold many rows; the undated ones are the last day.
    const all = timelineDays(db, {}, 'UTC').days;
    expect(all.length).toBeGreaterThan(70);
    expect(all.some((d) => d.day === '2024-09-08')).toBe(true);
    expect(all.at(-1)).toMatchObject({ day: 'unknown', count: 3 });
  });

  it("reads any row from its day's cursor, passing over the rows before it in the day", () => {
    for (const zone of ['UTC', 'America/Santiago']) {
      for (const q of filters()) {
        const days = timelineDays(db, q, zone).days;
        const want = grouped(q, zone);
        const ids = want.flatMap((d) => d.ids);
        let start = 0;
        for (const [i, d] of days.entries()) {
          for (const skip of [0, 1, Math.floor(d.count / 2), d.count - 1].filter((s, j, a) => s >= 0 && a.indexOf(s) === j)) {
            const page = timelinePage(db, { ...q, cursor: d.cursor, skip, limit: 7 });
            expect(
              page.rows.map((r) => r.id),
              `${zone} ${JSON.stringify(q)} day ${i} skip ${skip}`,
            ).toEqual(ids.slice(start + skip, start + skip + 7));
          }
          start += d.count;
        }
      }
    }
  });
});

describe('timeline.position', () => {
  it("is the place of the first row on or before the date's end, with its day and cursor", () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/St_Johns'])
      for (const q of filters()) {
        const want = grouped(q, zone);
        const ids = want.flatMap((d) => d.ids);
        for (const date of ['2024-08-01', '2024-09-01', '2024-09-08', '2024-10-27', '2024-10-31', '2024-11-09', '2024-12-25']) {
          const index = want.filter((d) => d.day !== 'unknown' && d.day > date).reduce((n, d) => n + d.ids.length, 0);
          const day = want.find((d) => d.day === 'unknown' || d.day <= date)?.day ?? null;
          const got = timelinePosition(db, q, date, zone);
          expect({ index: got.index, day: got.day }, `${zone} ${date} ${JSON.stringify(q)}`).toEqual({ index, day });
          if (got.cursor) expect(timelinePage(db, { ...q, cursor: got.cursor, limit: 3 }).rows.map((r) => r.id)).toEqual(ids.slice(index, index + 3));
        }
      }
  });
});

describe('with every cached row a watched wallet’s', () => {
  it('counts and places the same without the wallet term (the filter’s own index answers alone)', () => {
    // The removed wallet's rows purged: every wallet's rows need no wallet term now.
    db.prepare('DELETE FROM transactions WHERE wallet = ?').run(REMOVED);
    rows = rows.filter((r) => r.wallet !== REMOVED);
    for (const zone of ['UTC', 'Asia/Kathmandu'])
      for (const q of filters()) {
        const want = grouped(q, zone);
        expect(
          timelineDays(db, q, zone).days.map((d) => [d.day, d.count]),
          `${zone} ${JSON.stringify(q)}`,
        ).toEqual(want.map((d) => [d.day, d.ids.length]));
        const index = want.filter((d) => d.day !== 'unknown' && d.day > '2024-10-01').reduce((n, d) => n + d.ids.length, 0);
        expect(timelinePosition(db, q, '2024-10-01', zone).index, `${zone} ${JSON.stringify(q)}`).toBe(index);
      }
  });
});
