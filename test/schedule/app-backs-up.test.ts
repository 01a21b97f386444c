import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import type { DataChanged } from '../../src/shared/contract.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/** Backups in a running app: daily by itself, as the settings say; a restore swaps the cache under a live core. */
afterEach(() => {
  vi.useRealTimers();
});

describe('backups in a running app', () => {
  // The app's periodic check is the test's to run (fake intervals) and its clock is pinned: each
  // "no backup" below follows checks that ran, and a day passes when the test says so, not after
  // a sleep or at the machine's midnight.
  it('a backup is made by itself once a wallet is watched, then not again that day; off in Settings, none', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let now = SIM_NOW;
    const checks = (n: number) => vi.advanceTimersByTime(50 * n);
    const dataDir = tempDir();
    const core: Core = await createCore({ dataDir, shell: 'web', baseUrl: null, env: {}, scheduleEveryMs: 50, demo: demoStarter(), now: () => now });
    try {
      checks(10);
      // An empty cache holds nothing of the user's: no backup yet.
      expect(existsSync(join(dataDir, 'backups'))).toBe(false);
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      checks(1);
      await expect.poll(async () => (await core.call('backups.list', undefined)).backups.length, { timeout: 10_000 }).toBe(1);
      const [made] = (await core.call('backups.list', undefined)).backups;
      expect(made).toMatchObject({ reason: 'scheduled', counts: expect.objectContaining({ wallets: 1 }), problem: null });
      // Ten more checks the same day start none: a backup asked for now waits for any under way,
      // so had a check started one, there would be three after it.
      now += 3_600_000;
      checks(10);
      await core.call('backups.create', undefined);
      expect((await core.call('backups.list', undefined)).backups.map((b) => b.reason)).toEqual(['manual', 'scheduled']);
      // A day after the last: due again.
      now += 86_400_000;
      checks(1);
      await expect.poll(async () => (await core.call('backups.list', undefined)).backups.length, { timeout: 10_000 }).toBe(3);
    } finally {
      await core.close();
    }

    const off = tempDir();
    const core2 = await createCore({ dataDir: off, shell: 'web', baseUrl: null, env: {}, scheduleEveryMs: 50, demo: demoStarter(), now: () => now });
    try {
      await core2.call('settings.update', { backupEnabled: false });
      await core2.call('wallets.add', { address: WALLET, chains: ['eth'] });
      checks(10);
      expect(existsSync(join(off, 'backups'))).toBe(false);
    } finally {
      await core2.close();
    }
  });

  it('keeps as many as the setting says; a restore is refused while a job runs, then swaps the cache and reopens it', async () => {
    const dataDir = tempDir();
    // Backups are named to the second, by the core's clock: the test moves it a second on.
    let now = SIM_NOW;
    const core: Core = await createCore({
      dataDir,
      shell: 'web',
      baseUrl: null,
      env: {},
      scheduleEveryMs: 0,
      demo: demoStarter({ latencyMs: 400, txnsPerWallet: 300 }),
      now: () => now,
    });
    try {
      await core.call('settings.update', { backupKeep: 2 });
      await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'First' });
      const first = await core.call('backups.create', undefined);
      now += 1000;
      await core.call('backups.create', undefined);
      now += 1000;
      await core.call('wallets.add', { address: WALLET_2, chains: ['eth'], label: 'Second' });
      const third = await core.call('backups.create', undefined);
      const names = (await core.call('backups.list', undefined)).backups.map((b) => b.name);
      expect(names).toHaveLength(2);
      expect(names[0]).toBe(third.name);
      expect(names).not.toContain(first.name);
      const older = names[1]!;

      // A sync in flight: the restore is refused, and says how to go on.
      const job = await core.call('sync.transactions', { wallet: WALLET });
      const refused = await core.dispatch('backups.restore', { name: older });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          kind: 'validation',
          message: expect.stringMatching(/1 job is running \(.*\): wait for it to finish, or cancel it and restore\. Nothing was changed\./),
        },
      });
      expect((await core.call('wallets.list', undefined)).map((w) => w.label)).toEqual(['First', 'Second']);

      const changes: DataChanged[] = [];
      core.on('data.changed', (c) => changes.push(c));
      const r = await core.call('backups.restore', { name: older, cancelJobs: true });
      expect(r.restored.name).toBe(older);
      expect(r.keptAside).toMatch(/demo\.sqlite\.before-restore-\d{8}T\d{6}Z$/);
      expect(existsSync(r.keptAside)).toBe(true);
      expect((await core.call('sync.jobs', undefined)).find((j) => j.id === job.id)).toBeUndefined();
      // The core works on the restored cache: one wallet, as the backup held.
      expect((await core.call('wallets.list', undefined)).map((w) => w.label)).toEqual(['First']);
      expect(changes).toContainEqual({ scope: 'mode' });
      await core.call('wallets.add', { address: WALLET_2, chains: ['eth'] });
      expect(readdirSync(dataDir).filter((n) => n.includes('restoring'))).toEqual([]);
    } finally {
      await core.close();
    }
  });
});
