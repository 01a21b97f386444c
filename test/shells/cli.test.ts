import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliHere } from '../support/cli-in-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');
const KEY = 'cli-test-key-42';
let simUrl = '';
let stopSim: () => void = () => undefined;

/** The simulator standalone, as a user runs it: `folioscope sim`; its URL is the first line. */
beforeAll(async () => {
  const child = spawn(process.execPath, [CLI, 'sim', '--access-key', KEY, '--txns-per-wallet', '500'], { stdio: ['ignore', 'pipe', 'pipe'] });
  stopSim = () => child.kill('SIGTERM');
  simUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(String(d).split('\n')[0]!.trim()));
    child.once('exit', (code) => reject(new Error(`sim exited ${code}`)));
  });
});
afterAll(() => stopSim());

function cli(args: string[], o: { env?: Record<string, string>; input?: string } = {}) {
  const env = { ...process.env, ...o.env };
  if (!o.env?.['FOLIOSCOPE_ACCESS_KEY']) delete env['FOLIOSCOPE_ACCESS_KEY'];
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, input: o.input ?? '', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/.*dbus-daemon.*\n/g, '') };
}

/**
 * A command in this process (runCliHere, the entry the process runs), for what is not about the
 * process: the keychain's tests, a key read from a real standard input and --help on a real
 * standard output stay processes.
 */
const here = (args: string[], o: { env?: Record<string, string> } = {}) => runCliHere(args, o);

describe('CLI against a standalone simulator', () => {
  it('prints the simulator URL first', () => {
    expect(simUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('stores the key in the keychain, adds a wallet, syncs and lists', () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', simUrl];
    expect(cli([...g, 'key', 'status']).stdout).toMatch(/No key is set/);
    const set = cli([...g, 'key', 'set'], { input: `${KEY}\n` });
    expect(set.stdout).toMatch(/Key stored in the system keychain/);
    expect(set.stdout + set.stderr).not.toContain(KEY);
    expect(cli([...g, 'key', 'status']).stdout).toMatch(/A key is set .* \(from the keychain\)/);

    expect(
      cli([...g, 'wallet', 'add', WALLET.toUpperCase().replace('0X', '0x'), '--chains', 'eth,arb', '--label', 'Main', '--tags', 'ops,cold']),
    ).toMatchObject({ status: 0 });
    const sync = cli([...g, 'sync', '--date', '2025-06-01']);
    expect(sync.status, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/ok\s+Positions of Main 2025-06-01 \(2\/2\)/);
    expect(sync.stdout).toMatch(/ok\s+Transactions of Main \(1000\)/);
    const list = JSON.parse(cli([...g, 'wallet', 'list', '--json']).stdout);
    expect(list).toEqual([expect.objectContaining({ address: WALLET, chains: ['eth', 'arb'], label: 'Main', tags: ['ops', 'cold'] })]);
    // Incremental: nothing new the second time.
    expect(cli([...g, 'sync', '--no-positions']).stdout).toMatch(/ok\s+Transactions of Main \(0\)/);

    expect(cli([...g, 'key', 'clear']).stdout).toMatch(/Key cleared/);
    const denied = cli([...g, 'sync', '--no-transactions']);
    expect(denied.status).toBe(1);
    expect(denied.stdout).toMatch(/FAILED .*refused the access key/);
    expect(denied.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('key set goes through the contract: a key the service refuses is not kept, and says so', () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', simUrl];
    const wrong = cli([...g, 'key', 'set'], { input: 'not-the-key-3a9d\n' });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr.trim()).toMatch(/^folioscope: The service refused this access key \(HTTP 40[13]\)\. Nothing was changed/);
    expect(wrong.stdout + wrong.stderr).not.toContain('not-the-key-3a9d');
    expect(cli([...g, 'key', 'status']).stdout).toMatch(/No key is set/);
  });

  it('reads the key from FOLIOSCOPE_ACCESS_KEY', async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', simUrl];
    await here([...g, 'wallet', 'add', WALLET, '--chains', 'eth']);
    const r = await here([...g, 'sync', '--from', '2025-01-01', '--to', '2025-03-01', '--every', 'month', '--no-transactions'], {
      env: { FOLIOSCOPE_ACCESS_KEY: KEY },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ok\s+History of .* \(3\/3\)/);
    expect((await here([...g, 'key', 'status'], { env: { FOLIOSCOPE_ACCESS_KEY: KEY } })).stdout).toMatch(/from the environment/);
  });

  it('fails with one line and a non-zero exit on bad input; --help everywhere', async () => {
    const dir = tempDir();
    const bad = await here(['--data-dir', dir, 'wallet', 'add', '0x123', '--chains', 'eth']);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toBe('folioscope: Not an EVM address: expected 0x followed by 40 hexadecimal characters.');
    expect((await here(['--data-dir', dir, 'sync', '--date', '2025-01-01', '--from', '2025-01-01'])).status).toBe(2);
    expect((await here(['--data-dir', dir, 'nope'])).status).toBe(2);
    // --help as a process: each command's usage on a real standard output.
    for (const cmd of ['sim', 'serve', 'key', 'wallet', 'sync']) {
      const h = cli([cmd, '--help']);
      expect(h.status, cmd).toBe(0);
      expect(h.stdout, cmd).toMatch(/Usage/);
    }
    expect(cli(['--help']).stdout).toMatch(/Commands:/);
  });
});
