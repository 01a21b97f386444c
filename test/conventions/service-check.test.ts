import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/core/service/client.ts';
import { runServiceCheck } from '../../src/main/core/service/check.ts';
import { loadServiceCheck, saveServiceCheck } from '../../src/main/core/service/store/check.ts';
import type { ServiceCheck } from '../../src/shared/model.ts';
import { KEY, useSimulator, WALLET } from '../support/sim.ts';
import { createDB, tempDir } from '../support/store.ts';

/** The service check (issue 12, item 7) against the reference service in several readings. */

const ctx = useSimulator({ txnsPerWallet: 100 });
afterEach(() => ctx.sim.setConventions({}));

async function check(): Promise<ServiceCheck> {
  const client = createServiceClient({ baseUrl: ctx.sim.url, accessKey: KEY, policy: { maxAttempts: 1 } });
  return runServiceCheck({ client, baseUrl: ctx.sim.url, mode: 'live', wallet: WALLET, chain: 'eth', now: () => new Date('2026-11-20T12:30:00Z') });
}
const item = (c: ServiceCheck, id: string) => c.items.find((i) => i.id === id)!;

describe('the service check', () => {
  it('in the default reading: every check ok, the days and forms named', async () => {
    const c = await check();
    expect(c.checkedAt).toBe('2026-11-20T12:30:00.000Z');
    expect(c.items.map((i) => [i.id, i.status])).toEqual([
      ['reach', 'ok'],
      ['datetime-snapshot', 'ok'],
      ['latest-day', 'ok'],
      ['dated-snapshot', 'ok'],
      ['floats', 'ok'],
      ['datetime-transactions', 'ok'],
    ]);
    expect(item(c, 'datetime-snapshot').value).toBe('ISO 8601, UTC');
    expect(item(c, 'latest-day').value).toBe('for 2026-11-20');
    expect(item(c, 'dated-snapshot').value).toBe('filed under the day asked (2026-11-13)');
    expect(c.requests).toBe(3); // latest, a dated snapshot, a transactions page
  });

  it('offset east and a bad value: the latest day resolved by probing, the bad value counted', async () => {
    ctx.sim.setConventions({ datetime: 'offset-east', badValue: 'nan', badField: 'principal_nav' });
    const c = await check();
    expect(item(c, 'datetime-snapshot')).toMatchObject({ value: 'ISO 8601 with a zone offset', detail: 'date sent: 2026-11-21T01:00:00+02:00', status: 'ok' });
    expect(item(c, 'latest-day').value).toBe('for 2026-11-20');
    expect(item(c, 'latest-day').detail).toContain('the day written (2026-11-21) and the UTC day (2026-11-20) differ');
    expect(item(c, 'dated-snapshot').detail).toBe(
      'asked 2026-11-13; the service dated it 2026-11-14T01:00:00+02:00 (written day 2026-11-14, UTC day 2026-11-13)',
    );
    expect(item(c, 'floats')).toMatchObject({ status: 'warning', value: 'numbers; 2 unreadable (stored as unknown, flagged)' });
    expect(item(c, 'datetime-transactions').value).toBe('ISO 8601 with a zone offset');
    expect(c.requests).toBe(5); // and two probes of the latest day
  });

  it('no zone: says the zone is assumed to be UTC', async () => {
    ctx.sim.setConventions({ datetime: 'space' });
    const c = await check();
    expect(item(c, 'datetime-snapshot')).toMatchObject({ value: 'YYYY-MM-DD HH:MM:SS (read as UTC)', status: 'note' });
    expect(item(c, 'datetime-transactions').status).toBe('note');
  });

  it('unix milliseconds as strings', async () => {
    ctx.sim.setConventions({ datetime: 'unix-ms-string' });
    const c = await check();
    expect(item(c, 'datetime-snapshot').value).toBe('Unix milliseconds (string)');
    expect(item(c, 'latest-day').value).toBe('for 2026-11-20');
  });

  it('a wrong key: one failed check, no secret in it', async () => {
    const client = createServiceClient({ baseUrl: ctx.sim.url, accessKey: 'wrong-key-123', policy: { maxAttempts: 1 } });
    const c = await runServiceCheck({ client, baseUrl: ctx.sim.url, mode: 'live', wallet: WALLET, chain: 'eth' });
    expect(c.items).toHaveLength(1);
    expect(c.items[0]).toMatchObject({ id: 'reach', status: 'failed' });
    expect(JSON.stringify(c)).not.toContain('wrong-key-123');
  });

  it('is kept in the cache of the service it checked', async () => {
    const db = createDB();
    expect(loadServiceCheck(db)).toBeNull();
    const c = await check();
    saveServiceCheck(db, c);
    expect(loadServiceCheck(db)).toEqual(c);
  });
});

// --- `folioscope doctor`, as a user runs it against a standalone simulator ---------------

const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');
const SIM_KEY = 'doctor-test-key';
let simUrl = '';
let stopSim: () => void = () => undefined;
beforeAll(async () => {
  const child = spawn(
    process.execPath,
    [
      CLI,
      'sim',
      '--access-key',
      SIM_KEY,
      '--txns-per-wallet',
      '100',
      '--convention',
      'datetime=offset-west',
      '--convention',
      'bad-value=huge',
      '--convention',
      'bad-field=principal_nav',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  stopSim = () => child.kill('SIGTERM');
  simUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(String(d).split('\n')[0]!.trim()));
    child.once('exit', (code) => reject(new Error(`sim exited ${code}`)));
  });
});
afterAll(() => stopSim());

function cli(args: string[], key = SIM_KEY) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: key }, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('folioscope doctor', () => {
  it('runs the checks, prints them, and prints the same again with --cached', () => {
    const g = ['--data-dir', tempDir(), '--base-url', simUrl];
    expect(cli([...g, 'doctor', '--cached']).stdout).toContain('Never checked.');
    expect(cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth']).status).toBe(0);
    const run = cli([...g, 'doctor']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Service: ${simUrl}`);
    expect(run.stdout).toMatch(/ok {4}Datetimes \(snapshots\) +ISO 8601 with a zone offset/);
    expect(run.stdout).toMatch(/WARN {2}Numbers +numbers; 2 unreadable/);
    expect(run.stdout).toContain('latest data[0].positions[0].principal_nav = Infinity (out of range)');
    expect(run.stdout).toContain('Usable, with 1 warning.');
    const cached = cli([...g, 'doctor', '--cached']);
    expect(cached.stdout).toBe(run.stdout);
    const json = JSON.parse(cli([...g, 'doctor', '--cached', '--json']).stdout) as ServiceCheck;
    expect(json.items.find((i) => i.id === 'latest-day')!.value).toMatch(/^for \d{4}-\d{2}-\d{2}$/);
  });

  it('sync of positions with unreadable values ends INCOMPLETE (exit 3), naming how many', () => {
    const g = ['--data-dir', tempDir(), '--base-url', simUrl];
    expect(cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth']).status).toBe(0);
    const r = cli([...g, 'sync', '--date', '2025-06-01', '--no-transactions']);
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/INCOMPLETE {2}Positions of/);
    expect(r.stdout).toContain('the service sent 1 value that could not be read (not a number)');
  });

  it('--recent-window sets the recent window for this service (hours, or auto), shown among what was learned; a bad width changes nothing', () => {
    const g = ['--data-dir', tempDir(), '--base-url', simUrl];
    expect(cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth']).status).toBe(0);
    expect(cli([...g, 'doctor']).stdout).toMatch(/note {2}Recent window re-read +24 h\n +24 h \(the default\): no restatement found deep enough/);
    const bad = cli([...g, 'doctor', '--cached', '--recent-window', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--recent-window 0 is not a width: use whole hours from 1 to 2,160, or auto.');
    const set = cli([...g, 'doctor', '--cached', '--recent-window', '72']);
    expect(set.status).toBe(0);
    expect(set.stdout).toMatch(/Recent window re-read +72 h\n.*set to at least 72 h in Settings/);
    // Said first, saved whatever the check then finds (a service out of reach fails the check, not the setting).
    expect(set.stdout).toMatch(/^Recent window re-read: at least 72 hours for this service \(saved\)\.\n/);
    const away = cli(['--data-dir', g[1]!, '--base-url', 'http://127.0.0.1:9', 'doctor', '--recent-window', '30']);
    expect(away.status).toBe(1);
    expect(away.stdout).toMatch(/^Recent window re-read: at least 30 hours for this service \(saved\)\.\n/);
    expect(cli([...g, 'doctor', '--cached', '--recent-window', 'auto']).stdout).toMatch(
      /Recent window re-read +24 h\n +24 h \(the default\): no restatement found deep enough in it to widen it\n/,
    );
  });

  it('exits 1 when the service refuses the key', () => {
    const r = cli(['--data-dir', tempDir(), '--base-url', simUrl, 'doctor'], 'not-the-key-3a9d');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAIL {2}Service +not usable/);
    expect(r.stdout + r.stderr).not.toContain('not-the-key-3a9d');
  });
});
