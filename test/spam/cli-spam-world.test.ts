import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCliHere } from '../support/cli-in-process.ts';
import { readdirSync } from 'node:fs';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { startSimulator } from '../../src/sim/server.ts';
import { runCli } from '../support/cli-process.ts';
import { KEY, SIM_NOW, WALLET } from '../support/sim.ts';
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

    // The user names the lookalike in the address book (it is theirs after all): the alert is taken
    // back with why, and no check fires it, or one about the counterparty it imitates, again.
    const lookalike = poisoning[0]!.facts['lookalike'] as string;
    ok(await cli(dir, ['counterparties', 'add', lookalike, 'Vendor B'], 5));
    const after = ok(await cli(dir, ['alert', 'inbox', '--all', '--json'], 6))
      .stdout.trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { alert: { kind: string; resolvedAt: string | null; resolution: string | null } }).alert)
      .filter((a) => a.kind === 'address-poisoning');
    expect(after).toEqual([
      expect.objectContaining({
        resolvedAt: new Date(at(5)()).toISOString(),
        resolution: `No longer a payment to a lookalike: ${lookalike} is in the address book as "Vendor B", a counterparty you vouched for (remove that to be warned again).`,
      }),
    ]);
    expect(ok(await cli(dir, ['alert', 'check', '--json'], 7)).stdout).toBe('');
    expect(ok(await cli(dir, ['alert', 'inbox'], 8)).stdout).toContain(
      `            resolved ${new Date(at(5)()).toISOString().slice(0, 16).replace('T', ' ')} UTC: No longer a payment to a lookalike: ${lookalike} is in the address book`,
    );
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

  it('a guard that cannot run says so: watch --json as a process (connected, with a key) prints its alert, naming the damaged row, never the key', async () => {
    const sim = await startSimulator({ accessKey: KEY, spam: true, seed: 7, now: () => SIM_NOW });
    try {
      const dir = tempDir();
      const proc = (args: string[], minutes: number) =>
        runCli(['--data-dir', dir, '--base-url', sim.url, ...args], {
          FOLIOSCOPE_ACCESS_KEY: KEY,
          FOLIOSCOPE_TEST_CLOCK: String(at(minutes)()),
          NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${join(import.meta.dirname, '../support/clock.mjs')}`.trim(),
        });
      ok(await proc(['wallet', 'add', WALLET, '--chains', 'eth'], 1));
      ok(await proc(['sync', '--no-positions'], 2));
      // A payment of long ago (no sync reads it again) damaged in the cache file, as a disk or a tool might.
      const db = openDatabase(
        join(
          dir,
          readdirSync(dir).find((f) => f.endsWith('.sqlite'))!,
        ),
      );
      const { txn_hash: hash } = db
        .prepare(
          `SELECT txn_hash FROM transactions WHERE from_addr = wallet AND status = 1 AND to_addr != wallet
             AND EXISTS (SELECT 1 FROM json_each(details) j WHERE j.value ->> 'type' = 'out' AND (j.value ->> 'qty') > 0) ORDER BY time LIMIT 1`,
        )
        .get() as { txn_hash: string };
      db.prepare('UPDATE transactions SET details = ? WHERE txn_hash = ?').run('[{"type": "out", "qty": 12', hash);
      db.close();
      ok(await proc(['schedule', 'add', '--all', '--what', 'transactions', '--every', 'hour', '--at', ':30'], 3));
      const watch = ok(await proc(['watch', '--once', '--json'], 40));
      expect(watch.stdout + watch.stderr).not.toContain(KEY);
      const failed = watch.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { alert?: { kind: string; subject: string; title: string; detail: string; resolvedAt: string | null } })
        .filter((l) => l.alert?.subject === 'poisoning-guard');
      expect(failed).toEqual([
        {
          alert: expect.objectContaining({
            kind: 'address-poisoning',
            title: 'The address-poisoning guard could not check the payments',
            detail: `Payments to lookalike addresses are not being checked: the cached transaction ${hash} of ${WALLET} on eth has a list of transfers that cannot be read. The guard runs again after every sync and edit; this alert is resolved once it runs through.`,
            resolvedAt: null,
          }),
        },
      ]);
      // And in the inbox, as a person reads it.
      const inbox = ok(await proc(['alert', 'inbox'], 41));
      expect(inbox.stdout).toMatch(/^ALERT {7}\d+: The address-poisoning guard could not check the payments$/m);
      expect(inbox.stdout).not.toContain(KEY);
    } finally {
      await sim.close();
    }
  });
});
