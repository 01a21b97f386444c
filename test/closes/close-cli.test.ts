import { hostname, userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { runCliHere } from '../support/cli-in-process.ts';
import { runCli } from '../support/cli-process.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * `folioscope close` as a user runs it, over the demo's service: a group's month closed, listed
 * and shown; an edit of the group flags it (and the alert is in `alert inbox`); a reopen without
 * a reason is a usage error and changes nothing; with one, it is in the audit trail, and the
 * month can be closed again. The commands run in this process (runCliHere, the entry the
 * process runs): what is tested is what they do; the last test runs `close` as a process.
 */
describe('folioscope close', () => {
  it('closes a month, flags a change, reopens with a reason, and closes again', async () => {
    const dataDir = tempDir();
    const cli = (...args: string[]) => runCliHere(['--data-dir', dataDir, ...args], { env: { FOLIOSCOPE_ACCESS_KEY: '' }, now: () => SIM_NOW });
    expect((await cli('wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury')).status).toBe(0);
    expect((await cli('wallet', 'add', WALLET_2, '--chains', 'eth')).status).toBe(0);
    expect((await cli('group', 'save', 'Fund I', '--wallets', `${WALLET},${WALLET_2}`)).status).toBe(0);
    for (const date of ['2026-09-30', '2026-10-31']) expect((await cli('sync', '--date', date)).status, date).toBe(0);

    const partial = await cli('close', 'add', '--group', 'Fund I', '--from', '2026-09-30', '--to', '2026-10-15');
    expect(partial.status).toBe(1);
    expect(partial.stderr).toMatch(/partial, so it cannot be closed: .*not cached/);

    const added = await cli('close', 'add', '--month', '2026-10', '--group', 'Fund I');
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(
      /^Closed Fund I, 2026-09-30 to 2026-10-31 \(close 1\)\.\n {2}NAV \$[\d,.]+ → \$[\d,.]+; SHA-256 of the data behind it: [0-9a-f]{64}\n {2}prepared and approved by the same person \(.+\)\n$/,
    );
    const hash = /([0-9a-f]{64})/.exec(added.stdout)![1]!;
    const list = await cli('close', 'list');
    expect(list.stdout.split('\n')[1]).toMatch(new RegExp(`^1\\tclosed\\tFund I\\t2026-09-30\\.\\.2026-10-31\\t.*\\t${hash.slice(0, 16)}$`));
    const shown = await cli('close', 'show', '1');
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(`SHA-256 ${hash}`);
    // Who closed it (issue 37 item 1): the system's account at this machine, as the audit trail names it.
    const me = `${userInfo().username}@${hostname()}`;
    expect(shown.stdout).toContain(` by ${me}; SHA-256 ${hash}`);
    expect(shown.stdout).toMatch(/unchanged at the last check/);

    // An edit of what the figures show: the group's members. Checked before the command ends.
    expect((await cli('group', 'save', 'Fund I', '--wallets', WALLET)).status).toBe(0);
    const flagged = await cli('close', 'show', '1');
    expect(flagged.status).toBe(3);
    expect(flagged.stdout).toMatch(/CHANGED SINCE CLOSE .*\n {4}data edited: the group's members/);
    const inbox = await cli('alert', 'inbox');
    expect(inbox.stdout).toMatch(/ALERT {7}\d+: Closed period changed: Fund I, 2026-09-30 to 2026-10-31/);

    const noReason = await cli('close', 'reopen', '1');
    expect(noReason.status).toBe(2);
    expect(noReason.stderr).toMatch(/Give a --reason/);
    expect((await cli('close', 'list')).stdout).toMatch(/\n1\tflagged\t/);
    const reopened = await cli('close', 'reopen', '1', '--reason', 'Wallet 2 left the fund');
    expect(reopened.status).toBe(0);
    expect((await cli('close', 'show', '1')).stdout).toContain(` by ${me}: Wallet 2 left the fund`);
    const audit = await cli('audit', '--entity', 'period');
    expect(audit.stdout).toMatch(/closes\.reopen\tperiod group Fund I 2026-09-30\.\.2026-10-31 reopened: Wallet 2 left the fund/);
    expect(audit.stdout).toMatch(/closes\.close\tperiod group Fund I 2026-09-30\.\.2026-10-31 closed/);

    const again = await cli('close', 'add', '--month', '2026-10', '--group', 'Fund I');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/\(close 2\)/);
    expect((await cli('close', 'list')).stdout).toMatch(/\n2\tclosed\tFund I\t.*\n1\treopened\tFund I\t/);
  }, 240_000);

  it('prepares a close for another person to approve, names both in show; rejects one only with a reason (issue 37 item 4)', async () => {
    const dataDir = tempDir();
    const cli = (...args: string[]) => runCliHere(['--data-dir', dataDir, ...args], { env: { FOLIOSCOPE_ACCESS_KEY: '' }, now: () => SIM_NOW });
    expect((await cli('wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury')).status).toBe(0);
    for (const date of ['2026-08-31', '2026-09-30', '2026-10-31']) expect((await cli('sync', '--date', date)).status, date).toBe(0);
    const me = `${userInfo().username}@${hostname()}`;

    const prepared = await cli('close', 'prepare', '--month', '2026-10', '--wallet', WALLET);
    expect(prepared.stderr).toBe('');
    expect(prepared.stdout).toMatch(
      /^Prepared Treasury, 2026-09-30 to 2026-10-31 \(close 1\): another person approves it \(folioscope close approve 1\) or rejects it\.\n/,
    );
    expect((await cli('close', 'list')).stdout).toMatch(/\n1\tprepared\tTreasury\t/);
    const waiting = await cli('close', 'show', '1');
    expect(waiting.stdout).toMatch(
      new RegExp(`PREPARED, not closed; SHA-256 [0-9a-f]{64}\\n {2}prepared \\S+ UTC by ${me}; waiting for approval by another person`),
    );
    // Another person approves it: a core of their own on the same data folder.
    const approver = await createCore({
      dataDir,
      shell: 'web',
      env: {},
      scheduleEveryMs: 0,
      now: () => SIM_NOW,
      // The demo's service, as the CLI's: nothing is fetched for an approval.
      demo: demoStarter({ now: () => SIM_NOW }),
      person: 'approver@books',
    });
    try {
      await approver.request('closes.approve', { id: 1 });
    } finally {
      await approver.close();
    }
    const shown = await cli('close', 'show', '1');
    expect(shown.status).toBe(0);
    expect(shown.stdout).toMatch(/ {2}closed \S+ by approver@books; SHA-256/);
    expect(shown.stdout).toMatch(new RegExp(`prepared \\S+ UTC by ${me}; approved \\S+ UTC by approver@books\\n`));
    expect(shown.stdout).not.toContain('same person');

    // On a desktop one person may approve their own, and it says so.
    expect((await cli('close', 'prepare', '--month', '2026-09', '--wallet', WALLET)).status).toBe(0);
    const own = await cli('close', 'approve', '2');
    expect(own.status, own.stderr).toBe(0);
    expect(own.stdout).toMatch(
      new RegExp(
        `^Approved close 2: Treasury, 2026-08-31 to 2026-09-30 is closed by ${me}\\.\\n {2}prepared .* \\(prepared and approved by the same person\\)\\n$`,
      ),
    );
    // A rejection needs a reason; a close that is not prepared cannot be approved or rejected.
    expect((await cli('close', 'reopen', '2', '--reason', 'Restated')).status).toBe(0);
    expect((await cli('close', 'prepare', '--month', '2026-09', '--wallet', WALLET)).status).toBe(0);
    const noReason = await cli('close', 'reject', '3');
    expect(noReason.status).toBe(2);
    expect(noReason.stderr).toMatch(/Give a --reason for rejecting/);
    const rejected = await cli('close', 'reject', '3', '--reason', 'The September invoices are not in yet');
    expect(rejected.status).toBe(0);
    expect(rejected.stdout).toBe('Rejected close 3 (Treasury, 2026-08-31 to 2026-09-30): The September invoices are not in yet\n');
    expect((await cli('close', 'show', '3')).stdout).toMatch(new RegExp(`REJECTED \\S+ by ${me}: The September invoices are not in yet`));
    const notPrepared = await cli('close', 'approve', '3');
    expect(notPrepared.status).toBe(1);
    expect(notPrepared.stderr).toMatch(
      /Close 3 \(Treasury, 2026-08-31 to 2026-09-30\) is rejected: only a prepared close waiting for approval can be approved or rejected\./,
    );
    const audit = await cli('audit', '--entity', 'period');
    expect(audit.stdout).toMatch(/closes\.reject\tperiod \S+ 2026-08-31\.\.2026-09-30 rejected: The September invoices are not in yet/);
    expect(audit.stdout).toMatch(/closes\.approve\tperiod \S+ 2026-09-30\.\.2026-10-31 approved \(closed\)/);
    expect(audit.stdout).toMatch(/closes\.prepare\tperiod \S+ 2026-09-30\.\.2026-10-31 prepared for approval/);
  }, 240_000);

  it('as a process: its lines and exit codes (an empty list, a reopen without a reason)', async () => {
    const dataDir = tempDir();
    const list = await runCli(['--data-dir', dataDir, 'close', 'list'], { FOLIOSCOPE_ACCESS_KEY: '' });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toBe('No closed periods.\n');
    const noReason = await runCli(['--data-dir', dataDir, 'close', 'reopen', '1'], { FOLIOSCOPE_ACCESS_KEY: '' });
    expect(noReason.status).toBe(2);
    expect(noReason.stderr).toMatch(/^folioscope: Give a --reason/);
    const noRejectReason = await runCli(['--data-dir', dataDir, 'close', 'reject', '1'], { FOLIOSCOPE_ACCESS_KEY: '' });
    expect(noRejectReason.status).toBe(2);
    expect(noRejectReason.stderr).toMatch(/^folioscope: Give a --reason for rejecting/);
    const nothing = await runCli(['--data-dir', dataDir, 'close', 'approve', '1'], { FOLIOSCOPE_ACCESS_KEY: '' });
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toBe('folioscope: There is no closed period 1.\n');
  }, 60_000);
});
