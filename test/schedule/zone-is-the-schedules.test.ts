import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { runCliHere } from '../support/cli-in-process.ts';

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

describe('folioscope schedule --zone', () => {
  it('saves a schedule in the zone given and lists each in its own; a zone it does not know is refused, nothing saved', async () => {
    const g = ['--data-dir', tempDir()];
    const local = await runCliHere([...g, 'schedule', 'add', '--all', '--every', 'day', '--at', '06:00', '--zone', 'local']);
    expect(local.status, local.stderr).toBe(0);
    expect(local.stdout).toContain('every day at 06:00 local time');
    expect((await runCliHere([...g, 'schedule', 'add', '--all', '--what', 'positions', '--every', 'day', '--at', '06:00'])).stdout).toContain(
      'every day at 06:00 UTC',
    );
    const bad = await runCliHere([...g, 'schedule', 'add', '--all', '--every', 'day', '--at', '06:00', '--zone', 'mars']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--zone is utc or local.');
    const list = await runCliHere([...g, 'schedule', 'list']);
    expect(
      list.stdout
        .split('\n')
        .filter((l) => /^\d/.test(l))
        .map((l) => l.split('\t')[3]),
    ).toEqual(['every day at 06:00 local time', 'every day at 06:00 UTC']);
  });
});
