import { describe, expect, it } from 'vitest';
import { checkAlerts } from '../../src/main/core/alerts/check.ts';
import { alertInbox, acknowledgeAlert, listAlertRules, removeAlertRule, saveAlertRule, snoozeAlert } from '../../src/main/core/alerts/store/alerts.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { saveGroup } from '../../src/main/core/store/groups.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import type { AlertCondition, ScheduleScope } from '../../src/shared/model.ts';
import { markSynced } from '../support/analytics.ts';
import { putPositions, putTransfers } from '../support/alerts.ts';
import { createDB } from '../support/store.ts';

/**
 * Each kind of rule over a cache seeded by hand: it fires once, not again while its condition
 * holds, is resolved when the condition clears, and fires again when it holds again; what the
 * cache cannot tell (a chain not cached, an unreadable figure, a partial NAV date) neither
 * fires an alert nor clears one.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';
const T0 = Date.UTC(2026, 0, 10, 12);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function setup(chains = ['eth']): WritableDB {
  const db = createDB();
  addWallet(db, { address: A, chains, label: 'Ops' }, new Date(T0 - DAY));
  addWallet(db, { address: B, chains, label: 'Cold' }, new Date(T0 - DAY));
  return db;
}
const rule = (db: WritableDB, condition: AlertCondition, scope: ScheduleScope = { kind: 'all' }, at = T0) =>
  saveAlertRule(db, { scope, condition }, new Date(at)).id;
const check = (db: WritableDB, now = T0) => checkAlerts(db, { now });
const all = (db: WritableDB) => alertInbox(db, { all: true, now: new Date(T0).toISOString() }).alerts;
const open = (db: WritableDB) => all(db).filter((a) => a.resolvedAt === null);

describe('alert rules over the cache', () => {
  it('health: fires once below the threshold at the newest date, resolves above it, fires again; an unreadable figure or an uncached chain changes nothing', () => {
    const db = setup(['eth', 'arb']);
    rule(db, { kind: 'health', below: 1.2 }, { kind: 'wallet', address: A });
    putPositions(db, A, 'eth', '2025-12-01', { lending: { cid: 'L1', ratio: 1.6, threshold: 0.8 } }); // 1.28
    expect(check(db)).toEqual([]);
    putPositions(db, A, 'eth', '2025-12-02', { lending: { cid: 'L1', ratio: 1.4, threshold: 0.8 } }); // 1.12
    const [first, ...more] = check(db);
    expect(more).toEqual([]);
    expect(first).toMatchObject({ kind: 'health', wallet: A, subject: `${A}|eth|L1`, facts: { date: '2025-12-02', health: 1.12, below: 1.2 } });
    expect(first!.title).toBe('Health 1.12 below 1.2: Aave WETH supply / USDC borrow');
    // Holds still: not again.
    expect(check(db)).toEqual([]);
    expect(check(db, T0 + DAY)).toEqual([]);
    // An unreadable ratio at a newer date: not judged, the alert stays open.
    putPositions(db, A, 'eth', '2025-12-03', { lending: { cid: 'L1', ratio: null, threshold: 0.8 } });
    expect(check(db)).toEqual([]);
    expect(open(db).map((a) => a.id)).toEqual([first!.id]);
    expect(listAlertRules(db)[0]!.lastCheck!.note).toMatch(/Unreadable figures, not judged: .* on eth/);
    expect(listAlertRules(db)[0]!.lastCheck!.note).toMatch(/Not cached, not judged: 0x5a0b.* on arb/);
    // Back above: resolved.
    putPositions(db, A, 'eth', '2025-12-04', { lending: { cid: 'L1', ratio: 1.7, threshold: 0.8 } });
    expect(check(db)).toEqual([]);
    expect(open(db)).toEqual([]);
    expect(all(db)[0]!.resolvedAt).toBe(new Date(T0).toISOString());
    // Below again: a new alert.
    putPositions(db, A, 'eth', '2025-12-05', { lending: { cid: 'L1', ratio: 1.2, threshold: 0.8 } });
    const again = check(db);
    expect(again).toHaveLength(1);
    expect(again[0]!.id).not.toBe(first!.id);
    expect(again[0]!.facts['health']).toBe(0.96);
  });

  it('unlock: fires once when it comes within N days, resolves when the lock is gone, fires again when it is back', () => {
    const db = setup();
    rule(db, { kind: 'unlock', withinDays: 30 });
    const at = new Date(T0 + 40 * DAY).toISOString().replace('.000Z', 'Z');
    putPositions(db, A, 'eth', '2026-01-09', { unlock: { cid: 'V1', at, qty: 500 } });
    expect(check(db)).toEqual([]);
    const fired = check(db, T0 + 15 * DAY);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.title).toBe('Unlock in 25 days: 500 CRV of Curve veCRV');
    expect(check(db, T0 + 16 * DAY)).toEqual([]);
    putPositions(db, A, 'eth', '2026-01-10', { nav: 10 });
    expect(check(db, T0 + 16 * DAY)).toEqual([]);
    expect(open(db)).toEqual([]);
    putPositions(db, A, 'eth', '2026-01-11', { unlock: { cid: 'V1', at, qty: 500 } });
    expect(check(db, T0 + 17 * DAY)).toHaveLength(1);
    // Once the time has passed, it clears.
    check(db, T0 + 41 * DAY);
    expect(open(db)).toEqual([]);
  });

  it('NAV move: between the two newest fully cached dates; a partial newest date neither fires nor resolves, and says so', () => {
    const db = setup(['eth', 'arb']);
    const id = rule(db, { kind: 'nav-move', percent: 5 }, { kind: 'wallet', address: A });
    const day = (date: string, eth: number, arb?: number) => {
      putPositions(db, A, 'eth', date, { nav: eth });
      if (arb !== undefined) putPositions(db, A, 'arb', date, { nav: arb });
    };
    day('2025-12-01', 500, 500);
    expect(check(db)).toEqual([]);
    expect(listAlertRules(db)[0]!.lastCheck!.note).toBe('Only one fully cached date (2025-12-01): NAV move needs two.');
    day('2025-12-02', 510, 510); // +2 %
    expect(check(db)).toEqual([]);
    // Partial: only eth on the 3rd, and it halved: no alert, and the note says why.
    day('2025-12-03', 250);
    expect(check(db)).toEqual([]);
    expect(listAlertRules(db)[0]!.lastCheck!.note).toMatch(/^Partial coverage on 2025-12-03: 1 of 2 watched chains cached/);
    putPositions(db, A, 'arb', '2025-12-03', { nav: 850 }); // 1100: +7.84 %
    const fired = check(db);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ subject: 'nav', facts: { from: '2025-12-02', to: '2025-12-03', navFrom: 1020, navTo: 1100 } });
    expect(fired[0]!.title).toBe('NAV rose 7.84 % (more than 5 %)');
    expect(check(db)).toEqual([]);
    // A partial newest date does not clear it either.
    day('2025-12-04', 1100);
    expect(check(db)).toEqual([]);
    expect(open(db)).toHaveLength(1);
    putPositions(db, A, 'arb', '2025-12-04', { nav: 10 }); // 1110: +0.9 %
    check(db);
    expect(open(db)).toEqual([]);
    day('2025-12-05', 500, 500); // -9.9 %
    expect(check(db).map((a) => a.title)).toEqual(['NAV fell 9.91 % (more than 5 %)']);
    expect(all(db).filter((a) => a.kind === 'nav-move')).toHaveLength(2);
    expect(listAlertRules(db).find((r) => r.id === id)!.lastCheck!.note).toBe('NAV 2025-12-04 → 2025-12-05: -9.91 %.');
    // The same as figures, for the app to write in the user's language and format (issue 39, item 13).
    expect(listAlertRules(db).find((r) => r.id === id)!.lastCheck!.facts).toEqual({
      kind: 'nav-move',
      from: '2025-12-04',
      to: '2025-12-05',
      percent: expect.closeTo(-9.9099, 3),
      skipped: 0,
    });
  });

  it('outflow above an amount: only transactions after the rule was made; resolves when the transaction is gone, fires again when it is back', () => {
    const db = setup();
    rule(db, { kind: 'outflow', symbol: 'usdc', above: 1000 }, { kind: 'all' }, T0);
    putTransfers(db, A, 'eth', [
      { hash: '0x' + '1'.repeat(64), time: T0 - HOUR, to: B, out: [{ symbol: 'USDC', qty: 5000 }] }, // before the rule
      { hash: '0x' + '2'.repeat(64), time: T0 + HOUR, to: B, out: [{ symbol: 'USDC', qty: 500 }] }, // below
      {
        hash: '0x' + '3'.repeat(64),
        time: T0 + 2 * HOUR,
        to: B,
        out: [
          { symbol: 'USDC', qty: 600 },
          { symbol: 'USDC', qty: 600 },
        ],
      }, // 1,200 in two transfers
      { hash: '0x' + '4'.repeat(64), time: T0 + 3 * HOUR, to: B, in: [{ symbol: 'USDC', qty: 9000 }] }, // an inflow
      { hash: '0x' + '5'.repeat(64), time: T0 + 4 * HOUR, to: B, out: [{ symbol: 'USDC', qty: 9000 }], status: 0 }, // failed
    ]);
    const fired = check(db, T0 + 5 * HOUR);
    expect(fired.map((a) => a.facts['txnHash'])).toEqual(['0x' + '3'.repeat(64)]);
    expect(fired[0]!.title).toBe('Outflow of 1200 USDC (above 1000)');
    expect(check(db, T0 + 6 * HOUR)).toEqual([]);
    db.prepare('DELETE FROM transactions WHERE txn_hash = ?').run('0x' + '3'.repeat(64));
    check(db, T0 + 6 * HOUR);
    expect(open(db)).toEqual([]);
    putTransfers(db, A, 'eth', [{ hash: '0x' + '3'.repeat(64), time: T0 + 2 * HOUR, to: B, out: [{ symbol: 'USDC', qty: 1200 }] }]);
    expect(check(db, T0 + 7 * HOUR)).toHaveLength(1);
  });

  it('outflow to a new counterparty: an address the wallet never dealt with before; once seen, not new', () => {
    const db = setup(['eth', 'arb']);
    const OLD = '0x' + 'a'.repeat(40);
    const NEW = '0x' + 'b'.repeat(40);
    rule(db, { kind: 'new-counterparty' }, { kind: 'wallet', address: A }, T0);
    putTransfers(db, A, 'arb', [{ hash: '0x' + 'e'.repeat(64), time: T0 - DAY, from: OLD, to: A, in: [{ symbol: 'ETH', qty: 1 }] }]);
    putTransfers(db, A, 'eth', [
      { hash: '0x' + '1'.repeat(64), time: T0 + HOUR, to: OLD, out: [{ symbol: 'ETH', qty: 1 }] }, // seen on arb, as sender
      { hash: '0x' + '2'.repeat(64), time: T0 + 2 * HOUR, to: NEW, out: [{ symbol: 'USDC', qty: 5 }] },
      { hash: '0x' + '3'.repeat(64), time: T0 + 3 * HOUR, to: NEW, out: [{ symbol: 'USDC', qty: 7 }] }, // seen by then
    ]);
    // B's transactions are out of scope.
    putTransfers(db, B, 'eth', [{ hash: '0x' + '4'.repeat(64), time: T0 + HOUR, to: '0x' + 'c'.repeat(40), out: [{ symbol: 'USDC', qty: 5 }] }]);
    const fired = check(db, T0 + 4 * HOUR);
    expect(fired.map((a) => [a.facts['txnHash'], a.facts['to']])).toEqual([['0x' + '2'.repeat(64), NEW]]);
    expect(check(db, T0 + 5 * HOUR)).toEqual([]);
    db.prepare('DELETE FROM transactions WHERE txn_hash = ?').run('0x' + '2'.repeat(64));
    // Gone: resolved; the later transaction is now the first with NEW, so it fires.
    expect(check(db, T0 + 5 * HOUR).map((a) => a.facts['txnHash'])).toEqual(['0x' + '3'.repeat(64)]);
    expect(open(db).map((a) => a.facts['txnHash'])).toEqual(['0x' + '3'.repeat(64)]);
  });

  it('stale or incomplete sync: fires after N hours, resolves once synced, fires again when it ages again', () => {
    const db = setup();
    rule(db, { kind: 'stale', hours: 24 }, { kind: 'wallet', address: A });
    // The wallet was added a day before T0 and never synced: not yet past 24 h at T0.
    expect(check(db, T0 - HOUR)).toEqual([]);
    const fired = check(db, T0 + HOUR);
    expect(fired.map((a) => a.subject).sort()).toEqual([`${A}|positions`, `${A}|transactions`]);
    expect(fired.find((a) => a.subject.endsWith('positions'))!.title).toBe('Positions not synced for 25 h: Ops');
    expect(check(db, T0 + 2 * HOUR)).toEqual([]);
    // Synced (the helpers stamp 2026-01-01): positions and transactions fresh at that time.
    putPositions(db, A, 'eth', '2025-12-31', { nav: 1 });
    markSynced(db, A, 'eth', 0, 100, 'incomplete');
    const synced = Date.parse('2026-01-01T00:00:00.000Z');
    expect(check(db, synced + HOUR)).toEqual([]);
    expect(open(db)).toEqual([]);
    // Incomplete from the first check that saw it (synced + 1 h): fires 24 h after that.
    expect(check(db, synced + 20 * HOUR)).toEqual([]);
    const late = check(db, synced + 26 * HOUR);
    expect(late.map((a) => a.subject).sort()).toEqual([`${A}|incomplete`, `${A}|positions`, `${A}|transactions`]);
    expect(late.find((a) => a.subject.endsWith('incomplete'))!.facts['incompleteSince']).toBe(new Date(synced + HOUR).toISOString());
    markSynced(db, A, 'eth', 0, 100, 'complete');
    check(db, synced + 27 * HOUR);
    expect(
      open(db)
        .map((a) => a.subject)
        .sort(),
    ).toEqual([`${A}|positions`, `${A}|transactions`]);
  });

  it('a rule scoped to a group sees its members only; removing the rule keeps its alerts as resolved history', () => {
    const db = setup();
    const g = saveGroup(db, { name: 'Fund I', wallets: [B] });
    const id = rule(db, { kind: 'health', below: 1.5 }, { kind: 'group', id: g.id });
    putPositions(db, A, 'eth', '2025-12-01', { lending: { cid: 'LA', ratio: 1.1, threshold: 0.8 } });
    putPositions(db, B, 'eth', '2025-12-01', { lending: { cid: 'LB', ratio: 1.2, threshold: 0.8 } });
    expect(check(db).map((a) => a.wallet)).toEqual([B]);
    // A member leaves: its alert clears (it is no longer watched by this rule).
    saveGroup(db, { id: g.id, name: 'Fund I', wallets: [A] });
    expect(check(db).map((a) => a.wallet)).toEqual([A]);
    expect(open(db).map((a) => a.wallet)).toEqual([A]);
    expect(removeAlertRule(db, id)).toBe(true);
    expect(all(db).every((a) => a.ruleId === null && a.resolvedAt !== null)).toBe(true);
    expect(all(db)).toHaveLength(2);
  });

  it('the inbox counts what is neither acknowledged nor snoozed', () => {
    const db = setup();
    rule(db, { kind: 'health', below: 2 });
    putPositions(db, A, 'eth', '2025-12-01', { lending: { cid: 'LA', ratio: 1.1, threshold: 0.8 } });
    putPositions(db, B, 'eth', '2025-12-01', { lending: { cid: 'LB', ratio: 1.2, threshold: 0.8 } });
    const [a, b] = check(db);
    const now = new Date(T0).toISOString();
    expect(alertInbox(db, { now }).unread).toBe(2);
    expect(acknowledgeAlert(db, a!.id, now)).toBe(true);
    expect(snoozeAlert(db, b!.id, new Date(T0 + DAY).toISOString())).toBe(true);
    expect(alertInbox(db, { now })).toMatchObject({ unread: 0, alerts: [{ id: b!.id }] });
    expect(alertInbox(db, { now: new Date(T0 + 2 * DAY).toISOString() }).unread).toBe(1);
    expect(alertInbox(db, { now, all: true }).alerts).toHaveLength(2);
    // Acknowledged is not resolved: the condition still holds, so it does not fire again.
    expect(check(db)).toEqual([]);
  });
});
