import { describe, expect, it } from 'vitest';
import { readUserDataFile, SCRYPT, writeUserDataFile, type UserData } from '../../src/main/core/userdata/format.ts';
import { exportUserData, planImport } from '../../src/main/core/userdata/plan.ts';
import { applyUserData } from '../../src/main/core/userdata/store/user-data.ts';
import { addWallet, listWallets } from '../../src/main/core/store/wallets.ts';
import { listGroups, removeGroup, saveGroup } from '../../src/main/core/store/groups.ts';
import { listSchedules, saveSchedule } from '../../src/main/core/schedule/store/schedules.ts';
import { getSettings, updateSettings } from '../../src/main/core/store/settings.ts';
import { listAlertRules, saveAlertRule } from '../../src/main/core/alerts/store/alerts.ts';
import type { ReadableDB } from '../../src/main/core/store/db.ts';
import { createDB } from '../support/store.ts';
import { getAnnotation, listCategories, listRules, saveCategory, saveRule, setAnnotation } from '../../src/main/core/annotations/store/annotations.ts';
import { listEdits } from '../../src/main/core/audit/store/trail.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { transactionRow } from '../support/transactions.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';

/** The user's data file: what it holds, its encryption, and an import's plan, applied all or nothing. */
const W3 = '0x' + '3'.repeat(40);

function source() {
  const db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury', tags: ['ops', 'cold'] }, new Date('2025-03-01T00:00:00Z'));
  addWallet(db, { address: WALLET_2, chains: ['eth'], label: 'Staking' }, new Date('2025-03-02T00:00:00Z'));
  const g = saveGroup(db, { name: 'Fund I', wallets: [WALLET, WALLET_2] });
  saveSchedule(db, { scope: { kind: 'group', id: g.id }, what: 'positions', cadence: { every: 'hour', minute: 15 } });
  saveSchedule(db, { scope: { kind: 'wallet', address: WALLET }, what: 'both', cadence: { every: 'week', weekday: 1, hour: 7, minute: 30 } });
  // Alert rules of every kind, over every kind of scope.
  saveAlertRule(db, { scope: { kind: 'group', id: g.id }, condition: { kind: 'health', below: 1.1 } });
  saveAlertRule(db, { scope: { kind: 'wallet', address: WALLET }, condition: { kind: 'outflow', symbol: 'USDC', above: 50_000 } });
  saveAlertRule(db, { scope: { kind: 'wallet', address: WALLET_2 }, condition: { kind: 'unlock', withinDays: 7 } });
  saveAlertRule(db, { scope: { kind: 'group', id: g.id }, condition: { kind: 'nav-move', percent: 5 } });
  saveAlertRule(db, { scope: { kind: 'all' }, condition: { kind: 'new-counterparty' } });
  saveAlertRule(db, { scope: { kind: 'all' }, condition: { kind: 'stale', hours: 48 } });
  updateSettings(db, { theme: 'dark', timeZone: 'local', backupKeep: 14 });
  return db;
}

/** The rules as the user made them: scope (a group by name) and condition, nothing of this cache's. */
const rulesOf = (db: ReadableDB) => {
  const names = new Map(listGroups(db).map((g) => [g.id, g.name]));
  return listAlertRules(db).map(({ scope, condition }) => ({
    scope: scope.kind === 'group' ? { kind: 'group', name: names.get(scope.id) } : scope,
    condition,
  }));
};
const RULES = [
  { scope: { kind: 'group', name: 'Fund I' }, condition: { kind: 'health', below: 1.1 } },
  { scope: { kind: 'wallet', address: WALLET }, condition: { kind: 'outflow', symbol: 'USDC', above: 50_000 } },
  { scope: { kind: 'wallet', address: WALLET_2 }, condition: { kind: 'unlock', withinDays: 7 } },
  { scope: { kind: 'group', name: 'Fund I' }, condition: { kind: 'nav-move', percent: 5 } },
  { scope: { kind: 'all' }, condition: { kind: 'new-counterparty' } },
  { scope: { kind: 'all' }, condition: { kind: 'stale', hours: 48 } },
];

/** The file without categories, rules and notes, for the tests that count the other items. */
function withoutBooks(doc: UserData): void {
  doc.data.categories = [];
  doc.data.rules = [];
  doc.data.notes = [];
}

describe('the data file', () => {
  it('holds wallets, groups (by name), schedules, alert rules and settings; no ids, no base URL, no service data', async () => {
    const db = source();
    // A rule of a group since removed judges nothing: it is not carried (as a schedule of it is not).
    const gone = saveGroup(db, { name: 'Gone', wallets: [WALLET] });
    saveAlertRule(db, { scope: { kind: 'group', id: gone.id }, condition: { kind: 'health', below: 1.5 } });
    removeGroup(db, gone.id);
    const doc = exportUserData(db, 'Folioscope test', new Date('2026-01-01T00:00:00Z'));
    expect(doc).toMatchObject({ format: 'folioscope-user-data', version: 1, exportedAt: '2026-01-01T00:00:00.000Z' });
    expect(doc.data.wallets).toEqual([
      { address: WALLET, label: 'Treasury', tags: ['ops', 'cold'], chains: ['eth', 'arb'], createdAt: '2025-03-01T00:00:00.000Z' },
      { address: WALLET_2, label: 'Staking', tags: [], chains: ['eth'], createdAt: '2025-03-02T00:00:00.000Z' },
    ]);
    expect(doc.data.groups).toEqual([{ name: 'Fund I', wallets: [WALLET_2, WALLET].sort() }]);
    expect(doc.data.schedules[0]).toEqual({ scope: { kind: 'group', name: 'Fund I' }, what: 'positions', cadence: { every: 'hour', minute: 15 }, zone: 'utc' });
    // Scope and condition only: no id, no creation time, no last check, no fired alerts.
    expect(doc.data.alertRules).toEqual(RULES);
    expect(doc.data.settings).toMatchObject({ theme: 'dark', timeZone: 'local', backupKeep: 14, backupEnabled: true });
    expect(doc.data.settings).not.toHaveProperty('baseUrl');
    const text = await writeUserDataFile(doc);
    expect((await readUserDataFile(text)).doc).toEqual(doc);
  });

  it('encrypted: scrypt parameters in the header, the passphrase round-trips, a wrong one is refused', async () => {
    const doc = exportUserData(source(), 'Folioscope test');
    const text = await writeUserDataFile(doc, 'correct horse battery');
    const file = JSON.parse(text);
    expect(file.encryption).toMatchObject({ kdf: 'scrypt', N: SCRYPT.N, r: 8, p: 1, cipher: 'aes-256-gcm' });
    expect(text).not.toContain('Treasury');
    expect(text).not.toContain(WALLET.slice(2));
    expect(await readUserDataFile(text, 'correct horse battery')).toEqual({ doc, encrypted: true });
    await expect(readUserDataFile(text, 'wrong horse battery')).rejects.toThrow(/The passphrase is wrong/);
    await expect(readUserDataFile(text)).rejects.toThrow(/encrypted: give its passphrase/);
    // A parameter of the header changed: refused as a wrong passphrase would be (it is authenticated).
    const edited = JSON.stringify({ ...file, encryption: { ...file.encryption, r: 9 } });
    await expect(readUserDataFile(edited, 'correct horse battery')).rejects.toThrow(/The passphrase is wrong \(or the file was changed/);
    // Parameters a file cannot ask for.
    const greedy = JSON.stringify({ ...file, encryption: { ...file.encryption, N: 2 ** 20, r: 32 } });
    await expect(readUserDataFile(greedy, 'x')).rejects.toThrow(/more memory/);
  });

  it('refuses what is not a version 1 data file, saying what it is', async () => {
    await expect(readUserDataFile('nope')).rejects.toThrow(/not a Folioscope data file \(it is not JSON\)/);
    await expect(readUserDataFile('{"format":"other"}')).rejects.toThrow(/its "format" is not "folioscope-user-data"/);
    await expect(readUserDataFile('{"format":"folioscope-user-data","version":2,"data":{}}')).rejects.toThrow(
      /version 2; this Folioscope reads version 1 only/,
    );
    const doc = exportUserData(source(), 't');
    await expect(readUserDataFile(JSON.stringify({ ...doc, data: { ...doc.data, extra: [] } }))).rejects.toThrow(/not valid/);
    // A rule is checked as the app's form checks it.
    const badRule = { scope: { kind: 'all' }, condition: { kind: 'health', below: 0 } };
    await expect(readUserDataFile(JSON.stringify({ ...doc, data: { ...doc.data, alertRules: [badRule] } }))).rejects.toThrow(
      /not valid \(data\.alertRules\.0\.condition\.below/,
    );
    const withId = { scope: { kind: 'all' }, condition: { kind: 'stale', hours: 4 }, id: 3 };
    await expect(readUserDataFile(JSON.stringify({ ...doc, data: { ...doc.data, alertRules: [withId] } }))).rejects.toThrow(/not valid/);
  });
});

describe('an import', () => {
  it('into an empty cache adds everything, equal field by field', async () => {
    const from = source();
    const { doc } = await readUserDataFile(await writeUserDataFile(exportUserData(from, 't')));
    // The books' items (the seeded categories, unchanged in both) are planned in their own test below.
    withoutBooks(doc);
    const db = createDB();
    const { preview, writes } = planImport(db, doc, { encrypted: false, replace: false });
    // 2 wallets, 1 group, 2 schedules and 6 alert rules added; 3 settings changed, 5 the same.
    expect(preview.counts).toEqual({ added: 11, changed: 3, unchanged: 5, conflict: 0 });
    expect(preview.items.filter((i) => i.kind === 'alert')).toEqual([
      { kind: 'alert', key: 'health below 1.1, group "Fund I"', state: 'added', detail: '' },
      { kind: 'alert', key: `outflow of USDC above 50000, ${WALLET}`, state: 'added', detail: '' },
      { kind: 'alert', key: `unlock within 7 days, ${WALLET_2}`, state: 'added', detail: '' },
      { kind: 'alert', key: 'NAV move above 5 %, group "Fund I"', state: 'added', detail: '' },
      { kind: 'alert', key: 'outflow to a new counterparty, all wallets', state: 'added', detail: '' },
      { kind: 'alert', key: 'sync stale or incomplete for 48 h, all wallets', state: 'added', detail: '' },
    ]);
    expect(preview.items.filter((i) => i.kind === 'setting' && i.state === 'changed').map((i) => i.key)).toEqual(['theme', 'timeZone', 'backupKeep']);
    applyUserData(db, writes);
    expect(listWallets(db)).toEqual(listWallets(from));
    expect(listGroups(db)).toEqual(listGroups(from));
    const strip = (s: ReturnType<typeof listSchedules>) => s.map(({ scope, what, cadence }) => ({ scope, what, cadence }));
    expect(strip(listSchedules(db))).toEqual(strip(listSchedules(from)));
    expect(getSettings(db)).toEqual(getSettings(from));
    expect(rulesOf(db)).toEqual(RULES);
    expect(listAlertRules(db).every((r) => r.lastCheck === null)).toBe(true);
    // The same file again changes nothing.
    const again = planImport(db, doc, { encrypted: false, replace: false });
    expect(again.preview.counts).toEqual({ added: 0, changed: 0, unchanged: 19, conflict: 0 });
    expect(again.writes.addAlertRules).toEqual([]);
  });

  it('into a populated cache lists conflicts item by item and is applicable only with replace', async () => {
    const { doc } = await readUserDataFile(await writeUserDataFile(exportUserData(source(), 't')));
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth'], label: 'Mine' });
    addWallet(db, { address: W3, chains: ['eth'] });
    saveGroup(db, { name: 'fund i', wallets: [WALLET, W3] });
    const { preview } = planImport(db, doc, { encrypted: false, replace: false });
    expect(preview.applicable).toBe(false);
    expect(preview.items.filter((i) => i.state === 'conflict')).toEqual([
      { kind: 'wallet', key: WALLET, state: 'conflict', detail: 'chains differ: here eth; in the file eth, arb' },
      { kind: 'group', key: 'fund i', state: 'conflict', detail: `other members: only here ${W3}; only in the file ${WALLET_2}` },
    ]);
    const replaced = planImport(db, doc, { encrypted: false, replace: true });
    expect(replaced.preview.applicable).toBe(true);
    applyUserData(db, replaced.writes);
    expect(listWallets(db).find((w) => w.address === WALLET)).toMatchObject({ chains: ['eth', 'arb'], label: 'Treasury' });
    expect(listGroups(db)).toEqual([expect.objectContaining({ name: 'fund i', wallets: [WALLET_2, WALLET].sort() })]);
  });

  it('is one transaction: a write that fails leaves nothing of it', async () => {
    const { doc } = await readUserDataFile(await writeUserDataFile(exportUserData(source(), 't')));
    const db = createDB();
    const { writes } = planImport(db, doc, { encrypted: false, replace: false });
    // Between the plan and the writes, the second wallet appears: its add fails, and so does all of it.
    addWallet(db, { address: WALLET_2, chains: ['eth'] });
    expect(() => applyUserData(db, writes)).toThrow(/already watched/);
    expect(listWallets(db).map((w) => w.address)).toEqual([WALLET_2]);
    expect(listGroups(db)).toEqual([]);
    expect(listSchedules(db)).toEqual([]);
    expect(listAlertRules(db)).toEqual([]);
    expect(getSettings(db).theme).toBe('system');
  });

  it('refuses a file whose group or schedule names a wallet that is neither in it nor here', async () => {
    const doc = exportUserData(source(), 't');
    doc.data.wallets = doc.data.wallets.slice(0, 1);
    const db = createDB();
    expect(() => planImport(db, doc, { encrypted: false, replace: false })).toThrow(
      /The group "Fund I" names the wallet .* neither in the file nor watched here/,
    );
  });

  it('reads a version 1 file written without alert rules: it imports, holding none', async () => {
    const file = JSON.parse(await writeUserDataFile(exportUserData(source(), 't')));
    expect(file.data.alertRules).toHaveLength(6); // always written
    delete file.data.alertRules;
    // A file that old holds none of the books' data either.
    delete file.data.categories;
    delete file.data.rules;
    delete file.data.notes;
    const { doc } = await readUserDataFile(JSON.stringify(file));
    expect(doc.data.alertRules).toEqual([]);
    const db = createDB();
    const { preview, writes } = planImport(db, doc, { encrypted: false, replace: false });
    expect(preview.counts).toEqual({ added: 5, changed: 3, unchanged: 5, conflict: 0 });
    applyUserData(db, writes);
    expect(listWallets(db)).toHaveLength(2);
    expect(listAlertRules(db)).toEqual([]);
  });

  it('alert rules as schedules: the same scope and condition is unchanged, another is added beside, none here is removed', async () => {
    const { doc } = await readUserDataFile(await writeUserDataFile(exportUserData(source(), 't')));
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury', tags: ['ops', 'cold'] });
    const g = saveGroup(db, { name: 'FUND I', wallets: [WALLET] });
    // The same rules (the group named in another case, the condition's members in another order) …
    saveAlertRule(db, { scope: { kind: 'group', id: g.id }, condition: { below: 1.1, kind: 'health' } as never });
    saveAlertRule(db, { scope: { kind: 'wallet', address: WALLET }, condition: { kind: 'outflow', symbol: 'USDC', above: 50_000 } });
    // … and others: another threshold, another scope, a rule the file does not hold.
    saveAlertRule(db, { scope: { kind: 'group', id: g.id }, condition: { kind: 'nav-move', percent: 10 } });
    saveAlertRule(db, { scope: { kind: 'all' }, condition: { kind: 'stale', hours: 24 } });
    saveAlertRule(db, { scope: { kind: 'wallet', address: WALLET }, condition: { kind: 'new-counterparty' } });
    const before = listAlertRules(db);
    const { preview, writes } = planImport(db, doc, { encrypted: false, replace: true });
    const rules = preview.items.filter((i) => i.kind === 'alert');
    expect(rules.map((i) => [i.key, i.state])).toEqual([
      ['health below 1.1, group "Fund I"', 'unchanged'],
      [`outflow of USDC above 50000, ${WALLET}`, 'unchanged'],
      [`unlock within 7 days, ${WALLET_2}`, 'added'],
      ['NAV move above 5 %, group "Fund I"', 'added'],
      ['outflow to a new counterparty, all wallets', 'added'],
      ['sync stale or incomplete for 48 h, all wallets', 'added'],
    ]);
    // Never a conflict (only the group's other members are).
    expect(preview.items.filter((i) => i.state === 'conflict').map((i) => i.kind)).toEqual(['group']);
    applyUserData(db, writes);
    const after = listAlertRules(db);
    expect(after.slice(0, before.length)).toEqual(before); // kept as they were: ids, times, checks
    expect(after).toHaveLength(before.length + 4);
    expect(after.slice(before.length).map((r) => r.scope)).toEqual([
      { kind: 'wallet', address: WALLET_2 },
      { kind: 'group', id: g.id },
      { kind: 'all' },
      { kind: 'all' },
    ]);
    // A file listing the same rule twice adds it once; once here, it is unchanged.
    const twice = { ...doc, data: { ...doc.data, alertRules: [RULES[4], RULES[4]] as typeof doc.data.alertRules } };
    const other = createDB();
    const p = planImport(other, twice, { encrypted: false, replace: false });
    expect(p.writes.addAlertRules).toHaveLength(1);
    applyUserData(other, p.writes);
    expect(
      planImport(other, twice, { encrypted: false, replace: false })
        .preview.items.filter((i) => i.kind === 'alert')
        .map((i) => i.state),
    ).toEqual(['unchanged']);
  });

  it('refuses a file whose alert rule names a group or wallet that is neither in it nor here, before writing anything', async () => {
    const doc = exportUserData(source(), 't');
    const db = createDB();
    addWallet(db, { address: W3, chains: ['eth'] });
    const unknownGroup = {
      ...doc,
      data: {
        ...doc.data,
        alertRules: [...doc.data.alertRules, { scope: { kind: 'group' as const, name: 'Fund II' }, condition: { kind: 'health' as const, below: 1.2 } }],
      },
    };
    const text = await writeUserDataFile(unknownGroup);
    const importFile = async (t: string) => {
      const { doc: read } = await readUserDataFile(t);
      const { writes } = planImport(db, read, { encrypted: false, replace: true });
      applyUserData(db, writes);
    };
    await expect(importFile(text)).rejects.toThrow('An alert rule names the group "Fund II", which is neither in the file nor here. Nothing was imported.');
    const unknownWallet = {
      ...doc,
      data: {
        ...doc.data,
        alertRules: [{ scope: { kind: 'wallet' as const, address: '0x' + '4'.repeat(40) }, condition: { kind: 'stale' as const, hours: 2 } }],
      },
    };
    await expect(importFile(await writeUserDataFile(unknownWallet))).rejects.toThrow(
      /An alert rule names the wallet 0x4{40}, which is neither in the file nor watched here\. Nothing was imported\./,
    );
    // Nothing of either file was written.
    expect(listWallets(db).map((w) => w.address)).toEqual([W3]);
    expect(listGroups(db)).toEqual([]);
    expect(listSchedules(db)).toEqual([]);
    expect(listAlertRules(db)).toEqual([]);
    expect(getSettings(db).theme).toBe('system');
    // A group the file does not hold but that is here is fine (as for schedules).
    saveGroup(db, { name: 'fund ii', wallets: [W3] });
    await importFile(text);
    expect(rulesOf(db).at(-1)).toEqual({ scope: { kind: 'group', name: 'fund ii' }, condition: { kind: 'health', below: 1.2 } });
  });
});

describe('the books in the data file: categories, rules and notes (issue 28)', () => {
  const HASH = '0x' + 'ab'.repeat(32);
  function books() {
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth'] });
    upsertTransactions(db, WALLET, 'eth', [
      transactionRow({ wallet_id: WALLET, txn_hash: HASH, details: [{ token_cid: 'u', type: 'out', qty: 5, symbol: 'USDC' }] }),
    ]);
    const payroll = listCategories(db).find((c) => c.name === 'Payroll')!;
    saveCategory(db, { id: payroll.id, name: 'Salaries', colour: '#112233', kind: 'outflow' });
    saveCategory(db, { name: 'Legal', kind: 'outflow' });
    saveRule(db, { name: 'Lawyers', category: 'Legal', conditions: { counterparties: [WALLET_2], direction: 'out' } });
    saveRule(db, { category: 'Salaries', conditions: { token: 'USDC', minAmount: 1, maxAmount: 10 } });
    setAnnotation(db, { wallet: WALLET, chain: 'eth', txnHash: HASH }, { note: 'March, two lines\nsecond', category: 'Legal' });
    return db;
  }

  it('carries categories, rules in order and notes by transaction; imports them whole, orphaned where not cached; again changes nothing', async () => {
    const from = books();
    const { doc } = await readUserDataFile(await writeUserDataFile(exportUserData(from, 't')));
    expect(doc.data.categories.slice(0, 2)).toEqual([
      { name: 'Salaries', colour: '#112233', kind: 'outflow' },
      { name: 'Grants', colour: '#db2777', kind: 'outflow' },
    ]);
    expect(doc.data.rules).toEqual([
      { name: 'Lawyers', category: 'Legal', conditions: { counterparties: [WALLET_2], direction: 'out' } },
      { name: 'Salaries rule', category: 'Salaries', conditions: { token: 'USDC', minAmount: 1, maxAmount: 10 } },
    ]);
    expect(doc.data.notes).toEqual([{ wallet: WALLET, chain: 'eth', txnHash: HASH, note: 'March, two lines\nsecond', category: 'Legal' }]);
    const db = createDB();
    const { preview, writes } = planImport(db, doc, { encrypted: false, replace: false });
    expect(preview.items.filter((i) => ['category', 'rule', 'note'].includes(i.kind) && i.state !== 'unchanged')).toEqual([
      { kind: 'category', key: 'Salaries', state: 'added', detail: 'outflow' },
      { kind: 'category', key: 'Legal', state: 'added', detail: 'outflow' },
      { kind: 'rule', key: `Lawyers: outflow; counterparty ${WALLET_2} → Legal`, state: 'added', detail: '' },
      { kind: 'rule', key: 'Salaries rule: token USDC 1 to 10 → Salaries', state: 'added', detail: '' },
      { kind: 'note', key: `${HASH} (eth)`, state: 'added', detail: 'category Legal, note "March, two lines\nsecond"' },
    ]);
    applyUserData(db, writes);
    expect(listRules(db).map(({ name, category, conditions, position }) => ({ name, category, conditions, position }))).toEqual(
      listRules(from).map(({ name, category, conditions, position }) => ({ name, category, conditions, position })),
    );
    // The transaction is not cached here: its note is kept, orphaned, and is on it once it is.
    expect(getAnnotation(db, { wallet: WALLET, chain: 'eth', txnHash: HASH })).toMatchObject({
      note: 'March, two lines\nsecond',
      category: 'Legal',
      orphaned: true,
    });
    expect(planImport(db, doc, { encrypted: false, replace: false }).preview.counts).toMatchObject({ added: 0, changed: 0, conflict: 0 });
    // Each item is an edit in the trail.
    expect(
      listEdits(db, {})
        .filter((e) => ['category', 'rule', 'note'].includes(e.entity))
        .map((e) => `${e.entity} ${e.action}`),
    ).toEqual(['note create', 'rule create', 'rule create', 'category create', 'category create']);
  });

  it('a different note is a conflict; a rule naming an unknown category or a note the app refuses refuses the file whole', async () => {
    const { doc } = await readUserDataFile(await writeUserDataFile(exportUserData(books(), 't')));
    const db = books();
    setAnnotation(db, { wallet: WALLET, chain: 'eth', txnHash: HASH }, { note: 'mine' });
    const { preview } = planImport(db, doc, { encrypted: false, replace: false });
    expect(preview.applicable).toBe(false);
    expect(preview.items.filter((i) => i.state === 'conflict')).toEqual([
      { kind: 'note', key: `${HASH} (eth)`, state: 'conflict', detail: 'here Legal, "mine"; in the file category Legal, note "March, two lines\nsecond"' },
    ]);
    const replaced = planImport(db, doc, { encrypted: false, replace: true });
    applyUserData(db, replaced.writes);
    expect(getAnnotation(db, { wallet: WALLET, chain: 'eth', txnHash: HASH })).toMatchObject({ note: 'March, two lines\nsecond' });
    const empty = createDB();
    const unknown = structuredClone(doc);
    unknown.data.categories = unknown.data.categories.filter((c) => c.name !== 'Legal');
    expect(() => planImport(empty, unknown, { encrypted: false, replace: false })).toThrow(/Rule 1 of the file names the category "Legal", which is neither/);
    const hostile = structuredClone(doc);
    hostile.data.notes[0]!.note = 'pay \u202eevil';
    expect(() => planImport(empty, hostile, { encrypted: false, replace: false })).toThrow(/Note 1 of the file: The note contains an invisible control/);
    expect(listRules(empty)).toEqual([]);
  });
});
