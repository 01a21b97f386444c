import { describe, expect, it } from 'vitest';
import { readUserDataFile, SCRYPT, writeUserDataFile } from '../../src/main/core/userdata/format.ts';
import { exportUserData, planImport } from '../../src/main/core/userdata/plan.ts';
import { applyUserData } from '../../src/main/core/store/user-data.ts';
import { addWallet, listWallets } from '../../src/main/core/store/wallets.ts';
import { listGroups, saveGroup } from '../../src/main/core/store/groups.ts';
import { listSchedules, saveSchedule } from '../../src/main/core/store/schedules.ts';
import { getSettings, updateSettings } from '../../src/main/core/store/settings.ts';
import { tempDb } from '../support/store.ts';
import { WALLET, WALLET_2 } from '../support/sim.ts';

/** The user's data file: what it holds, its encryption, and an import's plan, applied all or nothing. */
const W3 = '0x' + '3'.repeat(40);

function source() {
  const { db } = tempDb();
  addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury', tags: ['ops', 'cold'] }, new Date('2025-03-01T00:00:00Z'));
  addWallet(db, { address: WALLET_2, chains: ['eth'], label: 'Staking' }, new Date('2025-03-02T00:00:00Z'));
  const g = saveGroup(db, { name: 'Fund I', wallets: [WALLET, WALLET_2] });
  saveSchedule(db, { scope: { kind: 'group', id: g.id }, what: 'positions', cadence: { every: 'hour', minute: 15 } });
  saveSchedule(db, { scope: { kind: 'wallet', address: WALLET }, what: 'both', cadence: { every: 'week', weekday: 1, hour: 7, minute: 30 } });
  updateSettings(db, { theme: 'dark', timeZone: 'local', backupKeep: 14 });
  return db;
}

describe('the data file', () => {
  it('holds wallets, groups (by name), schedules and settings; no ids, no base URL, no service data', async () => {
    const doc = exportUserData(source(), 'Folioscope test', new Date('2026-01-01T00:00:00Z'));
    expect(doc).toMatchObject({ format: 'folioscope-user-data', version: 1, exportedAt: '2026-01-01T00:00:00.000Z' });
    expect(doc.data.wallets).toEqual([
      { address: WALLET, label: 'Treasury', tags: ['ops', 'cold'], chains: ['eth', 'arb'], createdAt: '2025-03-01T00:00:00.000Z' },
      { address: WALLET_2, label: 'Staking', tags: [], chains: ['eth'], createdAt: '2025-03-02T00:00:00.000Z' },
    ]);
    expect(doc.data.groups).toEqual([{ name: 'Fund I', wallets: [WALLET_2, WALLET].sort() }]);
    expect(doc.data.schedules[0]).toEqual({ scope: { kind: 'group', name: 'Fund I' }, what: 'positions', cadence: { every: 'hour', minute: 15 } });
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
  });
});

describe('an import', () => {
  it('into an empty cache adds everything, equal field by field', async () => {
    const from = source();
    const { doc } = await readUserDataFile(await writeUserDataFile(exportUserData(from, 't')));
    const { db } = tempDb();
    const { preview, writes } = planImport(db, doc, { encrypted: false, replace: false });
    expect(preview.counts).toEqual({ added: 5, changed: 3, unchanged: 4, conflict: 0 });
    expect(preview.items.filter((i) => i.kind === 'setting' && i.state === 'changed').map((i) => i.key)).toEqual(['theme', 'timeZone', 'backupKeep']);
    applyUserData(db, writes);
    expect(listWallets(db)).toEqual(listWallets(from));
    expect(listGroups(db)).toEqual(listGroups(from));
    const strip = (s: ReturnType<typeof listSchedules>) => s.map(({ scope, what, cadence }) => ({ scope, what, cadence }));
    expect(strip(listSchedules(db))).toEqual(strip(listSchedules(from)));
    expect(getSettings(db)).toEqual(getSettings(from));
    // The same file again changes nothing.
    expect(planImport(db, doc, { encrypted: false, replace: false }).preview.counts).toEqual({ added: 0, changed: 0, unchanged: 12, conflict: 0 });
  });

  it('into a populated cache lists conflicts item by item and is applicable only with replace', async () => {
    const { doc } = await readUserDataFile(await writeUserDataFile(exportUserData(source(), 't')));
    const { db } = tempDb();
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
    const { db } = tempDb();
    const { writes } = planImport(db, doc, { encrypted: false, replace: false });
    // Between the plan and the writes, the second wallet appears: its add fails, and so does all of it.
    addWallet(db, { address: WALLET_2, chains: ['eth'] });
    expect(() => applyUserData(db, writes)).toThrow(/already watched/);
    expect(listWallets(db).map((w) => w.address)).toEqual([WALLET_2]);
    expect(listGroups(db)).toEqual([]);
    expect(listSchedules(db)).toEqual([]);
    expect(getSettings(db).theme).toBe('system');
  });

  it('refuses a file whose group or schedule names a wallet that is neither in it nor here', async () => {
    const doc = exportUserData(source(), 't');
    doc.data.wallets = doc.data.wallets.slice(0, 1);
    const { db } = tempDb();
    expect(() => planImport(db, doc, { encrypted: false, replace: false })).toThrow(
      /The group "Fund I" names the wallet .* neither in the file nor watched here/,
    );
  });
});
