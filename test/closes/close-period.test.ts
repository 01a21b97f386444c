import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { chainById } from '../../src/sim/chains.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import type { Simulator } from '../../src/sim/server.ts';
import { waitForJobs } from '../support/jobs.ts';
import { liveSimOptions } from '../support/live.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { insertSnapshot, latestSnapshot, rawSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { poll } from '../support/web-session.ts';

/**
 * Period close (issue 28, item 3) over the demo's reference service in its live mode: a wallet's
 * period closed with its pack complete, then the service reorganises transactions inside the
 * period (one removed, one replaced, others moved, failed, re-priced) and the next sync brings
 * it in. The close is flagged with what changed, an alert fires (inbox and webhook), the stored
 * figures stay as closed, and a reopen needs a reason and is logged.
 */
const FROM = '2026-11-09';
const TO = '2026-11-19';
/** A period before the reorg's transactions: closed, reopened and closed again. */
const EARLIER = '2026-10-31';
let sim: Simulator;
let core: Core;
let server: Server;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += String(d)));
    req.on('end', () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  core = await createCore({
    dataDir: tempDir(),
    shell: 'web',
    env: {},
    scheduleEveryMs: 0,
    // The sync's clock is the service's: the reorg is inside the range synced whatever the machine's date.
    now: () => SIM_NOW,
    demo: async (key) => (sim = await demoStarter({ ...liveSimOptions({ modes: ['reorg'] }, 600), now: () => SIM_NOW })(key)),
  });
  await core.call('settings.update', { alertWebhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
  await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
  await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
  for (const date of [EARLIER, FROM, TO]) await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date })]);
}, 120_000);
afterAll(async () => {
  await core?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe('closing a period', () => {
  it('refuses a partial pack, naming why, and changes nothing', async () => {
    // 2026-11-15 is not cached: the pack cannot say the closing NAV.
    const partial = await core.call('pack.get', { wallet: WALLET, from: FROM, to: '2026-11-15' });
    expect(partial.complete).toBe(false);
    const res = await core.dispatch('closes.close', { wallet: WALLET, from: FROM, to: '2026-11-15' });
    expect(res.ok).toBe(false);
    const message = (res as { error: { message: string } }).error.message;
    expect(message).toMatch(/partial, so it cannot be closed/);
    expect(message).toContain(partial.reasons[0]!);
    expect(await core.call('closes.list', undefined)).toEqual([]);
    expect((await core.call('audit.list', { entity: 'period' })).entries).toEqual([]);
  });

  it('stores the pack as built and the hash of its data, in the audit trail; the same period cannot be closed twice', async () => {
    const pack = await core.call('pack.get', { wallet: WALLET, from: FROM, to: TO });
    expect(pack.complete).toBe(true);
    const closed = await core.request('closes.close', { wallet: WALLET, from: FROM, to: TO });
    expect(closed.state).toBe('closed');
    expect(closed.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(closed.parts)).toEqual([
      'snapshot-contents',
      'transactions',
      'wallet-chains',
      'group-members',
      'counterparty-roles',
      'names',
      'categories',
      'spam-verdicts',
    ]);
    expect(closed.scope).toEqual({ kind: 'wallet', wallet: WALLET, group: null, name: 'Treasury', members: [WALLET] });
    // The figures are the pack byte for byte.
    expect(JSON.stringify((await core.request('closes.get', { id: closed.id })).pack)).toBe(JSON.stringify(pack));
    const [edit] = (await core.call('audit.list', { entity: 'period' })).entries;
    expect(edit).toMatchObject({ action: 'close', key: `${WALLET} ${FROM}..${TO}`, origin: 'closes.close', before: null });
    // Closed at once on a desktop: prepared and approved by the same person, and it says so (issue 37 item 4).
    expect(edit!.after).toEqual({
      close: closed.id,
      state: 'closed',
      scope: closed.scope,
      from: FROM,
      to: TO,
      hash: closed.hash,
      opening: pack.opening,
      closing: pack.closing,
      samePerson: true,
    });
    expect(closed).toMatchObject({
      samePerson: true,
      preparedBy: closed.closedBy,
      approvedBy: closed.closedBy,
      approvedAt: closed.closedAt,
      preparedAt: closed.closedAt,
    });
    // The same period for a group of the wallet: a close of its own, with the group in its data.
    const group = await core.request('groups.save', { name: 'Fund I', wallets: [WALLET] });
    const ofGroup = await core.request('closes.close', { group: group.id, from: FROM, to: TO });
    expect(ofGroup.scope).toEqual({ kind: 'group', wallet: null, group: group.id, name: 'Fund I', members: [WALLET] });
    expect(ofGroup.parts['transactions']).toBe(closed.parts['transactions']);
    expect(ofGroup.parts['group-members']).not.toBe(closed.parts['group-members']);
    // A check with nothing changed leaves them closed.
    expect(await core.call('closes.check', undefined)).toEqual({ checked: 2, flagged: [] });
    const again = await core.dispatch('closes.close', { wallet: WALLET, from: FROM, to: TO });
    expect(again).toMatchObject({ ok: false, error: { message: expect.stringMatching(/is closed already \(close \d+/) } });
    expect(await core.call('closes.list', undefined)).toHaveLength(2);
  });

  it('flags a restatement inside the period after the next sync, fires one alert per close (inbox and webhook), and keeps the closed figures', async () => {
    const closes = await core.call('closes.list', undefined);
    const before = closes.find((c) => c.scope.kind === 'wallet');
    const ofGroup = closes.find((c) => c.scope.kind === 'group')!;
    const stored = await core.request('closes.get', { id: before!.id });
    sim.live!.settle(WALLET, chainById('eth')!);
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
    const log = await core.call('changes.list', {});
    expect(log.length).toBeGreaterThan(0);
    // The check runs after the sync job, with the alert rules.
    await poll(async () => (await core.call('closes.list', undefined)).map((c) => c.state), 10_000).toEqual(['flagged', 'flagged']);
    const flagged = await core.request('closes.get', { id: before!.id });
    expect(flagged.flag!.parts).toContain('transactions');
    expect(flagged.flag!.hash).not.toBe(stored.hash);
    // Every restatement of the period is named, by hash and kind; none outside it.
    const start = Date.parse(`${FROM}T00:00:00Z`) + 86_400_000;
    const end = Date.parse(`${TO}T00:00:00Z`) + 86_400_000;
    const inside = log.filter((c) => c.time >= start && c.time < end);
    expect(inside.length).toBeGreaterThan(0);
    expect(flagged.flag!.transactions.map((t) => `${t.kind} ${t.txnHash}`).sort()).toEqual(inside.map((c) => `${c.kind} ${c.txnHash}`).sort());
    expect(flagged.flag!.summary.join('\n')).toMatch(/transaction 0x[0-9a-f]+ of .* on eth (removed|indexed late|changed \()/);
    // Not absorbed: the stored figures are those closed, though the pack built now differs.
    expect(JSON.stringify(flagged.pack)).toBe(JSON.stringify(stored.pack));
    expect(flagged.hash).toBe(stored.hash);
    const now = await core.call('pack.get', { wallet: WALLET, from: FROM, to: TO });
    expect(JSON.stringify(now)).not.toBe(JSON.stringify(stored.pack));
    // The group's close names the same restatements.
    expect((await core.request('closes.get', { id: ofGroup.id })).flag!.transactions).toEqual(flagged.flag!.transactions);
    // One alert per close, in the inbox, and at the webhook.
    const inbox = await core.call('alerts.inbox', undefined);
    const alerts = inbox.alerts.filter((a) => a.kind === 'closed-period-changed').sort((a, b) => a.id - b.id);
    expect(alerts.map((a) => a.title)).toEqual([`Closed period changed: Treasury, ${FROM} to ${TO}`, `Closed period changed: Fund I, ${FROM} to ${TO}`]);
    expect(alerts[0]).toMatchObject({
      ruleId: null,
      subject: `period:${before!.id}`,
      wallet: WALLET,
      title: `Closed period changed: Treasury, ${FROM} to ${TO}`,
    });
    expect(alerts[0]!.detail).toContain('changed since');
    await poll(() => received.length, 10_000).toBe(2);
    const posted = received.map((b) => JSON.parse(b) as { alert: { kind: string; subject: string } });
    expect(posted.filter((p) => p.alert.kind === 'closed-period-changed').map((p) => p.alert.subject)).toEqual([
      `period:${before!.id}`,
      `period:${ofGroup.id}`,
    ]);
    // A later check finds the same: no second alert.
    expect((await core.call('closes.check', undefined)).flagged).toEqual([]);
    expect((await core.call('alerts.inbox', undefined)).alerts.filter((a) => a.kind === 'closed-period-changed')).toHaveLength(2);
  });

  it('reopens only with a reason, logged in the audit trail', async () => {
    const c = (await core.call('closes.list', undefined)).find((x) => x.scope.kind === 'wallet');
    for (const reason of ['', '   ', 'late \u202Einvoice', 'x'.repeat(501)]) {
      const res = await core.dispatch('closes.reopen', { id: c!.id, reason });
      expect(res.ok, JSON.stringify(reason)).toBe(false);
    }
    expect(await core.dispatch('closes.reopen', { id: c!.id })).toMatchObject({ ok: false });
    expect((await core.request('closes.get', { id: c!.id })).state).toBe('flagged');
    expect((await core.call('audit.list', { entity: 'period', key: `${WALLET} ${FROM}..${TO}` })).entries).toHaveLength(1);

    const reopened = await core.request('closes.reopen', { id: c!.id, reason: 'Reorg on eth restated four transactions' });
    expect(reopened).toMatchObject({ state: 'reopened', reopenReason: 'Reorg on eth restated four transactions' });
    const [edit] = (await core.call('audit.list', { entity: 'period' })).entries;
    expect(edit).toMatchObject({
      action: 'reopen',
      reason: 'Reorg on eth restated four transactions',
      origin: 'closes.reopen',
      key: `${WALLET} ${FROM}..${TO}`,
    });
    expect(edit!.before).toMatchObject({ close: c!.id, state: 'flagged', hash: c!.hash });
    // Its alert is resolved; reopening again is refused.
    const alert = (await core.call('alerts.inbox', { all: true })).alerts.find((a) => a.subject === `period:${c!.id}`)!;
    expect(alert.resolvedAt).not.toBeNull();
    expect(await core.dispatch('closes.reopen', { id: c!.id, reason: 'again' })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/reopened already/) },
    });

    // The reorg left the period's pack partial (a token moved with no cached price now): it cannot be closed again as it is.
    const refused = await core.dispatch('closes.close', { wallet: WALLET, from: FROM, to: TO });
    expect(refused).toMatchObject({ ok: false, error: { message: expect.stringMatching(/partial, so it cannot be closed: No cached price/) } });
  });

  it('closes a reopened period again as a new close, keeping the history; the same data hashes the same', async () => {
    const first = await core.request('closes.close', { wallet: WALLET, from: EARLIER, to: FROM });
    await core.request('closes.reopen', { id: first.id, reason: 'Review the fees' });
    const second = await core.request('closes.close', { wallet: WALLET, from: EARLIER, to: FROM });
    expect(second.id).not.toBe(first.id);
    expect(second.hash).toBe(first.hash);
    expect(JSON.stringify(second.pack)).toBe(JSON.stringify(first.pack));
    const history = await core.call('closes.list', { from: EARLIER, to: FROM });
    expect(history.map((x) => [x.id, x.state])).toEqual([
      [second.id, 'closed'],
      [first.id, 'reopened'],
    ]);
    expect((await core.call('audit.list', { entity: 'period', key: `${WALLET} ${EARLIER}..${FROM}` })).entries.map((e) => e.action)).toEqual([
      'close',
      'reopen',
      'close',
    ]);
  });

  it('notes a rename (a wallet label) on the close without flagging it: no figure changed, no alert; the names put back clear it (issue 39)', async () => {
    const [c] = await core.call('closes.list', { from: EARLIER, to: FROM });
    expect(c!.state).toBe('closed');
    const alertsBefore = (await core.call('alerts.inbox', { all: true })).alerts.filter((a) => a.kind === 'closed-period-changed').length;
    await core.request('wallets.update', { address: WALLET, label: 'Operations' });
    await poll(async () => (await core.request('closes.get', { id: c!.id })).flag?.parts, 10_000).toEqual(['names']);
    const renamed = await core.request('closes.get', { id: c!.id });
    expect(renamed.state).toBe('closed');
    expect(renamed.flaggedAt).toBeNull();
    expect(renamed.flag).toMatchObject({ figures: false, transactions: [], snapshots: [] });
    expect(renamed.flag!.summary).toEqual([expect.stringMatching(/^data edited: names only .*; no figure changed$/)]);
    expect((await core.call('alerts.inbox', { all: true })).alerts.filter((a) => a.kind === 'closed-period-changed')).toHaveLength(alertsBefore);
    expect(renamed.pack.byWallet[0]!.label).toBe('Treasury');
    expect(renamed.scope.name).toBe('Treasury');
    // The old name back: the finding goes with it.
    await core.request('wallets.update', { address: WALLET, label: 'Treasury' });
    await poll(async () => (await core.request('closes.get', { id: c!.id })).flag, 10_000).toBeNull();
    expect((await core.request('closes.get', { id: c!.id })).state).toBe('closed');
  });

  it('a counterparty named in the address book is a rename too; marked as one of yours, it moves flows (internal) and flags the close', async () => {
    const [c] = await core.call('closes.list', { from: EARLIER, to: FROM });
    expect(c!.state).toBe('closed');
    // An address the period's transactions sent to (in the flow window: after EARLIER's day through FROM's).
    const rows = (await core.call('timeline.page', { wallet: WALLET, limit: 1000 })).rows;
    const start = Date.parse(`${EARLIER}T00:00:00Z`) + 86_400_000;
    const end = Date.parse(`${FROM}T00:00:00Z`) + 86_400_000;
    const met = rows.find((r) => r.to && r.to !== WALLET && r.date && Date.parse(r.date) >= start && Date.parse(r.date) < end)!.to!;
    await core.request('counterparties.save', { address: met, name: 'Grantee X' });
    await poll(async () => (await core.request('closes.get', { id: c!.id })).flag?.parts, 10_000).toEqual(['names']);
    expect((await core.request('closes.get', { id: c!.id })).state).toBe('closed');
    await core.request('counterparties.save', { address: met, name: 'Grantee X', ours: true });
    await poll(async () => (await core.request('closes.get', { id: c!.id })).state, 10_000).toBe('flagged');
    expect((await core.request('closes.get', { id: c!.id })).flag).toMatchObject({ parts: ['counterparty-roles', 'names'], figures: true });
    await core.request('counterparties.remove', { address: met });
  });

  it('flags a snapshot the figures stood on fetched again with another body as replaced', async () => {
    const [c] = await core.call('closes.list', { from: EARLIER, to: FROM });
    await core.request('closes.reopen', { id: c!.id, reason: 'Relabelled' });
    const closed = await core.request('closes.close', { wallet: WALLET, from: EARLIER, to: FROM });
    // The opening date's positions answered again with another figure, stored by the store's own insert (as the
    // sync's writer stores a refetch) on a second connection: a new row with another body hash.
    const db = await cacheOf(core);
    const snap = latestSnapshot(db, 'allPositions', WALLET, 'eth', EARLIER)!;
    const data = structuredClone(snap.data);
    const first = data[0]!.positions[0]!;
    first.principal_nav = Number(first.principal_nav) + 1;
    const body = rawSnapshot(db, snap.id)!.raw.replace(/"principal_nav":([\d.]+)/, (_m, v: string) => `"principal_nav":${Number(v) + 1}`);
    insertSnapshot(db, {
      endpoint: 'allPositions',
      wallet: WALLET,
      chain: 'eth',
      requestedDate: EARLIER,
      response: { data, body, requestId: 'refetch-1', fetchedAt: new Date().toISOString() },
    });
    const { flagged } = await core.request('closes.check', undefined);
    expect(flagged.map((f) => f.id)).toEqual([closed.id]);
    expect(flagged[0]!.flag).toMatchObject({
      parts: ['snapshot-contents'],
      snapshots: [{ change: 'replaced', wallet: WALLET, chain: 'eth', endpoint: 'allPositions', asOf: EARLIER }],
      transactions: [],
      edited: [],
    });
    expect(flagged[0]!.flag!.summary).toEqual([
      `allPositions of ${WALLET.slice(0, 8)}…${WALLET.slice(-4)} on eth at ${EARLIER} replaced (fetched again with other figures)`,
    ]);
    // The figures are those closed, though the total the app now shows for that date moved.
    expect(JSON.stringify((await core.request('closes.get', { id: closed.id })).pack)).toBe(JSON.stringify(closed.pack));
    expect((await core.call('pack.get', { wallet: WALLET, from: EARLIER, to: FROM })).opening).not.toBe(closed.pack.opening);
  });
});
