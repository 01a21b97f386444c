import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Core, type CoreOptions, createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { CLI } from '../support/cli-process.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { writeUserDataFile } from '../../src/main/core/userdata/format.ts';
import { exportUserData } from '../../src/main/core/userdata/plan.ts';

/**
 * Four eyes on a close (issue 37 item 4), over the demo's service: two people on one cache, each
 * a core of their own opened on the same data folder one after the other (CoreOptions.person).
 * On a team server (CoreOptions.team) a close is prepared by one and approved by another: the
 * one-step close and approving your own are refused, coded; an approval recomputes the hash and
 * refuses, naming the parts, when the data changed since it was prepared; a rejection needs a
 * reason and frees the period. On a desktop alone one person may do both, and the close says so.
 * The closed period's PDF and CSV name the preparer and the approver with their times, and its
 * bundle carries them and still verifies.
 */
const SHOTS = join(import.meta.dirname, '../../test-results/screenshots');
const PREPARER = 'preparer@books';
const APPROVER = 'approver@books';
let dataDir: string;

async function as<T>(person: string, o: Partial<CoreOptions>, fn: (core: Core) => Promise<T>): Promise<T> {
  const core = await createCore({
    dataDir,
    shell: 'web',
    env: {},
    scheduleEveryMs: 0,
    now: () => SIM_NOW,
    demo: demoStarter({ txnsPerWallet: 120, now: () => SIM_NOW }),
    person,
    ...o,
  });
  try {
    return await fn(core);
  } finally {
    await core.close();
  }
}
const team = { team: true };

/** A refusal's code (shared/core-codes.ts) and message, as a shell receives them. */
async function refused(core: Core, op: string, input: unknown): Promise<{ code: string | undefined; values: Record<string, unknown>; message: string }> {
  const r = await core.dispatch(op, input);
  if (r.ok) throw new Error(`${op} was not refused`);
  const said = (r.error as { said?: { code: string; values: Record<string, unknown> } }).said;
  return { code: said?.code, values: said?.values ?? {}, message: r.error.message };
}

beforeAll(async () => {
  dataDir = tempDir();
  await as(PREPARER, {}, async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
    for (const date of ['2026-08-31', '2026-09-30', '2026-10-31']) await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date })]);
  });
}, 240_000);

describe('four eyes on a close', () => {
  it('on a team server: prepared by one, approved by another; the one-step close and approving your own are refused', async () => {
    const prepared = await as(PREPARER, team, async (core) => {
      expect(await core.call('app.info', undefined)).toMatchObject({ team: true });
      const oneStep = await refused(core, 'closes.close', { wallet: WALLET, month: '2026-10' });
      expect(oneStep.code).toBe('close.teamPrepares');
      expect(oneStep.message).toMatch(/on a team server a close is prepared, then approved by another person/i);
      const p = await core.request('closes.prepare', { wallet: WALLET, month: '2026-10' });
      expect(p).toMatchObject({ state: 'prepared', preparedBy: PREPARER, closedAt: null, closedBy: null, approvedBy: null, samePerson: false });
      expect(p.preparedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // Not in force: not checked, and no second close or prepare of the period.
      expect(await core.call('closes.check', undefined)).toEqual({ checked: 0, flagged: [] });
      const twice = await refused(core, 'closes.prepare', { wallet: WALLET, month: '2026-10' });
      expect(twice.code).toBe('close.preparedAlready');
      // The preparer's own approval: refused, naming why; nothing changes.
      const own = await refused(core, 'closes.approve', { id: p.id });
      expect(own.code).toBe('close.ownApproval');
      expect(own.message).toContain(`${PREPARER} prepared close ${p.id}`);
      expect(own.message).toContain('approved by another');
      expect((await core.request('closes.get', { id: p.id })).state).toBe('prepared');
      // A prepared close is no closed period: no auditor's bundle of it.
      expect((await core.dispatch('export.start', { format: 'bundle', close: p.id })).ok).toBe(false);
      return p;
    });
    const approved = await as(APPROVER, team, async (core) => {
      const a = await core.request('closes.approve', { id: prepared.id });
      expect(a).toMatchObject({
        state: 'closed',
        hash: prepared.hash,
        preparedBy: PREPARER,
        preparedAt: prepared.preparedAt,
        approvedBy: APPROVER,
        closedBy: APPROVER,
        samePerson: false,
      });
      expect(a.approvedAt).toBe(a.closedAt);
      // The figures approved are those prepared, byte for byte.
      expect(JSON.stringify(a.pack)).toBe(JSON.stringify(prepared.pack));
      const again = await refused(core, 'closes.approve', { id: prepared.id });
      expect(again.code).toBe('close.notPrepared');
      // Both steps in the audit trail, each with its person.
      const trail = (await core.call('audit.list', { entity: 'period' })).entries.map((e) => [e.action, e.person, e.origin]);
      expect(trail).toEqual([
        ['approve', APPROVER, 'closes.approve'],
        ['prepare', PREPARER, 'closes.prepare'],
      ]);
      return a;
    });

    // The closed period's PDF and CSV name both, with their times (UTC); the bundle carries them and verifies.
    const out = tempDir();
    await as(APPROVER, { ...team, chooseSavePath: async (name) => join(out, name) }, async (core) => {
      const pdfJob = await core.call('export.start', { format: 'pdf', document: 'pack', wallet: WALLET, from: approved.from, to: approved.to });
      const csvJob = await core.call('export.start', { format: 'csv', report: 'pack', wallet: WALLET, from: approved.from, to: approved.to });
      const bundleJob = await core.call('export.start', { format: 'bundle', close: approved.id });
      const done = await waitForJobs(core, [pdfJob!, csvJob!, bundleJob!]);
      expect(done.map((j) => j.state)).toEqual(['done', 'done', 'done']);
      const [pdf, csv, zip] = done.map((j) => j.output!.path!);
      const text = spawnSync('pdftotext', ['-layout', pdf!, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
      mkdirSync(SHOTS, { recursive: true });
      spawnSync('pdftoppm', ['-r', '80', '-png', '-f', '1', '-l', '1', pdf!, join(SHOTS, 'four-eyes-pack-pdf')]);
      expect(text).toMatch(new RegExp(`Prepared, approved prepared \\S+ \\S+ UTC by ${PREPARER} approved \\S+ \\S+ UTC by ${APPROVER}`));
      expect(text).not.toContain('same person');
      const rows = parse(readFileSync(csv!), { columns: true, bom: true }) as Array<Record<string, string>>;
      expect(rows.find((r) => r['section'] === 'prepared')).toMatchObject({ key: PREPARER, name: `prepared ${approved.preparedAt} by ${PREPARER}` });
      expect(rows.find((r) => r['section'] === 'approved')).toMatchObject({ key: APPROVER, name: `approved ${approved.approvedAt} by ${APPROVER}`, note: '' });
      const files = unzipSync(readFileSync(zip!));
      const manifest = JSON.parse(strFromU8(files['manifest.json']!)) as { close: Record<string, unknown> };
      expect(manifest.close).toMatchObject({
        preparedBy: PREPARER,
        preparedAt: approved.preparedAt,
        approvedBy: APPROVER,
        approvedAt: approved.approvedAt,
        closedBy: APPROVER,
        samePerson: false,
      });
      const verified = spawnSync(process.execPath, [CLI, 'verify-bundle', zip!, '--hash', approved.hash], { encoding: 'utf8', timeout: 120_000 });
      expect(verified.status, verified.stdout + verified.stderr).toBe(0);
      expect(verified.stdout).toContain(`approved by ${APPROVER}`);
    });

    // A reopen (an approver's, with a reason) names who; the period is free to be prepared again.
    await as(APPROVER, team, async (core) => {
      const r = await core.request('closes.reopen', { id: approved.id, reason: 'A late invoice' });
      expect(r).toMatchObject({ state: 'reopened', reopenedBy: APPROVER, reopenReason: 'A late invoice', preparedBy: PREPARER, approvedBy: APPROVER });
    });
  }, 240_000);

  it('refuses an approval when the data changed since it was prepared, naming the parts; a rejection needs a reason and frees the period', async () => {
    const prepared = await as(PREPARER, team, async (core) => {
      const p = await core.request('closes.prepare', { wallet: WALLET, month: '2026-09' });
      // An edit between prepare and approve: the wallet's chains (what the figures cover) and its label.
      await core.request('wallets.update', { address: WALLET, label: 'Treasury (renamed)' });
      return p;
    });
    await as(APPROVER, team, async (core) => {
      const changed = await refused(core, 'closes.approve', { id: prepared.id });
      expect(changed.code).toBe('close.changedSincePrepared');
      expect(changed.values['parts']).toBe('names');
      expect(changed.message).toContain(`changed since it was prepared (${prepared.preparedAt}): names.`);
      expect((await core.request('closes.get', { id: prepared.id })).state).toBe('prepared');
      // No reason: refused by the contract and by the core alike; nothing changes.
      expect((await core.dispatch('closes.reject', { id: prepared.id, reason: '  ' })).ok).toBe(false);
      const rejected = await core.request('closes.reject', { id: prepared.id, reason: 'Renamed after it was prepared: prepare it again' });
      expect(rejected).toMatchObject({
        state: 'rejected',
        rejectedBy: APPROVER,
        rejectReason: 'Renamed after it was prepared: prepare it again',
        closedAt: null,
        approvedBy: null,
      });
      expect(Date.parse(rejected.rejectedAt!)).toBeGreaterThanOrEqual(Date.parse(prepared.preparedAt!));
      expect((await refused(core, 'closes.reopen', { id: prepared.id, reason: 'why not' })).code).toBe('close.notClosed');
      const [entry] = (await core.call('audit.list', { entity: 'period' })).entries;
      expect(entry).toMatchObject({ action: 'reject', person: APPROVER, reason: 'Renamed after it was prepared: prepare it again' });
    });
    // The period is free again: prepared anew over the data as it is now, and kept in the list beside the rejected one.
    await as(PREPARER, team, async (core) => {
      const again = await core.request('closes.prepare', { wallet: WALLET, month: '2026-09' });
      expect(again.id).not.toBe(prepared.id);
      const states = (await core.call('closes.list', { from: again.from, to: again.to })).map((c) => [c.id, c.state]);
      expect(states).toEqual(
        expect.arrayContaining([
          [prepared.id, 'rejected'],
          [again.id, 'prepared'],
        ]),
      );
    });
  }, 240_000);

  it("through the one gate of a team server's core: each request's actor is the person, and the role and the four eyes both hold", async () => {
    await as('server@host', team, async (core) => {
      const preparer = { person: 'pia@team', role: 'preparer' } as const;
      const approver = { person: 'abe@team', role: 'approver' } as const;
      const owner = { person: 'olga@team', role: 'owner' } as const;
      const prepared = await core.dispatch('closes.prepare', { wallet: WALLET, from: '2026-08-31', to: '2026-10-31' }, { actor: preparer });
      expect(prepared).toMatchObject({ ok: true, result: { state: 'prepared', preparedBy: 'pia@team' } });
      const id = (prepared as { result: { id: number } }).result.id;
      // A preparer may not approve (the role), nor an approver prepare; an owner may do both, but not on their own close.
      expect(await core.dispatch('closes.approve', { id }, { actor: preparer })).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
      expect(await core.dispatch('closes.prepare', { wallet: WALLET, month: '2026-10' }, { actor: approver })).toMatchObject({
        ok: false,
        error: { kind: 'forbidden' },
      });
      const olgas = await core.dispatch('closes.prepare', { wallet: WALLET, from: '2026-09-30', to: '2026-10-31' }, { actor: owner });
      const olgasId = (olgas as { result: { id: number } }).result.id;
      expect(await core.dispatch('closes.approve', { id: olgasId }, { actor: owner })).toMatchObject({
        ok: false,
        error: { said: { code: 'close.ownApproval', values: { person: 'olga@team' } } },
      });
      expect(await core.dispatch('closes.reject', { id: olgasId, reason: 'Prepared on the wrong scope' }, { actor: approver })).toMatchObject({
        ok: true,
        result: { state: 'rejected', rejectedBy: 'abe@team' },
      });
      expect(await core.dispatch('closes.approve', { id }, { actor: approver })).toMatchObject({
        ok: true,
        result: { state: 'closed', preparedBy: 'pia@team', approvedBy: 'abe@team', samePerson: false },
      });
      expect(await core.dispatch('closes.reopen', { id, reason: 'Checked twice' }, { actor: preparer })).toMatchObject({
        ok: false,
        error: { kind: 'forbidden' },
      });
      expect(await core.dispatch('closes.reopen', { id, reason: 'A late invoice' }, { actor: approver })).toMatchObject({
        ok: true,
        result: { state: 'reopened', reopenedBy: 'abe@team' },
      });
    });
  }, 240_000);

  it('on a desktop alone: one person closes at once or approves their own prepared close, and the close says so', async () => {
    await as(PREPARER, {}, async (core) => {
      expect((await core.call('app.info', undefined)).team).toBe(false);
      // The September close prepared above (on the team server) waits: approved here by its preparer.
      const waiting = (await core.call('closes.list', undefined)).find((c) => c.state === 'prepared')!;
      const own = await core.request('closes.approve', { id: waiting.id });
      expect(own).toMatchObject({ state: 'closed', preparedBy: PREPARER, approvedBy: PREPARER, samePerson: true });
      const oneStep = await core.request('closes.close', { wallet: WALLET, month: '2026-10' });
      expect(oneStep).toMatchObject({ state: 'closed', preparedBy: PREPARER, closedBy: PREPARER, samePerson: true });
      expect(oneStep.preparedAt).toBe(oneStep.closedAt);

      // The data file carries who prepared each close that was closed (closedBy is the approver);
      // prepared or rejected closes are not books of record, and stay out. Imported, they say the same.
      const doc = exportUserData(await cacheOf(core), 'Folioscope test');
      const carried = doc.data.closedPeriods.map((c) => [c.from, c.to, c.preparedBy, c.closedBy, c.reopenedAt !== null]);
      expect(carried).toEqual([
        ['2026-09-30', '2026-10-31', PREPARER, APPROVER, true],
        ['2026-08-31', '2026-10-31', 'pia@team', 'abe@team', true],
        ['2026-08-31', '2026-09-30', PREPARER, PREPARER, false],
        ['2026-09-30', '2026-10-31', PREPARER, PREPARER, false],
      ]);
      const text = await writeUserDataFile(doc);
      const elsewhere = tempDir();
      const other = await createCore({
        dataDir: elsewhere,
        shell: 'web',
        env: {},
        scheduleEveryMs: 0,
        now: () => SIM_NOW,
        demo: demoStarter({ now: () => SIM_NOW }),
        person: 'bob@desktop',
      });
      try {
        expect((await other.request('userData.import', { text })).applied).toBe(true);
        const imported = await other.call('closes.list', undefined);
        expect(imported.map((c) => [c.from, c.to, c.preparedBy, c.approvedBy, c.samePerson]).sort()).toEqual(
          [
            ['2026-09-30', '2026-10-31', PREPARER, APPROVER, false],
            ['2026-08-31', '2026-10-31', 'pia@team', 'abe@team', false],
            ['2026-08-31', '2026-09-30', PREPARER, PREPARER, true],
            ['2026-09-30', '2026-10-31', PREPARER, PREPARER, true],
          ].sort(),
        );
      } finally {
        await other.close();
      }
    });
    const out = tempDir();
    await as(PREPARER, { chooseSavePath: async (name) => join(out, name) }, async (core) => {
      const [job] = await waitForJobs(core, [
        (await core.call('export.start', { format: 'pdf', document: 'pack', wallet: WALLET, from: '2026-09-30', to: '2026-10-31' }))!,
      ]);
      const text = spawnSync('pdftotext', ['-layout', job!.output!.path!, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
      expect(text).toMatch(new RegExp(`prepared \\S+ \\S+ UTC by ${PREPARER} approved \\S+ \\S+ UTC by ${PREPARER} prepared and approved by the same person`));
    });
  }, 240_000);
});
