import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * A schedule's hour is in its own zone (issue 39, Medium 12): switching transaction times to
 * local time moved "06:00 UTC" to "06:00 local" without a word. Now the setting decides only the
 * zone a new schedule is saved in.
 */
describe('a schedule keeps its zone', () => {
  it('when the display setting changes, its next run does not move; a new one takes the setting, or the zone it is given', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, scheduleEveryMs: 0, demo: demoStarter(), now: () => SIM_NOW });
    try {
      const utc = await core.call('schedules.save', { scope: { kind: 'all' }, what: 'both', cadence: { every: 'day', hour: 6, minute: 0 } });
      expect(utc.zone).toBe('utc');
      await core.call('settings.update', { timeZone: 'local' });
      const [after] = await core.call('schedules.list', undefined);
      expect(after).toMatchObject({ id: utc.id, zone: 'utc' });
      expect(after!.nextSlot).toBe(utc.nextSlot);
      const local = await core.call('schedules.save', { scope: { kind: 'all' }, what: 'positions', cadence: { every: 'day', hour: 6, minute: 0 } });
      expect(local.zone).toBe('local');
      const given = await core.call('schedules.save', {
        scope: { kind: 'all' },
        what: 'transactions',
        cadence: { every: 'day', hour: 6, minute: 0 },
        zone: 'utc',
      });
      expect(given.zone).toBe('utc');
      expect(given.nextSlot).toBe(utc.nextSlot);
      // An edit that names no zone keeps the schedule where it was saved.
      const edited = await core.call('schedules.save', {
        id: utc.id,
        scope: { kind: 'all' },
        what: 'positions',
        cadence: { every: 'day', hour: 6, minute: 0 },
      });
      expect(edited.zone).toBe('utc');
    } finally {
      await core.close();
    }
  });
});
