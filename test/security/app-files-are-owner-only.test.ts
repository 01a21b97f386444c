import { chmodSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { KEY, SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/** Finding: cache and app files were created world-readable. */
const mode = (p: string) => statSync(p).mode & 0o777;

describe.skipIf(process.platform === 'win32')('files the app creates are readable by their owner only', { timeout: 120_000 }, () => {
  it('the data folder is 0700; the cache with its -wal and -shm, app.json and web downloads are 0600', async () => {
    const dataDir = join(tempDir(), 'nested', 'folioscope');
    let sim: Simulator | null = null;
    const core = await createCore({ dataDir, shell: 'web', baseUrl: null, env: {}, demo: demoStarter({ now: () => SIM_NOW }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' })]);
      expect(mode(dataDir)).toBe(0o700);
      const cache = join(dataDir, 'demo.sqlite');
      expect(existsSync(`${cache}-wal`)).toBe(true);
      for (const f of [cache, `${cache}-wal`, `${cache}-shm`]) expect(mode(f), f).toBe(0o600);

      const job = await core.call('export.start', { format: 'csv', report: 'positions', date: '2025-06-01' });
      await waitForJobs(core, [job!]);
      const downloads = join(dataDir, 'downloads');
      expect(mode(downloads)).toBe(0o700);
      const files = readdirSync(downloads);
      expect(files.length).toBe(1);
      expect(mode(join(downloads, files[0]!))).toBe(0o600);

      sim = await startSimulator({ accessKey: KEY, now: () => SIM_NOW });
      await core.call('app.connect', { baseUrl: sim.url, key: KEY, sessionOnly: true });
      expect(mode(join(dataDir, 'app.json'))).toBe(0o600);
      const live = (await core.call('app.info', undefined)).databaseFile;
      expect(mode(live)).toBe(0o600);
    } finally {
      await core.close();
      await sim?.close();
    }
  });

  it('a cache an older version left world-readable is narrowed when opened', () => {
    const path = join(tempDir(), 'old.sqlite');
    writeFileSync(path, '');
    chmodSync(path, 0o644);
    openDatabase(path).close();
    expect(mode(path)).toBe(0o600);
  });

  it('CLI exports are 0600', async () => {
    const dir = tempDir();
    const out = join(dir, 'wallets.csv');
    await cliAsync(['--data-dir', dir, 'wallet', 'add', WALLET, '--chains', 'eth']);
    const r = await cliAsync(['--data-dir', dir, 'export', 'csv', '--report', 'transactions', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(mode(out)).toBe(0o600);
    const pdf = join(dir, 'r.pdf');
    expect((await cliAsync(['--data-dir', dir, 'sync', '--no-transactions', '--date', '2025-06-01'])).status).toBe(0);
    expect((await cliAsync(['--data-dir', dir, 'export', 'pdf', '--date', '2025-06-01', '--out', pdf])).status).toBe(0);
    expect(mode(pdf)).toBe(0o600);
  });
});
