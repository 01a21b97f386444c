import { describe, expect, it } from 'vitest';
import { applyRulesToAll, applyRulesToNew, previewRule } from '../../src/main/core/annotations/apply.ts';
import { amountOf, directionOf, matches, type RuleContext } from '../../src/main/core/annotations/rules.ts';
import {
  getAnnotation,
  listAnnotations,
  listCategories,
  listRules,
  removeCategory,
  removeRule,
  reorderRules,
  saveCategory,
  saveRule,
  setAnnotation,
  watchedAddresses,
  writeRuleCategories,
} from '../../src/main/core/annotations/store/annotations.ts';
import { listEdits } from '../../src/main/core/audit/store/trail.ts';
import { categoriesOf } from '../../src/main/core/ledger/store/annotated.ts';
import { ruleTxnsAfter } from '../../src/main/core/ledger/store/rule-inputs.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import { countExportTransactions, exportTransactionRows } from '../../src/main/core/ledger/store/export.ts';
import { applyRestatements, storedInWindow } from '../../src/main/core/transactions/store/restatements.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { RuleConditionsSchema } from '../../src/shared/contract.ts';
import type { RuleConditions } from '../../src/shared/model.ts';
import { createDB } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

/**
 * Notes, categories and rules in the store (issue 28, item 2): each kind of condition, the first
 * matching rule winning, a manual choice winning over every rule, "apply to existing", new rows
 * after a write, and a note outliving its transaction. Real SQLite; the audit trail read back.
 */
const W = '0x' + '1'.repeat(40);
const W2 = '0x' + '2'.repeat(40);
const X = '0x' + 'a'.repeat(40);
const ROUTER = '0x' + 'b'.repeat(40);
const T0 = Date.UTC(2026, 0, 1) / 1000;
const hash = (n: number) => '0x' + n.toString(16).padStart(64, '0');
const usdc = (type: 'in' | 'out', qty: number | null) => ({ token_cid: '0xusdc', type, qty, symbol: 'USDC' });
const eth = (type: 'in' | 'out', qty: number) => ({ token_cid: 'eth', type, qty, symbol: 'ETH' });
const txn = (n: number, fields: Record<string, unknown>) =>
  transactionRow({ wallet_id: W, txn_hash: hash(n), date: new Date((T0 + n * 3600) * 1000).toISOString(), ...fields });

/** Seven transactions of W, one per kind of thing a rule looks at. */
function seeded(): WritableDB {
  const db = createDB();
  addWallet(db, { address: W, chains: ['eth', 'polygon'] });
  addWallet(db, { address: W2, chains: ['eth'] });
  upsertTransactions(db, W, 'eth', [
    txn(1, { from: W, to: X, method_hex: '0xA9059CBB', details: [usdc('out', 100)] }), // payment out
    txn(2, { from: X, to: W, details: [eth('in', 5)] }), // received
    txn(3, { from: W, to: W2, details: [usdc('out', 10)] }), // to our other wallet
    txn(4, { from: W, to: W, details: [] }), // to itself
    txn(5, { from: W, to: ROUTER, action_type: 'swap', method_hex: '0x38ed1739', details: [eth('out', 1), usdc('in', 3000)] }),
    txn(7, { from: W, to: X, details: [usdc('out', null)] }), // quantity not known
  ]);
  upsertTransactions(db, W, 'polygon', [txn(6, { chain_id: 'polygon', from: W, to: X, details: [usdc('out', 50)] })]);
  return db;
}

const byHash = (db: WritableDB) => new Map(ruleTxnsAfter(db, 0, 100).map((t) => [Number(BigInt(t.txnHash)), t]));
const matched = (db: WritableDB, c: RuleConditions, ctx?: Partial<RuleContext>) => {
  const context: RuleContext = { watched: watchedAddresses(db), ...ctx };
  return [...byHash(db)]
    .filter(([, t]) => matches(c, t, context))
    .map(([n]) => n)
    .sort((a, b) => a - b);
};

describe('what a rule matches', () => {
  it('holds each kind of condition to its own meaning', () => {
    const db = seeded();
    const t = byHash(db);
    const watched = watchedAddresses(db);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => directionOf(t.get(n)!, watched))).toEqual(['out', 'in', 'internal', 'self', 'out', 'out', 'out']);
    expect(amountOf(t.get(5)!, 'usdc')).toBe(3000);
    expect(amountOf(t.get(5)!, '0xusdc')).toBe(3000);
    expect(amountOf(t.get(7)!, 'USDC')).toBeNull(); // unknown is never a number
    expect(amountOf(t.get(2)!, 'USDC')).toBeNull(); // moved none
    // Counterparty: the other side, in any case.
    expect(matched(db, { counterparties: [X] })).toEqual([1, 2, 6, 7]);
    expect(matched(db, { counterparties: [X.toUpperCase().replace('0X', '0x')].map((a) => a.toLowerCase()) })).toEqual([1, 2, 6, 7]);
    // Names come from the address book's namer; without one, a name condition never holds.
    expect(matched(db, { counterpartyNames: ['Grantee X'] })).toEqual([]);
    const namer = (a: string | null) => (a === X ? { name: 'Grantee X' } : null);
    expect(matched(db, { counterpartyNames: ['grantee x'] }, { namer })).toEqual([1, 2, 6, 7]);
    expect(matched(db, { direction: 'out' })).toEqual([1, 5, 6, 7]);
    expect(matched(db, { direction: 'in' })).toEqual([2]);
    expect(matched(db, { direction: 'internal' })).toEqual([3]);
    expect(matched(db, { direction: 'self' })).toEqual([4]);
    expect(matched(db, { actionTypes: ['swap'] })).toEqual([5]);
    expect(matched(db, { methods: ['0xa9059cbb'] })).toEqual([1]);
    expect(matched(db, { token: 'USDC' })).toEqual([1, 3, 5, 6, 7]);
    expect(matched(db, { token: 'eth' })).toEqual([2, 5]);
    // The amount of that token: inclusive bounds; an unknown quantity never falls in a range.
    expect(matched(db, { token: 'USDC', minAmount: 50 })).toEqual([1, 5, 6]);
    expect(matched(db, { token: 'USDC', minAmount: 10, maxAmount: 100 })).toEqual([1, 3, 6]);
    expect(matched(db, { token: 'USDC', maxAmount: 9.99 })).toEqual([]);
    expect(matched(db, { chains: ['polygon'] })).toEqual([6]);
    expect(matched(db, { wallets: [W2] })).toEqual([]);
    expect(matched(db, { wallets: [W] })).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // All conditions must hold.
    expect(matched(db, { direction: 'out', token: 'USDC', minAmount: 60, chains: ['eth'] })).toEqual([1, 5]); // the swap received 3,000
    expect(matched(db, { direction: 'out', token: 'USDC', minAmount: 60, maxAmount: 1000, chains: ['eth'] })).toEqual([1]);
  });

  it('refuses a rule with no condition, an amount without a token, a reversed range, an unknown category; stores nothing of it', () => {
    const db = seeded();
    expect(() => saveRule(db, { category: 'Payroll', conditions: {} })).toThrow(/at least one condition/);
    expect(() => saveRule(db, { category: 'Payroll', conditions: { minAmount: 1 } })).toThrow(/name the token/);
    expect(() => saveRule(db, { category: 'Payroll', conditions: { token: 'USDC', minAmount: 5, maxAmount: 1 } })).toThrow(/below the smallest/);
    expect(() => saveRule(db, { category: 'Nope', conditions: { token: 'USDC' } })).toThrow(/no category "Nope"/);
    expect(listRules(db)).toEqual([]);
    expect(listEdits(db, { entity: 'rule' })).toEqual([]);
  });
});

describe('applying the rules', () => {
  it('first matching rule wins; manual always wins; clearing it lets the rules decide; apply-to-existing never touches manual ones', () => {
    const db = seeded();
    const vendor = saveRule(db, { name: 'Vendor', category: 'Vendor payment', conditions: { direction: 'out', token: 'USDC' } });
    const swaps = saveRule(db, { name: 'Swaps', category: 'Swap', conditions: { actionTypes: ['swap'] } });
    expect(applyRulesToAll(db)).toEqual({ evaluated: 7, categorised: 4 });
    const cat = (n: number) => getAnnotation(db, { wallet: W, chain: n === 6 ? 'polygon' : 'eth', txnHash: hash(n) });
    expect(cat(1)).toMatchObject({ category: 'Vendor payment', source: 'rule', ruleId: vendor.id });
    expect(cat(5)).toMatchObject({ category: 'Vendor payment', source: 'rule' }); // the first rule took it
    expect(cat(2)).toBeNull();
    // Swaps first: the swap is a swap now.
    reorderRules(db, [swaps.id, vendor.id]);
    applyRulesToAll(db);
    expect(cat(5)).toMatchObject({ category: 'Swap', source: 'rule', ruleId: swaps.id });
    // A manual choice wins, and survives the rules applied again.
    setAnnotation(db, { wallet: W, chain: 'eth', txnHash: hash(1) }, { category: 'payroll', note: 'March salaries\nteam A' });
    applyRulesToAll(db);
    expect(cat(1)).toMatchObject({ category: 'Payroll', source: 'manual', ruleCategory: 'Vendor payment', note: 'March salaries\nteam A' });
    // Cleared: the rule's shows again; the note stays.
    setAnnotation(db, { wallet: W, chain: 'eth', txnHash: hash(1) }, { category: null });
    expect(cat(1)).toMatchObject({ category: 'Vendor payment', source: 'rule', note: 'March salaries\nteam A' });
    // A rule removed: what it set goes (and an annotation left empty with it).
    removeRule(db, vendor.id);
    applyRulesToAll(db);
    expect(cat(6)).toBeNull();
    expect(cat(1)).toMatchObject({ category: null, source: null, note: 'March salaries\nteam A' });
    // The monthly pack's read: keyed by wallet|chain|hash.
    const keys = [1, 5, 2].map((n) => ({ wallet: W, chain: 'eth', txnHash: hash(n) }));
    expect(categoriesOf(db, keys)).toEqual(
      new Map([
        [`${W}|eth|${hash(1)}`, { category: null, source: null, note: 'March salaries\nteam A' }],
        [`${W}|eth|${hash(5)}`, { category: 'Swap', source: 'rule', note: null }],
      ]),
    );
    // Every user edit is in the trail, with before and after; the rules' categories are not.
    const trail = listEdits(db, {})
      .reverse()
      .filter((e) => e.entity !== 'wallet');
    expect(trail.map((e) => [e.entity, e.action])).toEqual([
      ['rule', 'create'],
      ['rule', 'create'],
      ['rule', 'update'],
      ['rule', 'update'],
      ['note', 'create'],
      ['note', 'update'],
      ['rule', 'delete'],
    ]);
    expect(trail[5]).toMatchObject({
      key: `${W}|eth|${hash(1)}`,
      before: { note: 'March salaries\nteam A', category: 'Payroll' },
      after: { note: 'March salaries\nteam A', category: null },
    });
  });

  it('applies the rules to rows written since, and to restated ones; none at all when there is no rule', () => {
    const db = seeded();
    expect(applyRulesToNew(db)).toEqual({ evaluated: 0, categorised: 0 }); // no rule: only notes how far the cache goes
    saveRule(db, { category: 'Grants', conditions: { counterparties: [X], direction: 'out' } });
    applyRulesToAll(db);
    expect(applyRulesToNew(db)).toEqual({ evaluated: 0, categorised: 0 });
    upsertTransactions(db, W, 'eth', [txn(8, { from: W, to: X, details: [usdc('out', 1)] }), txn(9, { from: X, to: W, details: [usdc('in', 1)] })]);
    expect(applyRulesToNew(db)).toEqual({ evaluated: 2, categorised: 1 });
    expect(getAnnotation(db, { wallet: W, chain: 'eth', txnHash: hash(8) })).toMatchObject({ category: 'Grants', source: 'rule' });
    // A restatement turns #8 into an inflow: the rule no longer holds for it.
    const stored = storedInWindow(db, W, 'eth', T0, T0 + 100_000);
    applyRestatements(
      db,
      W,
      'eth',
      {
        late: [],
        changed: [{ row: txn(8, { from: X, to: W, details: [usdc('in', 1)] }), before: stored.get(hash(8))!, fields: ['details'], request: 'r' }],
        removed: [],
      },
      '2026-01-02T00:00:00.000Z',
    );
    expect(applyRulesToNew(db)).toMatchObject({ evaluated: 1, categorised: 0 });
    expect(getAnnotation(db, { wallet: W, chain: 'eth', txnHash: hash(8) })).toBeNull();
  });

  it('keeps a note on a transaction the service removed, as orphaned; a note on an unknown transaction is refused', () => {
    const db = seeded();
    const k = { wallet: W, chain: 'eth', txnHash: hash(2) };
    expect(() => setAnnotation(db, { ...k, txnHash: hash(99) }, { note: 'x' })).toThrow(/not a cached transaction/);
    expect(() => setAnnotation(db, k, { note: 'bad\u202etext' })).toThrow(/text-direction/);
    expect(() => setAnnotation(db, k, { note: 'x'.repeat(2001) })).toThrow(/too long/);
    expect(listAnnotations(db)).toEqual([]);
    setAnnotation(db, k, { note: 'Grant refund' });
    const stored = storedInWindow(db, W, 'eth', T0, T0 + 100_000);
    applyRestatements(db, W, 'eth', { late: [], changed: [], removed: [{ before: stored.get(hash(2))!, request: 'r' }] }, '2026-01-02T00:00:00.000Z');
    expect(getAnnotation(db, k)).toMatchObject({ note: 'Grant refund', orphaned: true });
    expect(listAnnotations(db, { orphanedOnly: true }).map((a) => a.txnHash)).toEqual([hash(2)]);
    // It returns (a new row id): the note is on it again.
    upsertTransactions(db, W, 'eth', [txn(2, { from: X, to: W, details: [eth('in', 5)] })]);
    expect(getAnnotation(db, k)).toMatchObject({ note: 'Grant refund', orphaned: false });
    expect(timelinePage(db, { wallet: W, search: hash(2) }).rows[0]).toMatchObject({ note: 'Grant refund', category: null });
  });

  it('filters the timeline and its count by category and uncategorised; the preview counts a rule before it is saved', () => {
    const db = seeded();
    expect(previewRule(db, { direction: 'out', token: 'USDC' })).toMatchObject({ matches: 4 });
    expect(previewRule(db, { direction: 'out', token: 'USDC' }, { wallets: [W2] })).toMatchObject({ matches: 0 });
    saveRule(db, { category: 'Vendor payment', conditions: { direction: 'out', token: 'USDC' } });
    applyRulesToAll(db);
    setAnnotation(db, { wallet: W, chain: 'eth', txnHash: hash(2) }, { category: 'Yield/Rewards' });
    const hashes = (filter: Parameters<typeof timelinePage>[1]) =>
      timelinePage(db, filter)
        .rows.map((r) => Number(BigInt(r.txnHash)))
        .sort();
    expect(hashes({ categories: ['vendor payment'] })).toEqual([1, 5, 6, 7]);
    expect(hashes({ categories: ['Yield/Rewards'] })).toEqual([2]);
    expect(hashes({ uncategorised: true })).toEqual([3, 4]);
    expect(hashes({ categories: ['Yield/Rewards'], uncategorised: true })).toEqual([2, 3, 4]);
    expect(countExportTransactions(db, { categories: ['vendor payment'] })).toBe(4);
    expect(countExportTransactions(db, { uncategorised: true, chains: ['eth'] })).toBe(2);
    expect(timelinePage(db, { categories: ['Yield/Rewards'] }).rows[0]!.category).toEqual({ name: 'Yield/Rewards', colour: '#16a34a', source: 'manual' });
  });

  it('the preview reads conditions as saving stores them: a checksummed address, an upper-case method, spaces', () => {
    // A user pastes addresses from an explorer in their checksummed (mixed-case) form; the saved
    // rule matches them (stored in lower case), so the preview of the same conditions must too.
    const db = seeded();
    const conditions = { counterparties: [` ${X.toUpperCase().replace('0X', '0x')} `], methods: ['0xA9059CBB'] };
    expect(previewRule(db, { counterparties: [X] })).toMatchObject({ matches: 4 });
    expect(previewRule(db, conditions)).toMatchObject({ matches: 1 });
    const rule = saveRule(db, { category: 'Vendor payment', conditions });
    expect(applyRulesToAll(db)).toMatchObject({ categorised: 1 });
    expect(rule.conditions).toEqual({ counterparties: [X], methods: ['0xa9059cbb'] });
    // A counterparty written 0x… that is no EVM address could never match: refused, as the address book refuses it.
    expect(() => saveRule(db, { category: 'Fees', conditions: { counterparties: ['0x12'] } })).toThrow(/EVM address/);
    expect(() => previewRule(db, { counterparties: ['0x12'] })).toThrow(/EVM address/);
    expect(() => saveRule(db, { category: 'Fees', conditions: { wallets: ['0x' + '1'.repeat(39)] } })).toThrow(/EVM address/);
  });

  it('an action type matches as the UI spells it (issue 39, item 3): any case, its label back to the stored value; an unknown one is said', () => {
    // The UI shows "Swap" and "Add liquidity" for the stored swap and add_liquidity: a rule typed
    // as shown matched nothing (silently) when compared exactly.
    const db = seeded();
    upsertTransactions(db, W, 'eth', [txn(8, { from: W, to: ROUTER, action_type: 'add_liquidity', details: [eth('out', 1)] })]);
    expect(matched(db, { actionTypes: ['Swap'] })).toEqual([5]);
    expect(matched(db, { actionTypes: ['SWAP'] })).toEqual([5]);
    expect(matched(db, { actionTypes: ['Add liquidity'] })).toEqual([8]);
    expect(matched(db, { actionTypes: ['add-liquidity', 'swap'] })).toEqual([5, 8]);
    expect(previewRule(db, { actionTypes: ['Swap'] })).toMatchObject({ matches: 1, unknownActionTypes: [] });
    // Saved as the UI spells it: stored as the transactions' value, and applied.
    const rule = saveRule(db, { category: 'Fees', conditions: { actionTypes: [' Swap ', 'Add liquidity'] } });
    expect(rule.conditions).toEqual({ actionTypes: ['swap', 'add_liquidity'] });
    expect(applyRulesToAll(db)).toMatchObject({ categorised: 2 });
    // A type no cached transaction has: the preview says so, with the known ones, rather than a bare 0.
    const unknown = previewRule(db, { actionTypes: ['Swop', 'swap'] });
    expect(unknown).toMatchObject({ matches: 1, unknownActionTypes: ['Swop'] });
    expect(unknown.knownActionTypes).toEqual(['add_liquidity', 'swap', 'transfer']);
  });

  it('categories: renamed, refused while a rule sets one, removed with their manual choices; each edit in the trail', () => {
    const db = seeded();
    const payroll = listCategories(db).find((c) => c.name === 'Payroll')!;
    expect(() => saveCategory(db, { name: 'grants' })).toThrow(/already a category/);
    expect(() => saveCategory(db, { name: 'A', colour: 'red' })).toThrow(/#rrggbb/);
    expect(() => saveCategory(db, { name: 'A\u0007' })).toThrow(/control/);
    const renamed = saveCategory(db, { id: payroll.id, name: 'Salaries', colour: '#112233' });
    expect(renamed).toMatchObject({ name: 'Salaries', colour: '#112233', kind: 'outflow' });
    setAnnotation(db, { wallet: W, chain: 'eth', txnHash: hash(1) }, { category: 'Salaries' });
    const rule = saveRule(db, { category: 'Salaries', conditions: { chains: ['polygon'] } });
    expect(() => removeCategory(db, payroll.id)).toThrow(/set by a rule/);
    removeRule(db, rule.id);
    expect(removeCategory(db, payroll.id)).toEqual({ removed: true, uncategorised: 1 });
    expect(getAnnotation(db, { wallet: W, chain: 'eth', txnHash: hash(1) })).toBeNull();
    expect(listEdits(db, { entity: 'category' }).map((e) => [e.action, e.key, (e.after as { name?: string } | null)?.name ?? null])).toEqual([
      ['delete', 'Salaries', null],
      ['update', 'Payroll', 'Salaries'],
    ]);
  });

  it('the export writes the same categories and notes whether it reads them into memory or joins them; one hash in two wallets keeps each its own', () => {
    const db = seeded();
    // The same hash in W2's history (one transaction seen from both wallets), annotated apart.
    upsertTransactions(db, W2, 'eth', [
      transactionRow({ wallet_id: W2, txn_hash: hash(1), date: new Date((T0 + 3600) * 1000).toISOString(), from: W, to: W2 }),
    ]);
    saveRule(db, { category: 'Swap', conditions: { actionTypes: ['swap'] } });
    applyRulesToAll(db);
    setAnnotation(db, { wallet: W, chain: 'eth', txnHash: hash(1) }, { category: 'Payroll', note: 'paid' });
    setAnnotation(db, { wallet: W2, chain: 'eth', txnHash: hash(1) }, { note: 'received, "quoted"\nline' });
    const cells = (inMemory: number) => [...exportTransactionRows(db, {}, { annotationsInMemory: inMemory })].map((r) => [r[1], r[3], r[16], r[17], r[18]]);
    const read = cells(250_000);
    expect(cells(0)).toEqual(read); // joined
    expect(read.filter((r) => r[2] !== null || r[4] !== null)).toEqual([
      [W, hash(1), 'Payroll', 'manual', 'paid'],
      [W2, hash(1), null, null, 'received, "quoted"\nline'],
      [W, hash(5), 'Swap', 'rule', null],
    ]);
  });
});

describe('failed transactions', () => {
  /** The seven, and W paying X 500 USDC three times over: failed (status 0), failed again, status unknown. */
  function withFailed(): WritableDB {
    const db = seeded();
    upsertTransactions(db, W, 'eth', [
      txn(10, { from: W, to: X, action_type: 'transfer_out', status: 0, details: [usdc('out', 500)] }),
      txn(11, { from: W, to: X, action_type: 'transfer_out', status: 0, details: [usdc('out', 500)] }),
      txn(12, { from: W, to: X, action_type: 'transfer_out', status: null, details: [usdc('out', 500)] }),
    ]);
    return db;
  }
  const key = (n: number) => ({ wallet: W, chain: 'eth', txnHash: hash(n) });

  it('a rule matches succeeded transactions only, unless it asks for failed ones or any', () => {
    const db = withFailed();
    // A failed transaction moved nothing: no rule's "out 500 USDC" holds for it.
    expect(matched(db, { direction: 'out', token: 'USDC', minAmount: 100 })).toEqual([1, 5]);
    expect(matched(db, { counterparties: [X] })).toEqual([1, 2, 6, 7]);
    expect(matched(db, { counterparties: [X], status: 'failed' })).toEqual([10, 11]);
    // Any: an unknown status too.
    expect(matched(db, { counterparties: [X], status: 'any' })).toEqual([1, 2, 6, 7, 10, 11, 12]);
    expect(previewRule(db, { direction: 'out', token: 'USDC' }).matches).toBe(4);
    // The contract (and so the CLI, the dialog and the data file) takes the condition, alone too.
    expect(RuleConditionsSchema.parse({ status: 'failed' })).toEqual({ status: 'failed' });
    expect(() => RuleConditionsSchema.parse({ status: 'pending' })).toThrow();
    const failedRule = saveRule(db, { name: 'Failed', category: 'Fees', conditions: { status: 'failed' } });
    expect(listRules(db).find((r) => r.id === failedRule.id)!.conditions).toEqual({ status: 'failed' });
  });

  it('applying the rules again takes a rule-made category off a failed transaction, never a manual one', () => {
    const db = withFailed();
    const vendor = saveRule(db, { name: 'Vendor', category: 'Vendor payment', conditions: { direction: 'out', token: 'USDC' } });
    // As rules categorised before they looked at the status: both failed rows "Vendor payment".
    writeRuleCategories(
      db,
      [10, 11].map((n) => ({ txn: key(n), rule: vendor })),
    );
    setAnnotation(db, key(11), { category: 'Fees' });
    expect(getAnnotation(db, key(10))).toMatchObject({ category: 'Vendor payment', source: 'rule' });
    applyRulesToAll(db);
    expect(getAnnotation(db, key(10))).toBeNull();
    expect(getAnnotation(db, key(12))).toBeNull();
    expect(getAnnotation(db, key(11))).toMatchObject({ category: 'Fees', source: 'manual', ruleCategory: null });
    expect(getAnnotation(db, key(1))).toMatchObject({ category: 'Vendor payment', source: 'rule' });
  });

  it('a payment restated as failed loses the category a rule gave it at the next application to new rows', () => {
    const db = withFailed();
    saveRule(db, { category: 'Grants', conditions: { counterparties: [X], direction: 'out' } });
    applyRulesToAll(db);
    expect(getAnnotation(db, key(1))).toMatchObject({ category: 'Grants', source: 'rule' });
    const stored = storedInWindow(db, W, 'eth', T0, T0 + 100_000);
    applyRestatements(
      db,
      W,
      'eth',
      {
        late: [],
        changed: [{ row: txn(1, { from: W, to: X, status: 0, details: [] }), before: stored.get(hash(1))!, fields: ['status', 'details'], request: 'r' }],
        removed: [],
      },
      '2026-01-02T00:00:00.000Z',
    );
    expect(applyRulesToNew(db)).toMatchObject({ evaluated: 1, categorised: 0 });
    expect(getAnnotation(db, key(1))).toBeNull();
  });
});
