import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { CONTRACT } from '../../src/shared/contract.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import { ROLES, ROLE_PERMISSIONS, roleAllows, roleCovers } from '../../src/shared/roles.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

/**
 * The one gate (issue 37 item 3): every operation declares the permission it needs on the
 * contract, and the core's dispatch refuses a signed-in person whose role lacks it before
 * anything of the input is read. Walked here for every operation × every role in-process; the
 * team server's test walks the same table over HTTP.
 */
let core: Core;
beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter(), scheduleEveryMs: 0, person: 'desk@machine' });
});
afterAll(async () => {
  await core.close();
});

describe('the role gate', () => {
  it('declares for every operation a permission, and none that writes the books is open to a viewer', () => {
    for (const op of OPERATION_NAMES) {
      const { needs, writes, own } = CONTRACT[op];
      expect(['read', 'books', 'prepare', 'approve', 'admin'], op).toContain(needs);
      if (writes && !own) expect(needs, `${op} writes, so a viewer may not ask it`).not.toBe('read');
    }
    // The one kind of write a viewer may make: their own display, declared as writing only the asker's rows.
    expect(OPERATION_NAMES.filter((op) => CONTRACT[op].own)).toEqual(['settings.display']);
    // The service's key and the server's settings are an owner's alone.
    for (const op of ['key.set', 'key.clear', 'app.connect', 'settings.update', 'backups.restore', 'cache.clear'] as const)
      expect(CONTRACT[op].needs).toBe('admin');
    expect(ROLE_PERMISSIONS.viewer).toEqual(['read']);
    expect(ROLE_PERMISSIONS.auditor).toEqual(['read']);
    expect(roleCovers('owner', 'preparer')).toBe(true);
    expect(roleCovers('preparer', 'approver')).toBe(false);
    expect(roleCovers('approver', 'viewer')).toBe(true);
  });

  it('refuses every operation a role lacks, before reading its input, and lets through every one it has', async () => {
    // An input no schema takes: an operation the gate lets through is then refused by its schema
    // (or, for the few that take anything, answered), never run with effects.
    const probe = { ['probe-' + 'x'.repeat(3)]: true };
    for (const role of ROLES) {
      for (const op of OPERATION_NAMES) {
        const res = await core.dispatch(op, probe, { actor: { person: 'carol', role } });
        const allowed = roleAllows(role, CONTRACT[op].needs);
        if (allowed) {
          expect(res.ok ? 'ok' : res.error.kind, `${role} may ask ${op}`).not.toBe('forbidden');
        } else {
          expect(res.ok, `${role} may not ask ${op}`).toBe(false);
          if (!res.ok) {
            expect(res.error.kind, `${role} ${op}`).toBe('forbidden');
            expect(res.error.said).toEqual({ code: 'role.forbidden', values: { person: 'carol', role, op, needs: CONTRACT[op].needs } });
            expect(res.error.message).toContain(op);
          }
        }
      }
    }
  });

  it('checks again an input that needs more than its operation: a refresh that spends the service quota on purpose is a preparer’s', async () => {
    const viewer = { person: 'vera', role: 'viewer' } as const;
    const txn = { chain: 'eth', txnHash: '0x' + 'a'.repeat(64) };
    expect(await core.dispatch('logs.get', { ...txn, refresh: true }, { actor: viewer })).toMatchObject({
      ok: false,
      error: { kind: 'forbidden', said: { code: 'role.forbidden', values: { op: 'logs.get', needs: 'books' } } },
    });
    expect(await core.dispatch('service.doctor', { run: true }, { actor: viewer })).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    // Without it, a read as any other: a viewer reads the service check.
    const read = await core.dispatch('service.doctor', {}, { actor: viewer });
    expect(read.ok ? 'ok' : read.error.kind).not.toBe('forbidden');
    const preparer = await core.dispatch('service.doctor', { run: true }, { actor: { person: 'petra', role: 'preparer' } });
    expect(preparer.ok ? 'ok' : preparer.error.kind).not.toBe('forbidden');
  });

  it('changes nothing for a refused edit, and names the signed-in person of an allowed one in the audit trail', async () => {
    const refused = await core.dispatch('wallets.add', { address: WALLET, chains: ['eth'] }, { actor: { person: 'vera', role: 'viewer' } });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(await core.request('wallets.list', undefined)).toEqual([]);
    const added = await core.dispatch('wallets.add', { address: WALLET, chains: ['eth'], label: 'Ops' }, { actor: { person: 'petra', role: 'preparer' } });
    expect(added).toMatchObject({ ok: true });
    const { entries } = await core.request('audit.list', {});
    expect(entries.filter((e) => e.entity === 'wallet').map((e) => [e.person, e.via])).toEqual([['petra', 'web']]);
    // Without an actor (the desktop, the loopback web shell) the core is its one user's.
    expect(await core.dispatch('settings.update', { backupKeep: 3 })).toMatchObject({ ok: true });
  });
});

describe('a team server’s service and key', () => {
  it('are never changed by a person’s request, an owner’s included, and are by its machine (no actor)', async () => {
    const team = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter(), scheduleEveryMs: 0, team: true });
    try {
      const owner = { person: 'olive', role: 'owner' } as const;
      for (const [op, input] of [
        ['key.set', { key: 'k'.repeat(24) }],
        ['key.clear', undefined],
        ['app.connect', { baseUrl: 'https://service.example' }],
        ['app.useDemo', undefined],
      ] as const) {
        const res = await team.dispatch(op, input, { actor: owner });
        expect(res, op).toMatchObject({ ok: false, error: { kind: 'forbidden', said: { code: 'team.serviceOnServer', values: { op } } } });
      }
      // Its data folder's encryption too: no passphrase through a browser, no server left waiting for one.
      for (const [op, input] of [
        ['cache.encrypt', { passphrase: 'a long passphrase' }],
        ['cache.decrypt', { passphrase: 'a long passphrase' }],
        ['cache.unlock', { passphrase: 'a long passphrase' }],
      ] as const) {
        const res = await team.dispatch(op, input, { actor: owner });
        expect(res, op).toMatchObject({ ok: false, error: { kind: 'forbidden', said: { code: 'team.encryptionOnServer', values: { op } } } });
      }
      expect(await team.dispatch('app.useDemo', undefined)).toMatchObject({ ok: true });
    } finally {
      await team.close();
    }
  });
});
