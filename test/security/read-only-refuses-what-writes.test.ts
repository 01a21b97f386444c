import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { CONTRACT } from '../../src/shared/contract.ts';
import { OPERATION_NAMES } from '../../src/shared/operations.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * Whether an operation writes to the cache is declared once, on the contract's operation
 * (`op(input, WRITES)`), and the core's dispatch reads it there: on a cache open read-only,
 * exactly the declared operations are refused, saying why, before their input is even read.
 */
describe('a read-only cache refuses the operations that write, and only those', () => {
  it('declares the writing operations on the contract, and the gate follows the declaration', async () => {
    // The operations that change the cache (as the hand-kept list in app.ts had them): a change
    // here is a change of what a read-only cache allows, made on purpose.
    expect(OPERATION_NAMES.filter((op) => CONTRACT[op].writes)).toEqual([
      'settings.update',
      // A team server's person's own display (their rows only, not the books).
      'settings.display',
      'wallets.add',
      'wallets.update',
      'wallets.remove',
      'wallets.bulkEdit',
      'wallets.import',
      'closes.close',
      'closes.prepare',
      'closes.approve',
      'closes.reject',
      'closes.reopen',
      'closes.check',
      'sync.positions',
      'sync.backfill',
      'sync.transactions',
      'sync.all',
      'cache.clear',
      'cache.encrypt',
      'cache.decrypt',
      'cache.rekey',
      'groups.save',
      'groups.remove',
      'schedules.save',
      'schedules.remove',
      'schedules.runDue',
      'backups.create',
      'backups.restore',
      'userData.import',
      // The address book's edits (issue 28).
      'counterparties.save',
      'counterparties.remove',
      'counterparties.import',
      // The user's spam verdicts and lists (issue 38).
      'spam.mark',
      'spam.clear',
      'spam.importList',
      'spam.removeList',
      'alerts.saveRule',
      'alerts.removeRule',
      'alerts.acknowledge',
      'alerts.snooze',
      'alerts.check',
      'notes.set',
      'categories.save',
      'categories.remove',
      'rules.save',
      'rules.remove',
      'rules.reorder',
      'rules.apply',
    ]);

    const dataDir = tempDir();
    const demo = demoStarter({ now: () => SIM_NOW });
    await (await createCore({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo })).close();
    const core = await createCore({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo, readOnlyCache: true });
    try {
      for (const op of OPERATION_NAMES) {
        // An input no operation accepts: a writing one is refused by the gate first, any other by its schema.
        const res = await core.dispatch(op, { notAnInput: true });
        expect(res.ok, op).toBe(false);
        if (res.ok) continue;
        if (CONTRACT[op].writes) expect(res.error, op).toMatchObject({ kind: 'validation', field: 'cache', message: expect.stringMatching(/open read-only/) });
        else expect(res.error.field, op).not.toBe('cache');
      }
    } finally {
      await core.close();
    }
  });
});
