import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { runCliSync } from '../support/cli-process.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * An option's value reaches the option's own check and its own words: a negative number was
 * read as an option ("--recent-window takes no value"), a width of 1e308 was refused as "not a
 * safe integer" rather than as wider than the limit, and `folioscope sim`'s usage errors exited
 * 1 where every other usage error exits 2.
 */
const cli = (args: string[]) => runCliSync(['--data-dir', tempDir(), ...args]);

describe('option values, as a process', { timeout: 120_000 }, () => {
  it('doctor --recent-window -1 says what a width is, not that the option takes no value', () => {
    for (const args of [['--recent-window', '-1'], ['--recent-window=-1']]) {
      const r = cli(['doctor', '--cached', ...args]);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).not.toMatch(/takes no value/);
      expect(r.stderr).toMatch(/--recent-window -1 is not a width: use whole hours from 1 to 2,160, or auto/);
    }
  });

  it('doctor --recent-window 1e308 is refused as wider than 2,160 hours', () => {
    const r = cli(['doctor', '--cached', '--recent-window', '1e308']);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(/safe integer/);
    expect(r.stderr).toMatch(/--recent-window 1e308 is too wide: the recent window is at most 2,160 hours/);
  });

  it('a negative number reaches the option that takes it (audit --limit -1)', () => {
    const r = cli(['audit', '--limit', '-1']);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--limit must be a whole number from 1 to 1000/);
  });

  it('folioscope sim: a bad option or fault is a usage error (exit 2), saying what is wrong', () => {
    const unknown = cli(['sim', '--no-such-option']);
    expect(unknown.status, unknown.stderr).toBe(2);
    expect(unknown.stderr).toMatch(/--no-such-option/);
    expect(unknown.stderr).toMatch(/Usage:/);
    const fault = cli(['sim', '--fault', 'no-such-fault']);
    expect(fault.status, fault.stderr).toBe(2);
    expect(fault.stderr).toMatch(/unknown fault 'no-such-fault'/);
    // In the words of every usage error, not parseArgs' own ("Option '--fault <value>' argument missing").
    expect(unknown.stderr).toMatch(/^folioscope: Unknown option --no-such-option\./);
    const missing = cli(['sim', '--fault']);
    expect(missing.status, missing.stderr).toBe(2);
    expect(missing.stderr).toMatch(/^folioscope: --fault needs a value\./);
    expect(cli(['sim', '--help=1']).stderr).toMatch(/^folioscope: --help takes no value\./);
    expect(cli(['sim', 'extra']).stderr).toMatch(/^folioscope: Unexpected argument extra\./);
    const negative = cli(['sim', '--latency-ms', '-5']);
    expect(negative.status, negative.stderr).toBe(2);
    expect(negative.stderr).toMatch(/--latency-ms must be an integer from 0 to 600000/);
  });
});

describe('settings.update through the contract', () => {
  it('a recent window of 1e308 is refused as over 2,160 hours, not as "not a safe integer"', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'cli', baseUrl: null, env: {}, demo: demoStarter({ now: () => SIM_NOW }) });
    try {
      for (const hours of [1e308, 3000]) {
        const err = await core.request('settings.update', { recentWindowHours: hours }).then(
          () => null,
          (e: unknown) => e as Error,
        );
        expect(err?.message).toMatch(/at most 2,160/);
        expect(err?.message).not.toMatch(/safe integer/);
      }
    } finally {
      await core.close();
    }
  });
});
