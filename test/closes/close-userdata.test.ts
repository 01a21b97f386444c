import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { readUserDataFile, writeUserDataFile } from '../../src/main/core/userdata/format.ts';
import { exportUserData } from '../../src/main/core/userdata/plan.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { poll } from '../support/web-session.ts';
import { getClose } from '../../src/main/core/closes/store/closes.ts';
import { periodHash } from '../../src/main/core/closes/hash.ts';
import { insertSnapshot, latestSnapshot, rawSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { cacheOf, tempDir } from '../support/store.ts';

/**
 * Closed periods in the user's data file (docs/data-format.md): exported with their figures,
 * hash and reopens; imported item by item into another cache, where they verify against the same
 * data synced there (the hash names the service's bodies, not this cache's row ids); a close in
 * force of the same period here is a conflict, which replace resolves by reopening the one here
 * with a reason, in the audit trail.
 */
// The sync's clock is the service's: the months synced are whole whatever the machine's date.
// Two people, one cache each: who closed and reopened travels with the close (issue 37 item 1).
const newCore = (person: string) =>
  createCore({ dataDir: tempDir(), shell: 'web', env: {}, now: () => SIM_NOW, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0, person });
/** `before`: dates synced first, so that the service's answers for the period carry other request ids (as a live service's always do). */
async function synced(core: Core, before: string[] = []) {
  await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
  await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
  for (const date of [...before, '2026-09-30', '2026-10-31']) await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date })]);
}
let a: Core;
let b: Core;
beforeAll(async () => {
  [a, b] = await Promise.all([newCore('alice@laptop'), newCore('bob@desktop')]);
  await Promise.all([synced(a), synced(b, ['2026-08-31'])]);
}, 120_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('closed periods in the data file', () => {
  it('are exported with their figures, hash and reopen, and imported into another cache where they verify', async () => {
    const first = await a.request('closes.close', { wallet: WALLET, month: '2026-10' });
    await a.request('closes.reopen', { id: first.id, reason: 'Fees re-read' });
    const second = await a.request('closes.close', { wallet: WALLET, month: '2026-10' });
    const doc = exportUserData(await cacheOf(a), 'Folioscope test');
    expect(doc.data.closedPeriods.map((c) => [c.closedAt, c.reopenReason, c.closedBy, c.reopenedBy])).toEqual([
      [first.closedAt, 'Fees re-read', 'alice@laptop', 'alice@laptop'],
      [second.closedAt, null, 'alice@laptop', undefined],
    ]);
    expect(doc.data.closedPeriods[1]).toMatchObject({ scope: { kind: 'wallet', address: WALLET }, name: 'Treasury', members: [WALLET], hash: second.hash });
    expect(JSON.stringify(doc.data.closedPeriods[1]!.figures)).toBe(JSON.stringify(second.pack));
    const text = await writeUserDataFile(doc);
    expect((await readUserDataFile(text)).doc).toEqual(doc);

    // B closed the same month itself: the file's close in force conflicts with B's.
    const own = await b.request('closes.close', { wallet: WALLET, month: '2026-10' });
    // The same data, another cache: the same hash, though every answer came with another request id.
    expect(own.hash).toBe(second.hash);
    const basisA = doc.data.closedPeriods[1]!.basis;
    const basisB = exportUserData(await cacheOf(b), 'Folioscope test').data.closedPeriods[0]!.basis;
    expect(basisA.length).toBeGreaterThan(0);
    expect(basisB.map((s) => s.content)).toEqual(basisA.map((s) => s.content));
    expect(basisB.filter((s, i) => s.sha256 === basisA[i]!.sha256)).toEqual([]);
    const preview = await b.request('userData.preview', { text });
    const closes = preview.items.filter((i) => i.kind === 'close');
    expect(closes.map((i) => i.state)).toEqual(['added', 'conflict']);
    expect(closes[1]!.detail).toMatch(new RegExp(`closed here too \\(close ${own.id}, `));
    expect(preview.applicable).toBe(false);
    const refused = await b.dispatch('userData.import', { text });
    expect(refused).toMatchObject({ ok: true, result: { applied: false } });
    expect(await b.call('closes.list', undefined)).toHaveLength(1);

    const applied = await b.request('userData.import', { text, replace: true });
    expect(applied.applied).toBe(true);
    const listed = await b.call('closes.list', { from: '2026-09-30', to: '2026-10-31' });
    expect(listed.map((c) => [c.closedAt, c.state, c.hash])).toEqual(
      [
        [second.closedAt, 'closed', second.hash],
        [own.closedAt, 'reopened', own.hash],
        [first.closedAt, 'reopened', first.hash],
      ].sort((x, y) => (x[0]! < y[0]! ? 1 : -1)),
    );
    expect(listed.find((c) => c.id === own.id)!.reopenReason).toMatch(/^Replaced by the close of .* from an imported data file\.$/);
    // Alice's closes keep her name in Bob's cache; Bob's own close was reopened by Bob's import.
    expect(listed.map((c) => [c.closedAt, c.closedBy, c.reopenedBy])).toEqual(
      [
        [second.closedAt, 'alice@laptop', null],
        [own.closedAt, 'bob@desktop', 'bob@desktop'],
        [first.closedAt, 'alice@laptop', 'alice@laptop'],
      ].sort((x, y) => (x[0]! < y[0]! ? 1 : -1)),
    );
    const edits = (await b.call('audit.list', { entity: 'period' })).entries;
    expect(edits.map((e) => [e.action, e.origin])).toEqual([
      ['create', 'userData.import'],
      ['reopen', 'userData.import'],
      ['create', 'userData.import'],
      ['close', 'closes.close'],
    ]);
    // The imported figures are A's, byte for byte; over B's data they verify: nothing flagged.
    const imported = listed.find((c) => c.closedAt === second.closedAt)!;
    expect(JSON.stringify((await b.request('closes.get', { id: imported.id })).pack)).toBe(JSON.stringify(second.pack));
    expect(await b.call('closes.check', undefined)).toEqual({ checked: 1, flagged: [] });
    // A close of a wallet watched nowhere any more (removed where the file was written) is history: imported as written.
    const gone = '0x' + '9'.repeat(40);
    const other = structuredClone(doc);
    other.data.closedPeriods = [
      { ...doc.data.closedPeriods[0]!, scope: { kind: 'wallet', address: gone }, members: [gone], closedAt: '2026-11-01T00:00:00.000Z' },
    ];
    expect((await b.request('userData.preview', { text: await writeUserDataFile(other) })).items.filter((i) => i.kind === 'close')).toEqual([
      {
        kind: 'close',
        key: `${gone} 2026-09-30 to 2026-10-31, closed 2026-11-01T00:00:00.000Z`,
        state: 'added',
        detail: `reopened ${doc.data.closedPeriods[0]!.reopenedAt}: Fees re-read`,
      },
    ]);
    // The same file again: every close unchanged.
    expect((await b.request('userData.preview', { text })).items.filter((i) => i.kind === 'close').map((i) => i.state)).toEqual(['unchanged', 'unchanged']);
  });
});

describe('a check after a sync job', () => {
  it('looks at the closes of its wallet only', async () => {
    const [closed] = (await a.call('closes.list', undefined)).filter((c) => c.state === 'closed');
    const checkedAt = closed!.checkedAt;
    await a.call('wallets.add', { address: WALLET_2, chains: ['eth'] });
    await waitForJobs(a, [await a.call('sync.transactions', { wallet: WALLET_2 })]);
    // Another wallet's sync cannot change this close's data: it is not looked at. What the job set
    // off has run once sync.settle returns, so this is no "nothing within N ms".
    await a.call('sync.settle', undefined);
    expect((await a.request('closes.get', { id: closed!.id })).checkedAt).toBe(checkedAt);
    await waitForJobs(a, [await a.call('sync.transactions', { wallet: WALLET })]);
    await poll(async () => (await a.request('closes.get', { id: closed!.id })).checkedAt, 10_000).not.toBe(checkedAt);
    expect((await a.request('closes.get', { id: closed!.id })).state).toBe('closed');
  });
});

describe('a close made before version 22', () => {
  it('keeps the part it hashed (`snapshots`, the bodies as received): checked clean after the upgrade, flagged when a body changes', async () => {
    const db = await cacheOf(a);
    const [closed] = (await a.call('closes.list', undefined)).filter((c) => c.state === 'closed');
    const stored = getClose(db, closed!.id)!;
    // As version 21 wrote it: the old part's name and hash, a basis without content hashes.
    const names = ['snapshots', 'transactions', 'wallets', 'group', 'counterparties', 'categories'];
    const old = periodHash(db, { wallets: stored.scope.members, from: stored.from, to: stored.to, group: null }, names);
    expect(old.hash).not.toBe(stored.hash);
    const basis = stored.basis.map(({ content: _content, ...s }) => s);
    db.prepare('UPDATE period_closes SET hash = ?, parts = ?, basis = ? WHERE id = ?').run(
      old.hash,
      JSON.stringify(old.parts),
      JSON.stringify(basis),
      stored.id,
    );
    expect(await a.call('closes.check', undefined)).toMatchObject({ flagged: [] });
    // The closing date's positions answered again, later, with another figure.
    const snap = latestSnapshot(db, 'allPositions', WALLET, 'eth', stored.to)!;
    const body = rawSnapshot(db, snap.id)!.raw.replace(/"principal_nav":([\d.]+)/, (_m, v: string) => `"principal_nav":${Number(v) + 1}`);
    insertSnapshot(db, {
      endpoint: 'allPositions',
      wallet: WALLET,
      chain: 'eth',
      requestedDate: stored.to,
      response: { data: snap.data, body, requestId: 'refetch-1', fetchedAt: new Date(Date.parse(snap.fetchedAt) + 1000).toISOString() },
    });
    const { flagged } = await a.request('closes.check', undefined);
    expect(flagged.map((f) => f.flag)).toMatchObject([
      { parts: ['snapshots'], snapshots: [{ change: 'replaced', wallet: WALLET, chain: 'eth', endpoint: 'allPositions', asOf: stored.to }] },
    ]);
  });
});
