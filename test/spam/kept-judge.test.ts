import { describe, expect, it } from 'vitest';
import { checkAlerts } from '../../src/main/core/alerts/check.ts';
import { saveCounterparty } from '../../src/main/core/counterparties/book.ts';
import { keptJudge, positionsMoved } from '../../src/main/core/portfolio/kept-judge.ts';
import { insertSnapshots, purgeWalletSnapshots } from '../../src/main/core/positions/store/snapshots.ts';
import { spamJudge } from '../../src/main/core/spam/index.ts';
import { clearSpam, markSpam } from '../../src/main/core/spam/verdicts.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import type { WritableDB } from '../../src/main/core/store/handles.ts';
import { all, sql } from '../../src/main/core/store/sql.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';
import { createDB } from '../support/store.ts';
import { address, holdingViews, judgedRow, lookalike, rng, txn } from './support.ts';

/**
 * The spam judge kept from read to read (portfolio/kept-judge.ts): the timeline's pages and the
 * poisoning guard's checks. Kept while nothing it reads moved; brought up to date, not made again,
 * when only some wallets' positions moved (it forgets those wallets' part); made again on any
 * other move. Its verdicts are, after every write, those of a judge made from nothing. Data laid
 * by hand and by a seeded walk, with fixed dates.
 */
const W = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const W2 = '0x' + '7'.repeat(40);
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const T = '0x' + 'ab'.repeat(20);
const G = '0xa1b2' + '3'.repeat(32) + 'c3d4';
const LOOK = '0xa1b2' + '9'.repeat(32) + 'c3d4';

const rowOf = (t: Transaction) => judgedRow(t);
const hold = (cid: string, symbol: string, qty: number, nav: number) => ({ cid, symbol, name: symbol, qty, nav });
const holdings = (db: WritableDB, wallet: string, day: string, hs: ReturnType<typeof hold>[]) =>
  insertSnapshots(db, holdingViews(wallet, 'eth', day, hs).inputs);

function cache(): WritableDB {
  const db = createDB();
  addWallet(db, { address: W, chains: ['eth'] }, new Date('2026-01-01T00:00:00Z'));
  addWallet(db, { address: W2, chains: ['eth'] }, new Date('2026-01-01T00:00:00Z'));
  return db;
}

describe('a kept judge, brought up to date when only positions moved', () => {
  it('reads a wallet’s positions again after they change (dust is priced by them), keeps the judge and every other wallet’s part', () => {
    const db = cache();
    const paidG = txn({
      wallet_id: W,
      from: W,
      to: G,
      action_type: 'transfer_out',
      date: '2026-03-01T00:00:00Z',
      details: [{ token_cid: USDC, type: 'out', qty: 1200, symbol: 'USDC' }],
    });
    // Half a unit of T from a lookalike of G: dust only once T has a price under 2 USD.
    const half = txn({ wallet_id: W, from: LOOK, to: W, date: '2026-03-05T00:00:00Z', details: [{ token_cid: T, type: 'in', qty: 0.5, symbol: 'TKN' }] });
    const other = txn({ wallet_id: W2, from: LOOK, to: W2, date: '2026-03-05T00:00:00Z', details: [{ token_cid: T, type: 'in', qty: 0.5, symbol: 'TKN' }] });
    upsertTransactions(db, W, 'eth', [paidG, half]);
    upsertTransactions(db, W2, 'eth', [other]);
    const kept = keptJudge();
    const first = kept(db);
    const before = first.transaction(rowOf(half));
    expect(before.reasons.map((r) => r.code)).not.toContain('poison.dust');
    const otherBefore = first.transaction(rowOf(other));

    // W's positions: T held at 1 USD a unit. Only W's counter moved, by its positions alone.
    holdings(db, W, '2026-10-01', [hold(T, 'TKN', 10, 10)]);
    const second = kept(db);
    expect(second).toBe(first);
    const after = second.transaction(rowOf(half));
    expect(after).toEqual(spamJudge(db).transaction(rowOf(half)));
    expect(after).toMatchObject({ spam: true, reasons: [{ code: 'poison.dust' }] });
    // W2's part was kept as it was, and is what a new judge says.
    expect(second.transaction(rowOf(other))).toEqual(otherBefore);
    expect(otherBefore).toEqual(spamJudge(db).transaction(rowOf(other)));
  });

  it('judges a token the wallet never held against the tokens it now holds (a copy of a symbol it has)', () => {
    const db = cache();
    const COPY = '0x' + 'cd'.repeat(20);
    const drop = txn({
      wallet_id: W,
      from: address(rng(7)),
      to: W,
      date: '2026-03-05T00:00:00Z',
      details: [{ token_cid: COPY, type: 'in', qty: 40, symbol: 'TKN' }],
    });
    upsertTransactions(db, W, 'eth', [drop]);
    const kept = keptJudge();
    const first = kept(db);
    const before = first.transaction(rowOf(drop));
    holdings(db, W, '2026-10-01', [hold(T, 'TKN', 10, 10)]);
    expect(kept(db)).toBe(first);
    const after = first.transaction(rowOf(drop));
    expect(after).toEqual(spamJudge(db).transaction(rowOf(drop)));
    expect(after.score).toBeGreaterThan(before.score);
  });

  it('is made again when a transaction, a mark, the address book or the watched wallets move, and kept when nothing does', () => {
    const db = cache();
    upsertTransactions(db, W, 'eth', [txn({ wallet_id: W, from: W, to: G, details: [{ token_cid: USDC, type: 'out', qty: 5, symbol: 'USDC' }] })]);
    const kept = keptJudge();
    let judge = kept(db);
    expect(kept(db)).toBe(judge);
    const writes: Array<[string, () => void]> = [
      ['a transaction', () => upsertTransactions(db, W2, 'eth', [txn({ wallet_id: W2, from: G, to: W2, details: [] })])],
      ['a mark', () => markSpam(db, { kind: 'address', target: LOOK, verdict: 'spam' })],
      ['the address book', () => saveCounterparty(db, { address: G, name: 'Desk' })],
      ['a watched wallet', () => addWallet(db, { address: address(rng(3)), chains: ['eth'] }, new Date('2026-02-01T00:00:00Z'))],
    ];
    for (const [what, write] of writes) {
      write();
      const next = kept(db);
      expect(next, what).not.toBe(judge);
      judge = next;
      expect(kept(db), `${what}, then nothing`).toBe(judge);
    }
    // Inside an open write of the connection, a judge for that read alone.
    db.transaction(() => expect(kept(db)).not.toBe(judge))();
    expect(kept(db)).toBe(judge);
  });

  it('says what a judge made from nothing says of every row, after each write of a seeded walk', () => {
    const r = rng(20261130);
    const db = cache();
    const wallets = [W, W2];
    const parties = Array.from({ length: 6 }, () => address(r));
    const likes = parties.map((p) => lookalike(p, r));
    const tokens = [USDC, T, '0x' + 'cd'.repeat(20)];
    const rows: Transaction[] = [];
    const days = ['2026-02-01', '2026-05-01', '2026-09-30', '2026-10-01'];
    const kept = keptJudge();
    let reused = 0;
    let previous = kept(db);
    for (let step = 0; step < 60; step++) {
      const wallet = r.pick(wallets);
      const kind = r.int(0, 9);
      if (kind < 6) {
        // Positions of one wallet at a day (one of a few: a day fetched again too), tokens held or
        // not, at prices that make dust or not.
        const held = tokens.filter(() => r.next() < 0.6).map((cid) => hold(cid, cid === USDC ? 'USDC' : 'TKN', r.int(1, 100), r.pick([0, 1, 50, 1000])));
        holdings(db, wallet, r.pick(days), held);
      } else {
        // A transaction: paid to a party or a lookalike, or received from either, of a token.
        const out = r.next() < 0.5;
        const other = r.next() < 0.5 ? r.pick(parties) : r.pick(likes);
        const cid = r.pick(tokens);
        const t = txn({
          wallet_id: wallet,
          from: out ? wallet : other,
          to: out ? other : wallet,
          date: `2026-0${r.int(1, 9)}-1${r.int(0, 9)}T00:00:00Z`,
          details: [{ token_cid: cid, type: out ? 'out' : 'in', qty: r.pick([0, 0.000001, 0.5, 3, 900]), symbol: cid === USDC ? 'USDC' : 'TKN' }],
        });
        upsertTransactions(db, wallet, 'eth', [t]);
        rows.push(t);
      }
      const judge = kept(db);
      if (judge === previous) reused++;
      previous = judge;
      const fresh = spamJudge(db);
      for (const t of rows) {
        expect(judge.transaction(rowOf(t)), `step ${step}, ${t.txn_hash}`).toEqual(fresh.transaction(rowOf(t)));
        expect(judge.poisoning(rowOf(t)), `step ${step}, ${t.txn_hash}`).toEqual(fresh.poisoning(rowOf(t)));
      }
    }
    // The walk went through the kept path, not only new judges.
    expect(reused).toBeGreaterThan(10);
  });
});

/**
 * W was paid 100 of T (a token it never held or bought) by S1, so S1 is no known counterparty yet,
 * and W paid S2, which shares S1's first and last four digits; the guard's first check finds nothing.
 */
function payingALookalikeUnknown() {
  const db = cache();
  const S1 = '0xbeef' + '1'.repeat(32) + 'cafe';
  const S2 = '0xbeef' + '2'.repeat(32) + 'cafe';
  upsertTransactions(db, W, 'eth', [
    txn({ wallet_id: W, from: S1, to: W, date: '2026-03-01T00:00:00Z', details: [{ token_cid: T, type: 'in', qty: 100, symbol: 'TKN' }] }),
    txn({
      wallet_id: W,
      from: W,
      to: S2,
      action_type: 'transfer_out',
      date: '2026-04-01T00:00:00Z',
      details: [{ token_cid: USDC, type: 'out', qty: 900, symbol: 'USDC' }],
    }),
  ]);
  let clock = Date.UTC(2026, 10, 1, 12);
  const check = () => checkAlerts(db, { now: (clock += 3_600_000) }).filter((a) => a.kind === 'address-poisoning');
  expect(check()).toEqual([]);
  return { db, S1, S2, check };
}

describe('the poisoning guard’s kept judge', () => {
  it('fires for a payment that became one to a lookalike when the wallet’s positions alone changed', () => {
    const { db, S1, S2, check } = payingALookalikeUnknown();
    // W's positions now hold T at 1 USD a unit: S1 paid it a real amount of a token it has, so S1
    // is known, and S2, which appeared after it, imitates it.
    insertSnapshots(db, holdingViews(W, 'eth', '2026-10-01', [hold(T, 'TKN', 100, 100)]).inputs);
    expect(check()).toMatchObject([{ facts: { lookalike: S2, imitates: S1 } }]);
  });
});

describe('the guard’s checks, kept from check to check, against a guard that checks every payment each time', () => {
  it('starts from its last committed check: one inside a transaction rolled back is as if it never ran', () => {
    const { db, S1, S2, check } = payingALookalikeUnknown();
    // W's positions and a check in one transaction, rolled back: its counters go back with it.
    expect(() =>
      db.transaction(() => {
        holdings(db, W, '2026-10-01', [hold(T, 'TKN', 100, 0)]);
        check();
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    // Then W's positions as committed (T worth 1 USD a unit: S1 known, S2 its lookalike), and W2's.
    holdings(db, W, '2026-10-01', [hold(T, 'TKN', 100, 100)]);
    holdings(db, W2, '2026-10-01', [hold(USDC, 'USDC', 10, 10)]);
    expect(check()).toMatchObject([{ facts: { wallet: W, lookalike: S2, imitates: S1 } }]);
  });

  // Two files given the same writes: `kept`'s guard keeps its judge and checks only the wallets
  // whose positions alone moved; `fresh` is opened anew for each check (a guard with nothing kept).
  // Positions that make a sender known or not (a price of the token it sent), payments to
  // lookalikes, vouches set and cleared, snapshots purged, a wallet written in another case, a
  // second connection's writes, and a write with a check inside a transaction committed or rolled back.
  for (const seed of [21, 22]) {
    it(`fires and takes back the same alerts, seed ${seed}`, () => {
      const r = rng(seed * 31337);
      const wallets = [address(r), address(r), address(r)];
      const senders = Array.from({ length: 3 }, () => address(r));
      const looks = senders.map((s) => lookalike(s, r));
      const kept = createDB();
      const fresh = createDB();
      const second = openDatabase(kept.name);
      for (const db of [kept, fresh]) for (const w of wallets) addWallet(db, { address: w, chains: ['eth'] }, new Date('2026-01-01T00:00:00Z'));
      const alertsOf = (db: WritableDB) =>
        all(db, sql`SELECT subject, detail, fired_at, resolved_at, resolution FROM alerts WHERE kind = 'address-poisoning' ORDER BY id`);
      let clock = Date.UTC(2026, 10, 1, 12);
      const checkBoth = (what: string) => {
        clock += 60_000;
        const a = checkAlerts(kept, { now: clock });
        const again = openDatabase(fresh.name);
        try {
          const b = checkAlerts(again, { now: clock });
          const said = (xs: typeof a) => xs.filter((x) => x.kind === 'address-poisoning').map((x) => ({ subject: x.subject, detail: x.detail }));
          expect(said(a), what).toEqual(said(b));
        } finally {
          again.close();
        }
        expect(alertsOf(kept), what).toEqual(alertsOf(fresh));
      };
      for (let step = 0; step < 120; step++) {
        const w = r.pick(wallets);
        const k = r.int(0, 9);
        let op: (db: WritableDB) => void;
        let what: string;
        if (k < 4) {
          const held = r.next() < 0.7 ? [hold(T, 'TKN', 100, r.pick([0, 1, 100, 10_000]))] : [];
          const views = holdingViews(r.next() < 0.15 ? w.toUpperCase().replace('0X', '0x') : w, 'eth', r.pick(['2026-09-01', '2026-10-01']), held).inputs;
          what = `positions of ${w}`;
          op = (db) => void insertSnapshots(db, views);
        } else if (k < 8) {
          const i = r.int(0, senders.length - 1);
          const paying = k >= 6;
          const t = paying
            ? txn({
                wallet_id: w,
                from: w,
                to: r.next() < 0.8 ? looks[i]! : senders[i]!,
                action_type: 'transfer_out',
                date: `2026-04-0${r.int(1, 9)}T00:00:00Z`,
                details: [{ token_cid: USDC, type: 'out', qty: 900, symbol: 'USDC' }],
              })
            : txn({
                wallet_id: w,
                from: senders[i]!,
                to: w,
                date: `2026-03-0${r.int(1, 9)}T00:00:00Z`,
                details: [{ token_cid: T, type: 'in', qty: r.pick([0.5, 100]), symbol: 'TKN' }],
              });
          what = `${paying ? 'a payment' : 'a receipt'} of ${w}`;
          op = (db) => void upsertTransactions(db, w, 'eth', [t]);
        } else if (k === 8) {
          const target = r.pick(looks);
          const on = r.next() < 0.5;
          what = `a vouch for ${target} ${on ? 'set' : 'cleared'}`;
          op = (db) => {
            if (on) markSpam(db, { kind: 'address', target, verdict: 'not-spam' });
            else clearSpam(db, { kind: 'address', target });
          };
        } else {
          what = `${w}'s positions purged`;
          op = (db) => purgeWalletSnapshots(db, w);
        }
        const outer = r.int(0, 4);
        if (outer < 2) {
          // The write and a check in one transaction of `kept`'s: committed, or rolled back.
          clock += 60_000;
          const now = clock;
          try {
            kept.transaction(() => {
              op(kept);
              checkAlerts(kept, { now });
              if (outer === 1) throw new Error('roll back');
            })();
          } catch (err) {
            if ((err as Error).message !== 'roll back') throw err;
          }
          if (outer === 0) {
            op(fresh);
            const again = openDatabase(fresh.name);
            checkAlerts(again, { now });
            again.close();
          }
        } else {
          op(r.next() < 0.3 ? second : kept);
          op(fresh);
        }
        if (r.next() < 0.7) checkBoth(`step ${step}: ${what}`);
      }
      second.close();
      // The walk fired alerts and took some back (it is not a walk where nothing happens).
      expect(alertsOf(kept).length).toBeGreaterThan(3);
    });
  }
});

describe('which wallets’ positions alone moved', () => {
  const c = (n: number, positions: number) => ({ n, positions });
  it('names them, or says null when anything else moved, went back or went away', () => {
    const before = new Map([
      ['', c(3, 0)],
      [W, c(5, 2)],
      [W2, c(1, 1)],
    ]);
    expect(positionsMoved(before, new Map(before))).toEqual([]);
    expect(positionsMoved(before, new Map([...before, [W, c(8, 5)]]))).toEqual([W]);
    expect(positionsMoved(before, new Map([...before, ['0xnew', c(3, 3)]]))).toEqual(['0xnew']);
    expect(positionsMoved(before, new Map([...before, [W, c(8, 4)]]))).toBeNull();
    expect(positionsMoved(before, new Map([...before, ['', c(4, 0)]]))).toBeNull();
    expect(positionsMoved(before, new Map([...before, [W, c(4, 1)]]))).toBeNull();
    expect(
      positionsMoved(
        before,
        new Map([
          ['', c(3, 0)],
          [W, c(5, 2)],
        ]),
      ),
    ).toBeNull();
    expect(positionsMoved(before, new Map([...before, ['0xnew', c(2, 1)]]))).toBeNull();
  });
});
