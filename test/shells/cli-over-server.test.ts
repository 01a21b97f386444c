/**
 * `folioscope --server URL <command>` (issue 37 item 2): the CLI on another machine (here another
 * process) against a team server, as a person with an API token in FOLIOSCOPE_TOKEN, as cron runs
 * it. The server's gate decides what the token may do; the audit trail names the token's person;
 * commands that act on this machine's own data folder are refused rather than run here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { firstLine, runCliSync, startCli } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

const serverDir = tempDir();
/** The machine the CLI runs on: its own data folder stays empty. */
const hereDir = tempDir();
const PASSWORD = 'correct horse battery';
let origin = '';
let preparer = '';
let viewer = '';
let stop: () => void = () => {};

const remote = (args: string[], token: string | null) =>
  runCliSync(['--data-dir', hereDir, '--server', origin, ...args], { env: token === null ? { FOLIOSCOPE_TOKEN: '' } : { FOLIOSCOPE_TOKEN: token } });

beforeAll(async () => {
  const at = ['--data-dir', serverDir];
  expect(runCliSync([...at, 'server', 'init', '--name', 'olive'], { env: { FOLIOSCOPE_OWNER_PASSWORD: PASSWORD } }).status).toBe(0);
  for (const [name, role] of [
    ['pia', 'preparer'],
    ['val', 'viewer'],
  ] as const)
    expect(runCliSync([...at, 'users', 'add', name, '--role', role], { env: { FOLIOSCOPE_USER_PASSWORD: PASSWORD } }).status).toBe(0);
  preparer = runCliSync([...at, 'users', 'token', 'pia', '--role', 'preparer']).stdout.trim();
  viewer = runCliSync([...at, 'users', 'token', 'val', '--role', 'viewer']).stdout.trim();
  const server = startCli([...at, 'server', '--port', '0'], { FOLIOSCOPE_ACCESS_KEY: '' });
  stop = () => server.child.kill();
  origin = await firstLine(server.child, 'folioscope server');
  // Six CLI processes and a server: beyond the default 30 s on a loaded machine.
}, 180_000);
afterAll(() => stop());

describe('folioscope --server', () => {
  it("runs a preparer's edits and a sync on the server, names her in its audit trail, and writes nothing here", () => {
    const added = remote(['wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Ops'], preparer);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    const listed = remote(['wallet', 'list', '--json'], preparer);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ label: 'Ops', chains: ['eth'] })]);
    // A sync waits for its jobs on the server's event stream, as it does on a cache here.
    const synced = remote(['sync', '--wallet', WALLET, '--no-transactions'], preparer);
    expect([0, 3]).toContain(synced.status);
    expect(synced.stderr).not.toMatch(/stopped before the command finished/);
    const audit = remote(['audit', '--json'], viewer);
    expect(audit.status).toBe(0);
    const entries = JSON.parse(audit.stdout) as Array<{ entity: string; person: string; via: string }>;
    expect(entries.filter((e) => e.entity === 'wallet').map((e) => [e.person, e.via])).toEqual([['pia', 'web']]);
    expect(readdirSync(hereDir)).toEqual([]);
  });

  it("refuses a viewer's edit with the role's sentence, exit 1, and changes nothing", () => {
    const r = remote(['wallet', 'add', '0x' + '5'.repeat(40), '--chains', 'eth'], viewer);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('val is signed in as a viewer');
    expect(JSON.parse(remote(['wallet', 'list', '--json'], viewer).stdout)).toHaveLength(1);
  });

  it('says what is wrong, exit 2, without asking the server: no token, a plain-http address elsewhere, a command of this machine', () => {
    const none = remote(['wallet', 'list'], null);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('FOLIOSCOPE_TOKEN');
    const clear = runCliSync(['--server', 'http://books.example.org', 'wallet', 'list'], { env: { FOLIOSCOPE_TOKEN: preparer } });
    expect(clear.status).toBe(2);
    expect(clear.stderr).toContain('in clear');
    for (const local of [
      ['key', 'status'],
      ['cache', 'status'],
      ['users', 'list'],
      ['backup', 'list'],
    ]) {
      const r = remote(local, preparer);
      expect(r.status, local.join(' ')).toBe(2);
      expect(r.stderr).toContain("works on this machine's data folder");
    }
    const exported = remote(['export', 'csv', '--report', 'positions', '--out', '/tmp/x.csv'], preparer);
    expect(exported.status).toBe(2);
  });

  it('refuses a revoked or unknown token with what to do, exit 1', () => {
    const r = remote(['wallet', 'list'], 'fst_' + 'x'.repeat(43));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('refused the token in FOLIOSCOPE_TOKEN');
  });

  it('finds the token kept for the server in the keychain (token set), after checking it; a refused one is not kept', () => {
    const tokenCli = (args: string[], input?: string) =>
      runCliSync(['--data-dir', hereDir, '--server', origin, 'token', ...args], { env: { FOLIOSCOPE_TOKEN: '' }, ...(input !== undefined && { input }) });
    expect(tokenCli(['status']).stdout.trim()).toBe(`No token is kept for ${origin}.`);
    // A token the server does not know replaces nothing.
    const bad = tokenCli(['set'], `fst_${'x'.repeat(43)}\n`);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('refused the token on standard input');
    expect(tokenCli(['status']).stdout.trim()).toBe(`No token is kept for ${origin}.`);
    const set = tokenCli(['set'], `${viewer}\n`);
    expect(set.stderr).toBe('');
    expect(set.stdout.trim()).toBe(`Token kept in the system keychain for ${origin}.`);
    expect(set.stdout).not.toContain(viewer);
    // No FOLIOSCOPE_TOKEN: the keychain's acts, as its person (a viewer reads, and may not edit).
    expect(JSON.parse(remote(['wallet', 'list', '--json'], null).stdout)).toHaveLength(1);
    expect(remote(['wallet', 'add', '0x' + '6'.repeat(40), '--chains', 'eth'], null).stderr).toContain('val is signed in as a viewer');
    // The environment's goes first: the preparer's edit passes.
    expect(remote(['wallet', 'add', '0x' + '6'.repeat(40), '--chains', 'eth'], preparer).status).toBe(0);
    // Without --server the command says what it is for; nothing is kept on this machine's disk.
    expect(runCliSync(['--data-dir', hereDir, 'token', 'status']).status).toBe(2);
    expect(readdirSync(hereDir)).toEqual([]);
    expect(tokenCli(['clear']).stdout.trim()).toBe(`Token removed from the keychain for ${origin}.`);
    expect(remote(['wallet', 'list'], null).status).toBe(2);
  });
});
