import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { startSimulator } from '../../src/sim/server.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

describe('the core: demo mode, connecting, and caches kept apart', () => {
  it('starts in demo mode without a key or base URL, and connects to a service with a key from the keychain', async () => {
    const dataDir = tempDir();
    const key = `k-${randomBytes(8).toString('hex')}`;
    const sim = await startSimulator({ accessKey: key, now: () => SIM_NOW });
    const core = await createCore({ dataDir, shell: 'web', env: {}, demo: demoStarter() });
    try {
      const demo = await core.call('app.info', undefined);
      expect(demo).toMatchObject({ mode: 'demo', key: { set: false } });
      expect(demo.databaseFile).toBe(join(dataDir, 'demo.sqlite'));
      await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Demo wallet' });

      const live = await core.call('app.connect', { baseUrl: sim.url + '/', key });
      expect(live).toMatchObject({ mode: 'live', baseUrl: sim.url, key: { set: true, source: 'keychain' } });
      expect(live.databaseFile).toMatch(/live-[0-9a-f]{12}\.sqlite$/);
      // The live cache starts empty: demo data never mixes in.
      expect(await core.call('wallets.list', undefined)).toEqual([]);
      await core.call('wallets.add', { address: WALLET_2, chains: ['eth'], label: 'Real wallet' });
      const job = await core.call('sync.positions', { wallet: WALLET_2, date: '2025-01-01' });
      await waitForJobs(core, [job]);
      expect(await core.call('positions.dates', { wallet: WALLET_2 })).toEqual(['2025-01-01']);
      // The choice is remembered, without the key.
      const config = readFileSync(join(dataDir, 'app.json'), 'utf8');
      expect(JSON.parse(config)).toEqual({ baseUrl: sim.url });
      expect(config).not.toContain(key);

      await core.call('app.useDemo', undefined);
      expect((await core.call('wallets.list', undefined)).map((w) => w.label)).toEqual(['Demo wallet']);
      await core.call('app.connect', { baseUrl: sim.url });
      expect((await core.call('wallets.list', undefined)).map((w) => w.label)).toEqual(['Real wallet']);
      await core.call('key.clear', undefined);
      expect((await core.call('key.status', undefined)).set).toBe(false);
    } finally {
      await core.close();
      await sim.close();
    }
    // No file in the data folder holds the key.
    for (const f of ['app.json', 'demo.sqlite'])
      if (existsSync(join(dataDir, f))) expect(readFileSync(join(dataDir, f)).includes(Buffer.from(key))).toBe(false);
  });

  it('rejects a base URL that is not one, and falls back to demo when a remembered one no longer parses', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'app.json'), JSON.stringify({ baseUrl: 'not a url' }));
    const core = await createCore({ dataDir, shell: 'web', env: {}, demo: demoStarter() });
    try {
      expect((await core.call('app.info', undefined)).mode).toBe('demo');
      expect(await core.dispatch('app.connect', { baseUrl: 'ftp://x.example' })).toMatchObject({ ok: false, error: { kind: 'validation', field: 'baseUrl' } });
      expect(await core.dispatch('key.set', { key: 'k' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/Demo mode needs no key/) } });
    } finally {
      await core.close();
    }
    await expect(createCore({ dataDir: tempDir(), shell: 'cli', baseUrl: 'nope', env: {} })).rejects.toThrow();
  });

  it('runs demo mode on the service the shell hands in, and refuses it with why when there is none', async () => {
    // The core never imports the simulator: the shell's starter gets the run's made-up key.
    const started: Array<{ key: string; closed: boolean }> = [];
    const starter = async (key: string) => {
      const sim = await startSimulator({ accessKey: key, now: () => SIM_NOW });
      const record = { key, closed: false };
      started.push(record);
      return { url: sim.url, close: () => ((record.closed = true), sim.close()) };
    };
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: starter });
    try {
      expect((await core.call('app.info', undefined)).baseUrl).toBe(core.demoService()!.url);
      expect(started.map((s) => s.key)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const job = await core.call('sync.positions', { wallet: WALLET, date: '2025-01-01' });
      await new Promise<void>((resolve) => core.on('sync.progress', (j) => j.id === job.id && j.state === 'done' && resolve()));
      expect(await core.call('positions.dates', { wallet: WALLET })).toEqual(['2025-01-01']);
    } finally {
      await core.close();
    }
    expect(started[0]!.closed).toBe(true);

    const bare = tempDir();
    await expect(createCore({ dataDir: bare, shell: 'web', baseUrl: null, env: {} })).rejects.toThrow(/Demo mode is not available here/);
    expect(existsSync(join(bare, 'demo.sqlite'))).toBe(false);
    const key = `k-${randomBytes(8).toString('hex')}`;
    const sim = await startSimulator({ accessKey: key, now: () => SIM_NOW });
    const liveDir = tempDir();
    const live = await createCore({ dataDir: liveDir, shell: 'web', baseUrl: sim.url, env: { FOLIOSCOPE_ACCESS_KEY: key } });
    try {
      expect(await live.dispatch('app.useDemo', undefined)).toMatchObject({
        ok: false,
        error: { kind: 'validation', message: expect.stringMatching(/Demo mode is not available here/) },
      });
      expect(await live.call('app.info', undefined)).toMatchObject({ mode: 'live', baseUrl: sim.url });
      expect(live.demoService()).toBeNull();
      expect(existsSync(join(liveDir, 'demo.sqlite'))).toBe(false);
    } finally {
      await live.close();
      await sim.close();
    }
  });
});
