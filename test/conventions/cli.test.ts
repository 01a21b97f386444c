import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

/**
 * The CLI says how complete a sync is: exit 0 only when everything asked for is complete,
 * 3 when it finished incomplete, with why. Against standalone simulators playing other
 * readings (`folioscope sim --convention ...`), as a user would run them.
 */
const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');
const KEY = 'conventions-cli-key';
const stops: Array<() => void> = [];
afterAll(() => stops.forEach((s) => s()));

async function sim(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [CLI, 'sim', '--access-key', KEY, '--txns-per-wallet', '300', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  stops.push(() => child.kill('SIGTERM'));
  return new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(String(d).split('\n')[0]!.trim()));
    child.once('exit', (code) => reject(new Error(`sim exited ${code}`)));
  });
}

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: KEY }, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('CLI sync completeness', () => {
  it('documents the exit code for "finished but incomplete"', () => {
    const help = cli(['sync', '--help']);
    expect(help.stdout).toMatch(/3 every job finished but some data is incomplete/);
    expect(cli(['--help']).stdout).toMatch(/3 sync finished but incomplete/);
  });

  it('exits 0 with exact counts against a service reading page=0-based, milliseconds and a 40-row cap', async () => {
    const url = await sim(['--convention', 'page-base=0', '--convention', 'time-unit=ms', '--convention', 'page-size-cap=40']);
    const g = ['--data-dir', tempDir(), '--base-url', url];
    expect(cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth,arb', '--label', 'Main']).status).toBe(0);
    const sync = cli([...g, 'sync', '--no-positions']);
    expect(sync.status, sync.stdout + sync.stderr).toBe(0);
    // 300 transactions per chain, all before the simulator's history end.
    expect(sync.stdout).toMatch(/ok\s+Transactions of Main \(600\)/);
  });

  it('exits 3 with the reason and what to do when the service has not indexed everything', async () => {
    const url = await sim(['--fault', 'incomplete:1']);
    const g = ['--data-dir', tempDir(), '--base-url', url];
    cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth']);
    const sync = cli([...g, 'sync', '--no-positions']);
    expect(sync.status).toBe(3);
    expect(sync.stdout).toMatch(/INCOMPLETE\s+Transactions of/);
    expect(sync.stdout).toMatch(/eth: .*the service has indexed [\d.]+% of the range asked/);
    expect(sync.stdout).toMatch(/Sync again later/);
    expect(sync.stderr).toMatch(/1 of 1 sync jobs finished incomplete/);
  });
});
