import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { KEY, SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/** Finding: connecting with a wrong key said "Connected"; the 401 only showed on the next sync. */
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ accessKey: KEY, seed: 7, now: () => SIM_NOW });
});
afterAll(() => sim.close());

/** A loopback port with nothing listening (bound, then released). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('connect checks the key with one cheap request', () => {
  it('a refused key changes nothing and says so', async () => {
    const dataDir = tempDir();
    const core = await createCore({ dataDir, shell: 'web', env: {}, demo: demoStarter() });
    try {
      const before = sim.requests.length;
      const r = await core.dispatch('app.connect', { baseUrl: sim.url, key: 'wrong-key-5e0c7b', sessionOnly: true });
      expect(r).toMatchObject({ ok: false, error: { kind: 'validation', field: 'key' } });
      expect(r.ok || r.error.message).toMatch(/refused this access key \(HTTP 401\)\. Nothing was changed/);
      expect(sim.requests.length - before).toBe(1);
      const info = await core.call('app.info', undefined);
      expect(info.mode).toBe('demo');
      expect(existsSync(join(dataDir, 'app.json'))).toBe(false);
      // The session key was not kept either: connecting without a key finds none.
      const plain = await core.call('app.connect', { baseUrl: sim.url });
      expect(plain.key.set).toBe(false);
      expect(plain.keyCheck.state).toBe('none');
    } finally {
      await core.close();
    }
  });

  it('an accepted key says so; only then is it "Connected"', async () => {
    const dataDir = tempDir();
    const core = await createCore({ dataDir, shell: 'web', env: {}, demo: demoStarter() });
    try {
      const r = await core.call('app.connect', { baseUrl: sim.url, key: KEY, sessionOnly: true });
      expect(r).toMatchObject({ mode: 'live', baseUrl: sim.url, key: { set: true, source: 'session' }, keyCheck: { state: 'accepted' } });
      expect(JSON.parse(readFileSync(join(dataDir, 'app.json'), 'utf8'))).toEqual({ baseUrl: sim.url });
    } finally {
      await core.close();
    }
  });

  it('replacing the key (key.set) with one the service refuses keeps the old one', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter() });
    try {
      await core.call('app.connect', { baseUrl: sim.url, key: KEY, sessionOnly: true });
      const r = await core.dispatch('key.set', { key: 'wrong-key-5e0c7b', sessionOnly: true });
      expect(r).toMatchObject({ ok: false, error: { field: 'key' } });
      await core.call('wallets.add', { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth'] });
      const job = await core.call('sync.positions', { wallet: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', date: '2025-06-01' });
      const done = (await waitForJobs(core, [job], { failed: 'return' }))[0]!;
      expect(done.state).toBe('done');
    } finally {
      await core.close();
    }
  });

  it('an unreachable service is "could not verify", never "accepted"', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter() });
    try {
      const url = `http://127.0.0.1:${await deadPort()}`;
      const r = await core.call('app.connect', { baseUrl: url, key: KEY, sessionOnly: true });
      expect(r.keyCheck.state).toBe('unverified');
      expect(r.keyCheck.message).toMatch(/could not be verified: Could not reach the service/);
      expect(r.mode).toBe('live');
    } finally {
      await core.close();
    }
  });
});
