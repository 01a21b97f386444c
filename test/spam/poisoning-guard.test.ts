import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { checkAlerts } from '../../src/main/core/alerts/check.ts';
import { acknowledgeAlert, alertInbox, saveAlertRule, snoozeAlert } from '../../src/main/core/alerts/store/alerts.ts';
import { removeCounterparty, saveCounterparty } from '../../src/main/core/counterparties/book.ts';
import { clearSpam, importSpamList, markSpam } from '../../src/main/core/spam/verdicts.ts';
import type { WritableDB } from '../../src/main/core/store/handles.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { purgeWalletHistory } from '../../src/main/core/transactions/store/purge.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import type { Alert } from '../../src/shared/model.ts';
import { putPositions } from '../support/alerts.ts';
import { cacheOf, createDB, tempDir } from '../support/store.ts';
import { txn } from './support.ts';

/**
 * The poisoning guard over a real cache (alerts/poisoning.ts, run by alerts/check.ts): its alert
 * is taken back, with why, once the lookalike is a counterparty the user vouched for (the address
 * book, "not spam", a list, a watched wallet) or the payment is no longer cached or is cached as
 * failed; never one the user acknowledged; not fired again while that holds. And a guard that
 * cannot run says so in the inbox, once, until it runs through again. The clock pinned.
 */
const W = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const W2 = '0x' + '7'.repeat(40);
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const G = '0xa1b2' + '3'.repeat(32) + 'c3d4';
const LOOK = '0xa1b2' + '9'.repeat(32) + 'c3d4';
const T0 = Date.UTC(2026, 10, 1, 12);
const HOUR = 3_600_000;

const pay = (to: string, date: string, qty: number) =>
  txn({ wallet_id: W, from: W, to, action_type: 'transfer_out', date, details: [{ token_cid: USDC, type: 'out', qty, symbol: 'USDC' }] });
const paidG = pay(G, '2026-03-01T00:00:00Z', 1200);
const dust = txn({ wallet_id: W, from: LOOK, to: W, date: '2026-03-05T00:00:00Z', details: [{ token_cid: USDC, type: 'in', qty: 0.000001, symbol: 'USDC' }] });
const paidLook = pay(LOOK, '2026-04-01T00:00:00Z', 900);
const paidGAgain = pay(G, '2026-05-01T00:00:00Z', 1200);

function poisoned(): WritableDB {
  const db = createDB();
  addWallet(db, { address: W, chains: ['eth'], label: 'Ops' }, new Date(T0 - 24 * HOUR));
  upsertTransactions(db, W, 'eth', [paidG, dust, paidLook, paidGAgain]);
  return db;
}
let clock = T0;
const check = (db: WritableDB) => checkAlerts(db, { now: (clock += HOUR) });
const alerts = (db: WritableDB): Alert[] =>
  alertInbox(db, { all: true, now: new Date(clock).toISOString() }).alerts.filter((a) => a.kind === 'address-poisoning');

describe('the poisoning guard takes back its alert', () => {
  it('once the lookalike is named in the address book: resolved with why, the payments to the real counterparty never flagged, not fired again', () => {
    const db = poisoned();
    const [first, ...more] = check(db);
    expect(more).toEqual([]);
    expect(first).toMatchObject({ kind: 'address-poisoning', facts: { severity: 'high', lookalike: LOOK, imitates: G, txnHash: paidLook.txn_hash } });
    expect(check(db)).toEqual([]);

    saveCounterparty(db, { address: LOOK, name: 'Vendor B' });
    expect(check(db)).toEqual([]);
    const [taken] = alerts(db);
    expect(taken).toMatchObject({ id: first!.id, resolvedAt: new Date(clock).toISOString(), acknowledgedAt: null });
    expect(taken!.resolution).toBe(
      `No longer a payment to a lookalike: ${LOOK} is in the address book as "Vendor B", a counterparty you vouched for (remove that to be warned again).`,
    );
    // Checked again and again: nothing fires, neither about LOOK nor about G (paid before LOOK appeared).
    expect(check(db)).toEqual([]);
    expect(check(db)).toEqual([]);
    expect(alerts(db)).toHaveLength(1);

    // The entry removed: the payment is to a lookalike again, and says so anew.
    removeCounterparty(db, LOOK);
    const [again] = check(db);
    expect(again).toMatchObject({ facts: { lookalike: LOOK, txnHash: paidLook.txn_hash }, resolvedAt: null });
    expect(again!.id).not.toBe(first!.id);
  });

  it('once the user calls the lookalike not spam for the wallet or every wallet; not for another wallet only', () => {
    const db = poisoned();
    addWallet(db, { address: W2, chains: ['eth'] }, new Date(T0 - 24 * HOUR));
    const [first] = check(db);
    markSpam(db, { kind: 'address', target: LOOK, wallet: W2, verdict: 'not-spam' });
    expect(check(db)).toEqual([]);
    expect(alerts(db)[0]).toMatchObject({ id: first!.id, resolvedAt: null });

    markSpam(db, { kind: 'address', target: LOOK, verdict: 'not-spam', note: 'our vendor' });
    expect(check(db)).toEqual([]);
    expect(alerts(db)[0]!.resolution).toBe(
      `No longer a payment to a lookalike: you marked ${LOOK} not spam for every wallet, a counterparty you vouched for (remove that to be warned again).`,
    );
    expect(check(db)).toEqual([]);
    // This wallet's own "spam" beats every wallet's "not spam": the lookalike is one again.
    markSpam(db, { kind: 'address', target: LOOK, wallet: W, verdict: 'spam' });
    expect(check(db)).toHaveLength(1);
    clearSpam(db, { kind: 'address', target: LOOK, wallet: W });
    expect(check(db)).toEqual([]);
    expect(alerts(db).map((a) => a.resolution)).toEqual([
      expect.stringMatching(/not spam for every wallet/),
      expect.stringMatching(/not spam for every wallet/),
    ]);
  });

  it('once a list the user imported calls it genuine, or it is a watched wallet', () => {
    const db = poisoned();
    check(db);
    importSpamList(db, JSON.stringify({ version: 1, addresses: [{ address: LOOK, chain: 'eth', verdict: 'genuine' }] }), 'vendors');
    check(db);
    expect(alerts(db)[0]!.resolution).toBe(
      `No longer a payment to a lookalike: the list "vendors" calls ${LOOK} genuine, a counterparty you vouched for (remove that to be warned again).`,
    );
    const other = poisoned();
    check(other);
    addWallet(other, { address: LOOK, chains: ['eth'], label: 'Payroll' });
    check(other);
    expect(alerts(other)[0]!.resolution).toMatch(new RegExp(`^No longer a payment to a lookalike: ${LOOK} is a watched wallet \\("Payroll"\\)`));
  });

  it('once the payment is no longer cached, or cached as failed', () => {
    const db = poisoned();
    check(db);
    upsertTransactions(db, W, 'eth', [{ ...paidLook, status: 0 }]);
    expect(check(db)).toEqual([]);
    expect(alerts(db)[0]!.resolution).toBe(`Transaction ${paidLook.txn_hash} of ${W} on eth is now cached as failed: no money left the wallet in it.`);
    const other = poisoned();
    check(other);
    purgeWalletHistory(other, W);
    expect(check(other)).toEqual([]);
    expect(alerts(other)[0]!.resolution).toBe(
      `Transaction ${paidLook.txn_hash} of ${W} on eth is no longer in the cache (its transactions were cleared, or the wallet removed with its data): no payment is left to check.`,
    );
    // Synced back: the payment is there again, to a lookalike, and says so.
    upsertTransactions(other, W, 'eth', [paidG, dust, paidLook]);
    expect(check(other)).toHaveLength(1);
  });

  it('never one the user acknowledged: it stays as they left it, and nothing fires again', () => {
    const db = poisoned();
    const [first] = check(db);
    acknowledgeAlert(db, first!.id, new Date(clock).toISOString());
    saveCounterparty(db, { address: LOOK, name: 'Vendor B' });
    expect(check(db)).toEqual([]);
    expect(alerts(db)).toEqual([expect.objectContaining({ id: first!.id, resolvedAt: null, resolution: null, acknowledgedAt: expect.any(String) })]);
    purgeWalletHistory(db, W);
    expect(check(db)).toEqual([]);
    expect(alerts(db)[0]).toMatchObject({ resolvedAt: null, resolution: null });
  });

  it('one only snoozed is taken back as any other', () => {
    const db = poisoned();
    const [first] = check(db);
    snoozeAlert(db, first!.id, new Date(clock + 24 * HOUR).toISOString());
    markSpam(db, { kind: 'address', target: LOOK, verdict: 'not-spam' });
    check(db);
    expect(alerts(db)[0]).toMatchObject({ id: first!.id, resolvedAt: new Date(clock).toISOString(), resolution: expect.stringMatching(/not spam/) });
  });

  it('a rule’s alert resolved as its condition cleared says no more than that (no resolution)', () => {
    const db = poisoned();
    saveAlertRule(db, { scope: { kind: 'all' }, condition: { kind: 'health', below: 1.2 } }, new Date(T0));
    putPositions(db, W, 'eth', '2026-10-01', { lending: { cid: 'L1', ratio: 1.4, threshold: 0.8 } });
    expect(check(db).map((a) => a.kind)).toEqual(['health', 'address-poisoning']);
    putPositions(db, W, 'eth', '2026-10-02', { lending: { cid: 'L1', ratio: 1.7, threshold: 0.8 } });
    check(db);
    const health = alertInbox(db, { all: true, now: new Date(clock).toISOString() }).alerts.find((a) => a.kind === 'health')!;
    expect(health).toMatchObject({ resolvedAt: new Date(clock).toISOString(), resolution: null });
  });
});

describe('a guard that cannot run says so', () => {
  it('a damaged cached row: one alert naming it and what is not checked, not repeated; resolved once the guard runs through', () => {
    const db = poisoned();
    // A payment's transfers that are JSON but no list: the cache's fault, named by its transaction.
    db.prepare('UPDATE transactions SET details = ? WHERE txn_hash = ?').run(
      JSON.stringify({ damaged: { token_cid: USDC, type: 'out', qty: 5, symbol: 'USDC' } }),
      paidGAgain.txn_hash,
    );
    const [failed, ...more] = check(db);
    expect(more).toEqual([]);
    expect(failed).toMatchObject({ kind: 'address-poisoning', subject: 'poisoning-guard', wallet: null, ruleId: null, resolvedAt: null });
    expect(failed!.title).toBe('The address-poisoning guard could not check the payments');
    expect(failed!.detail).toBe(
      `Payments to lookalike addresses are not being checked: the cached transaction ${paidGAgain.txn_hash} of ${W} on eth has a list of transfers that cannot be read. The guard runs again after every sync and edit; this alert is resolved once it runs through.`,
    );
    expect(failed!.facts).toEqual({ check: 'poisoning-guard', error: expect.stringContaining(paidGAgain.txn_hash) });
    expect(failed!.facts['severity']).toBeUndefined();
    // Still failing: not said twice.
    expect(check(db)).toEqual([]);

    // Not JSON at all (SQLite's own error, which names no row): said plainly, without the row's text.
    db.prepare('UPDATE transactions SET details = ? WHERE txn_hash = ?').run('[{"type":"out","qty":5, SECRET-ROW-TEXT', paidGAgain.txn_hash);
    expect(check(db)).toEqual([]);
    const other = poisoned();
    other.prepare('UPDATE transactions SET details = ? WHERE txn_hash = ?').run('[{"type":"out","qty":5, SECRET-ROW-TEXT', paidGAgain.txn_hash);
    const [plain] = check(other);
    expect(plain!.detail).toMatch(
      /^Payments to lookalike addresses are not being checked: the cached transaction 0x[0-9a-f]+ of 0x5a0b.* on eth has a list of transfers that cannot be read\./,
    );
    expect(JSON.stringify(plain)).not.toContain('SECRET-ROW-TEXT');

    // Repaired (synced again): the guard runs through, its failure resolved, and the poisoning found.
    upsertTransactions(db, W, 'eth', [paidGAgain]);
    const fired = check(db);
    expect(fired.map((a) => a.subject)).toEqual([`poisoning:${W}|eth|${paidLook.txn_hash}`]);
    const done = alerts(db).find((a) => a.id === failed!.id)!;
    expect(done).toMatchObject({ resolvedAt: new Date(clock).toISOString(), resolution: 'The guard ran again and checked every cached payment.' });
  });
});

describe('through the core, as the app and the CLI drive it', () => {
  it('an address-book entry saved, or the cache cleared, sets off the guard: its alert taken back with why, on the core’s clock', async () => {
    const at = T0 + 48 * HOUR;
    const core = await createCore({
      dataDir: tempDir(),
      shell: 'web',
      baseUrl: null,
      env: {},
      demo: demoStarter({ now: () => at }),
      scheduleEveryMs: 0,
      now: () => at,
    });
    try {
      await core.request('wallets.add', { address: W, chains: ['eth'] });
      const db = await cacheOf(core);
      upsertTransactions(db, W, 'eth', [paidG, dust, paidLook, paidGAgain]);
      const [first] = await core.request('alerts.check', undefined);
      expect(first).toMatchObject({ facts: { lookalike: LOOK }, firedAt: new Date(at).toISOString() });

      await core.request('counterparties.save', { address: LOOK, name: 'Vendor B' });
      await core.request('sync.settle', undefined);
      let [taken] = (await core.request('alerts.inbox', { all: true })).alerts;
      expect(taken).toMatchObject({
        id: first!.id,
        resolvedAt: new Date(at).toISOString(),
        resolution: expect.stringMatching(/in the address book as "Vendor B"/),
      });

      await core.request('counterparties.remove', { address: LOOK });
      await core.request('sync.settle', undefined);
      const open = (await core.request('alerts.inbox', { all: true })).alerts.filter((a) => a.resolvedAt === null);
      expect(open).toEqual([expect.objectContaining({ facts: expect.objectContaining({ txnHash: paidLook.txn_hash }) })]);

      await core.request('cache.clear', undefined);
      await core.request('sync.settle', undefined);
      [taken] = (await core.request('alerts.inbox', { all: true })).alerts;
      expect(taken).toMatchObject({ id: open[0]!.id, resolution: expect.stringMatching(/is no longer in the cache/) });
    } finally {
      await core.close();
    }
  });
});
