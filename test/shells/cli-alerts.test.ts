import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import type { Keychain } from '../../src/main/core/secrets/keychain.ts';
import { runCliHere } from '../support/cli-in-process.ts';
import { writeCacheIn } from '../support/cli-process.ts';
import { findHealthDip, MONTH_ENDS } from '../support/health-dip.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

/**
 * Alerts from the command line: `folioscope alert` manages rules and the inbox, and `folioscope
 * watch --once [--json]` prints the alerts a scheduled run fired: a real health dip between a
 * date synced earlier and the service's latest snapshot, which the schedule syncs. `watch
 * --once` runs as cron runs it, a process; the other commands run in this process (runCliHere,
 * the entry the process runs), since what they do is what is tested.
 */
const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');
const KEY = 'cli-alerts-key-7d1e4c2a';
let simUrl = '';
let stopSim: () => void = () => undefined;

beforeAll(async () => {
  const child = spawn(process.execPath, [CLI, 'sim', '--access-key', KEY, '--txns-per-wallet', '200'], { stdio: ['ignore', 'pipe', 'pipe'] });
  stopSim = () => child.kill('SIGTERM');
  simUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(String(d).split('\n')[0]!.trim()));
    child.once('exit', (code) => reject(new Error(`sim exited ${code}`)));
  });
});
afterAll(() => stopSim());

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}
const run = (args: string[]) =>
  new Promise<Ran>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '' };
    child.stdout.on('data', (d) => (out.stdout += String(d)));
    child.stderr.on('data', (d) => (out.stderr += String(d)));
    child.on('exit', (status) => resolve({ status, ...out }));
  });
/** A command in this process, with the key in its environment as `run` gives it. */
const here = (args: string[]) => runCliHere(args, { env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('folioscope alert and watch', () => {
  it(
    'a due schedule syncs a health dip: watch --once --json prints the run and the alert; the inbox lists it until acknowledged',
    { timeout: 180_000 },
    async () => {
      // Where the service's data dips: a month end whose lowest health is above today's.
      const keychain: Keychain = { get: async () => null, set: async () => undefined, delete: async () => false };
      const probe = await createCore({ dataDir: tempDir(), shell: 'cli', baseUrl: simUrl, env: { FOLIOSCOPE_ACCESS_KEY: KEY }, keychain });
      let dip: Awaited<ReturnType<typeof findHealthDip>>;
      try {
        await probe.call('wallets.add', { address: WALLET, chains: ['eth'] });
        dip = await findHealthDip(probe, WALLET, MONTH_ENDS);
      } finally {
        await probe.close();
      }

      const dir = tempDir();
      const g = ['--data-dir', dir, '--base-url', simUrl];
      expect((await here([...g, 'wallet', 'add', WALLET, '--chains', 'eth', '--label', 'Treasury'])).status).toBe(0);
      expect((await here([...g, 'sync', '--date', dip.from, '--no-transactions'])).status).toBe(0);

      // Bad rules: a usage error names the option; the contract's bounds are refused with the field.
      const noKind = await here([...g, 'alert', 'add', '--all']);
      expect(noKind.status).toBe(2);
      expect(noKind.stderr).toMatch(/alert add needs a kind: health, unlock, nav, outflow, counterparty, stale/);
      expect((await here([...g, 'alert', 'add', 'health'])).stderr).toMatch(/alert add health needs --below/);
      const negative = await here([...g, 'alert', 'add', 'health', '--below=-1']);
      expect(negative.status).toBe(1);
      expect(negative.stderr).toMatch(/condition\.below/);

      const add = await here([...g, 'alert', 'add', 'health', '--below', String(dip.threshold), '--wallet', WALLET]);
      expect(add.status, add.stderr).toBe(0);
      expect(add.stdout).toContain(`Alert rule 1: health below ${dip.threshold}, ${WALLET}.`);
      expect(add.stdout).toMatch(/Checked now: \d+ lending positions? checked at each chain's newest cached date; 0 below the threshold\./);
      expect((await here([...g, 'alert', 'inbox'])).stdout).toMatch(/No alerts to acknowledge\./);
      const list = await here([...g, 'alert', 'list']);
      expect(list.stdout).toMatch(new RegExp(`^1\\thealth below ${dip.threshold}\\t${WALLET}\\t`, 'm'));

      expect((await here([...g, 'schedule', 'add', '--wallet', WALLET, '--what', 'positions', '--every', 'day', '--at', '06:00'])).status).toBe(0);
      writeCacheIn(dir, (db) => db.prepare("UPDATE schedules SET created_at = '2026-01-01T00:00:00.000Z'").run());
      const watch = await run([...g, 'watch', '--once', '--json']);
      expect(watch.status, watch.stderr).toBe(0);
      const lines = jsonLines(watch.stdout);
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ schedule: 1, state: 'ok' });
      expect(lines[1]).toMatchObject({
        alert: { id: 1, rule: 1, kind: 'health', wallet: WALLET, facts: { date: dip.to, below: dip.threshold }, resolvedAt: null, acknowledgedAt: null },
      });
      expect(lines[1]!['alert'].facts.health).toBeCloseTo(dip.after, 5);
      expect(lines[1]!['alert'].title).toMatch(new RegExp(`^Health \\d\\.\\d+ below ${dip.threshold}: `));

      // Readable lines: a second rule made while nothing ran, and the schedule due again.
      writeCacheIn(dir, (db) => {
        db.prepare('INSERT INTO alert_rules (scope, condition, created_at) VALUES (\'{"kind":"all"}\', ?, \'2026-01-01T00:00:00.000Z\')').run(
          JSON.stringify({ kind: 'health', below: dip.threshold }),
        );
        db.prepare('UPDATE schedules SET last_slot = NULL').run();
      });
      const readable = await run([...g, 'watch', '--once']);
      expect(readable.status, readable.stderr).toBe(0);
      expect(readable.stdout).toMatch(
        /^ok {10}schedule 1 \(.*\): 1 job: 1 ok\nALERT {7}2: Health \d\.\d+ below [\d.]+: .+\n {12}\d{4}-\d\d-\d\d \d\d:\d\d UTC · .+ of Treasury \(0x5a0b/m,
      );

      const inbox = await here([...g, 'alert', 'inbox', '--json']);
      expect(jsonLines(inbox.stdout).map((l) => l['alert'].id)).toEqual([2, 1]);
      expect((await here([...g, 'alert', 'ack', '1'])).stdout).toBe('Alert 1 acknowledged.\n');
      expect((await here([...g, 'alert', 'snooze', '2', '--hours', '2'])).stdout).toMatch(/^Alert 2 snoozed until \d{4}-\d\d-\d\d \d\d:\d\d UTC\.\n$/);
      const after = await here([...g, 'alert', 'inbox']);
      expect(after.stdout).toMatch(/^0 alerts to look at \(others snoozed\):\nALERT {7}2: /);
      // As a process: a refusal's line on the program's real standard error.
      expect((await run([...g, 'alert', 'ack', '99'])).stderr).toMatch(/There is no alert 99\./);
      // Still below: checking again fires nothing new.
      expect((await here([...g, 'alert', 'check'])).stdout).toBe('No new alerts.\n');
      expect((await here([...g, 'alert', 'remove', '1'])).stdout).toMatch(/Alert rule 1 removed/);
    },
  );
});
