import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCliHere } from '../support/cli-in-process.ts';
import { runCli } from '../support/cli-process.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * Spam as a user meets it on the command line (issue 38): the demo's world with spam
 * (FOLIOSCOPE_DEMO_SPAM=1, docs/service.md), a wallet synced as cron syncs it, its portfolio saying
 * what it left out, the payment to a lookalike in the alert inbox, and a `watch --once --json`
 * run of a schedule printing that alert as a JSON line. The clock pinned: any day, any speed.
 */
const env = { FOLIOSCOPE_DEMO_SPAM: '1' };
const at = (minutes: number) => () => SIM_NOW + minutes * 60_000;
const cli = (dir: string, args: string[], minutes = 0) => runCliHere(['--data-dir', dir, ...args], { env, now: at(minutes) });
const ok = (r: { status: number | null; stdout: string; stderr: string }) => {
  expect(r.status, r.stdout + r.stderr).toBe(0);
  return r;
};

describe('a spam world on the command line', { timeout: 240_000 }, () => {
  it('sync leaves spam out of the portfolio and says so, and the lookalike payment is in the inbox', async () => {
    const dir = tempDir();
    ok(await cli(dir, ['wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury']));
    ok(await cli(dir, ['sync', '--date', '2026-10-31']));
    const portfolio = ok(await cli(dir, ['portfolio', '--date', '2026-10-31']));
    expect(portfolio.stdout).toMatch(/^\d+ spam tokens? left out of the totals, claimed \$[\d,.]+: .*folioscope spam explain says why\.$/m);
    const inbox = ok(await cli(dir, ['alert', 'inbox', '--json']))
      .stdout.trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { alert: { kind: string; facts: Record<string, unknown> } }).alert);
    const poisoning = inbox.filter((a) => a.kind === 'address-poisoning');
    expect(poisoning).toHaveLength(1);
    expect(poisoning[0]!.facts).toMatchObject({ severity: 'high', wallet: WALLET, chain: 'eth' });
  });

  it('watch --once --json, as a process with its clock, prints the poisoning alert its run fired', async () => {
    const dir = tempDir();
    // As cron runs it: a process of its own, its whole clock (the scheduler's too) pinned.
    const proc = (args: string[], minutes: number) =>
      runCli(['--data-dir', dir, ...args], {
        ...env,
        FOLIOSCOPE_TEST_CLOCK: String(at(minutes)()),
        NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${join(import.meta.dirname, '../support/clock.mjs')}`.trim(),
      });
    ok(await proc(['wallet', 'add', WALLET, '--chains', 'eth'], 1));
    ok(await proc(['schedule', 'add', '--all', '--what', 'transactions', '--every', 'hour', '--at', ':30'], 2));
    const watch = ok(await proc(['watch', '--once', '--json'], 40));
    const alerts = watch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { alert?: { kind: string; facts: Record<string, unknown> } })
      .filter((l) => l.alert?.kind === 'address-poisoning');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.alert!.facts).toMatchObject({ severity: 'high', lookalike: expect.stringMatching(/^0x[0-9a-f]{40}$/) });
  });
});
