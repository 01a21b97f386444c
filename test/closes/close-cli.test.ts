import { hostname, userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
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
      /^Closed Fund I, 2026-09-30 to 2026-10-31 \(close 1\)\.\n {2}NAV \$[\d,.]+ → \$[\d,.]+; SHA-256 of the data behind it: [0-9a-f]{64}\n$/,
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

  it('as a process: its lines and exit codes (an empty list, a reopen without a reason)', async () => {
    const dataDir = tempDir();
    const list = await runCli(['--data-dir', dataDir, 'close', 'list'], { FOLIOSCOPE_ACCESS_KEY: '' });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toBe('No closed periods.\n');
    const noReason = await runCli(['--data-dir', dataDir, 'close', 'reopen', '1'], { FOLIOSCOPE_ACCESS_KEY: '' });
    expect(noReason.status).toBe(2);
    expect(noReason.stderr).toMatch(/^folioscope: Give a --reason/);
  }, 60_000);
});
