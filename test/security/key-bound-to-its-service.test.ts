import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { cliAsync, type HostileService, startHostileService } from '../support/hostile-service.ts';
import { KEY, SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';

/**
 * Finding (High): the key from FOLIOSCOPE_ACCESS_KEY went to any base URL. Through the web
 * shell, app.connect to another address then a sync sent `access_key=…` there, and the
 * wallet's last error echoed it back. The key now belongs to the service named with it.
 */
const RENDERER = join(import.meta.dirname, '../../out/renderer');
let sim: Simulator;
let evil: HostileService;

beforeAll(async () => {
  sim = await startSimulator({ accessKey: KEY, seed: 7, now: () => SIM_NOW });
  evil = await startHostileService();
});
afterAll(async () => {
  await evil.close();
  await sim.close();
});

describe('the environment key goes only to the service it was given for', () => {
  let core: Core;
  let shell: WebShell;
  let dataDir: string;

  beforeAll(async () => {
    if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npm run build (npm test does).');
    dataDir = tempDir();
    // As a headless user starts it: key and base URL from the environment.
    core = await createCore({ dataDir, shell: 'web', env: { FOLIOSCOPE_ACCESS_KEY: KEY, FOLIOSCOPE_BASE_URL: sim.url } });
    shell = await startWebShell({ core, rendererDir: RENDERER });
  });
  afterAll(async () => {
    await shell?.close();
    await core?.close();
  });

  const api = (op: string, input?: unknown): Promise<{ ok: boolean; result?: any; error?: { message: string } }> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(input ?? {});
      const req = request(
        {
          host: '127.0.0.1',
          port: shell.port,
          path: `${new URL(shell.appUrl).pathname}api/${op}`,
          method: 'POST',
          headers: { Host: `127.0.0.1:${shell.port}`, Origin: shell.origin, 'X-Folio-Token': shell.token, 'Content-Type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(JSON.parse(text)));
        },
      );
      req.on('error', reject);
      req.end(input === undefined ? undefined : body);
    });

  it('syncs with the environment key against the service named with it', async () => {
    expect((await api('app.info')).result).toMatchObject({ mode: 'live', baseUrl: sim.url, key: { set: true, source: 'environment' } });
    await api('wallets.add', { address: WALLET, chains: ['eth'] });
    const job = (await api('sync.positions', { wallet: WALLET, date: '2025-06-01' })).result;
    await waitForJobs(core, [job], { failed: 'return' });
    expect((await api('wallets.status')).result[0].lastError).toBeNull();
  });

  it('connecting elsewhere through the web shell never carries the key there, nor echoes it back', async () => {
    const connected = await api('app.connect', { baseUrl: evil.url });
    expect(connected.ok).toBe(true);
    // The other service has no key: the environment's is not for it.
    expect(connected.result.key).toMatchObject({ set: false });
    expect(connected.result.key.source).not.toBe('environment');
    await api('wallets.add', { address: WALLET, chains: ['eth'] });
    const job = (await api('sync.positions', { wallet: WALLET })).result;
    await waitForJobs(core, [job], { failed: 'return' });
    expect(evil.seen.length).toBeGreaterThan(0);
    for (const url of evil.seen) expect(url).not.toContain(KEY);
    const everything = JSON.stringify([await api('wallets.status'), await api('sync.jobs'), await api('app.info')]);
    expect(everything).not.toContain(KEY);
    // The new address is remembered; the key is not, anywhere in the data folder's config.
    expect(readFileSync(join(dataDir, 'app.json'), 'utf8')).not.toContain(KEY);
  });
});

describe('the CLI binds the environment key the same way', { timeout: 120_000 }, () => {
  it('a remembered base URL (app.json) does not receive the environment key', async () => {
    const dir = tempDir();
    // An earlier session connected elsewhere (the attack above): app.json names that service.
    writeFileSync(join(dir, 'app.json'), JSON.stringify({ baseUrl: evil.url }));
    const before = evil.seen.length;
    expect((await cliAsync(['--data-dir', dir, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    const r = await cliAsync(['--data-dir', dir, 'sync', '--no-transactions'], { env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
    expect(r.status).not.toBe(0);
    const sent = evil.seen.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const url of sent) expect(url).not.toContain(KEY);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    const status = await cliAsync(['--data-dir', dir, 'key', 'status'], { env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
    expect(status.stdout).toMatch(/No key is set/);
    expect(status.stdout).toMatch(/FOLIOSCOPE_ACCESS_KEY is set but not used here/);
  });

  it("FOLIOSCOPE_BASE_URL names the key's service; --base-url elsewhere gets no key", async () => {
    const dir = tempDir();
    expect((await cliAsync(['--data-dir', dir, '--base-url', evil.url, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    expect((await cliAsync(['--data-dir', dir, 'wallet', 'add', WALLET, '--chains', 'eth'], { env: { FOLIOSCOPE_BASE_URL: sim.url } })).status).toBe(0);
    const before = evil.seen.length;
    // The key was given for the simulator; the command line names the other service.
    const r = await cliAsync(['--data-dir', dir, 'sync', '--no-transactions', '--date', '2025-06-01'], {
      env: { FOLIOSCOPE_ACCESS_KEY: KEY, FOLIOSCOPE_BASE_URL: sim.url },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(evil.seen.length).toBe(before);
    const elsewhere = await cliAsync(['--data-dir', dir, '--base-url', evil.url, 'sync', '--no-transactions'], {
      env: { FOLIOSCOPE_ACCESS_KEY: KEY, FOLIOSCOPE_BASE_URL: sim.url },
    });
    expect(elsewhere.status).not.toBe(0);
    for (const url of evil.seen.slice(before)) expect(url).not.toContain(KEY);
    expect(elsewhere.stdout + elsewhere.stderr).not.toContain(KEY);
  });

  it('with --base-url and the environment key together, that service gets the key', async () => {
    const dir = tempDir();
    expect((await cliAsync(['--data-dir', dir, '--base-url', sim.url, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    const r = await cliAsync(['--data-dir', dir, '--base-url', sim.url, 'sync', '--no-transactions', '--date', '2025-06-01'], {
      env: { FOLIOSCOPE_ACCESS_KEY: KEY },
    });
    expect(r.status, r.stderr).toBe(0);
  });
});
