import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { cliAsync, type HostileService, startHostileService } from '../support/hostile-service.ts';
import { KEY, SIM_NOW, WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';

/**
 * Finding: service-provided text was not redacted when the envelope's status was not OK
 * (a key echoed in `message` or `status` reached CLI output and renderer events), and a key
 * echoed in a successful body was stored in the snapshot's raw column.
 */
let sim: Simulator;
let echo: HostileService;

beforeAll(async () => {
  sim = await startSimulator({ accessKey: KEY, seed: 7, now: () => SIM_NOW });
  echo = await startHostileService({ status: 200, body: '{"status":"DENIED for {key}","message":"the key {key} is not allowed","data":[]}' });
});
afterAll(async () => {
  await echo.close();
  await sim.close();
});

describe('service-provided text passes the redactor', { timeout: 120_000 }, () => {
  it('a key echoed in status and message of a non-OK envelope reaches no event, error or job', async () => {
    echo.answer = { status: 200, body: '{"status":"DENIED for {key}","message":"the key {key} is not allowed","data":[]}' };
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: echo.url, env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
    const events: string[] = [];
    core.on('sync.progress', (p) => events.push(JSON.stringify(p)));
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const job = (await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET })], { failed: 'return' }))[0]!;
      expect(job.state).toBe('failed');
      expect(echo.seen.some((u) => u.includes(KEY))).toBe(true); // it was this service's key
      expect(job.error?.message).toMatch(/DENIED for REDACTED.*the key REDACTED is not allowed/);
      const shown = JSON.stringify([events, await core.dispatch('wallets.status', undefined), await core.dispatch('sync.jobs', undefined)]);
      expect(shown).not.toContain(KEY);
    } finally {
      await core.close();
    }
  });

  it('the same through the CLI: nothing on stdout or stderr carries the key', async () => {
    echo.answer = { status: 200, body: '{"status":"{key}","message":"{key}","data":[]}' };
    const dir = tempDir();
    await cliAsync(['--data-dir', dir, '--base-url', echo.url, 'wallet', 'add', WALLET, '--chains', 'eth']);
    const r = await cliAsync(['--data-dir', dir, '--base-url', echo.url, 'sync', '--no-transactions'], { env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAILED/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('a key echoed in a successful body is scrubbed from the stored raw body and data', async () => {
    // Real answers of the reference service, with the key echoed inside them.
    for (const path of ['/v2/portfolio/all_positions', '/v1/portfolio/positions_by_underlying', '/v1/portfolio/port_liq_analysis']) {
      const real = await (await fetch(`${sim.url}${path}?wallet=${WALLET}&chains=eth&date=2025-06-01&access_key=${KEY}`)).text();
      const body = JSON.parse(real) as { data: Array<Record<string, unknown>>; echo?: string };
      body.echo = 'you sent {key}';
      body.data[0]!['note'] = 'key={key}';
      echo.byPath.set(path, { status: 200, body: JSON.stringify(body) });
    }
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: echo.url, env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const job = (await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' })], { failed: 'return' }))[0]!;
      expect(job.state, JSON.stringify(job.error)).toBe('done');
      const rows = (await cacheOf(core)).prepare("SELECT raw, data FROM snapshots WHERE endpoint = 'allPositions'").all() as Array<{
        raw: string;
        data: string;
      }>;
      expect(rows.length).toBe(1);
      expect(rows[0]!.raw).toContain('you sent REDACTED');
      expect(rows[0]!.raw).not.toContain(KEY);
      expect(rows[0]!.data).not.toContain(KEY);
      const positions = await core.call('positions.get', { wallet: WALLET, date: '2025-06-01', view: 'all' });
      expect(JSON.stringify(positions)).not.toContain(KEY);
    } finally {
      await core.close();
    }
  });
});
