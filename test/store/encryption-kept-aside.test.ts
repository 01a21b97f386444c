import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import type { Keychain } from '../../src/main/core/secrets/index.ts';
import { isEncryptedFile, removeOrphanSidecars } from '../../src/main/core/store/cache-conversion.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * A copy of the cache a restore kept aside (`<cache>.before-restore-<time>`) holds the user's
 * data as the cache did: encrypting the folder encrypts it too, and decrypting decrypts it (an
 * attacker found it left plain beside an encrypted cache: the trap issue 29 names).
 */
describe('copies of the cache kept aside by a restore', () => {
  it('are encrypted with the folder and decrypted with it', async () => {
    const dataDir = tempDir();
    const keys = new Map<string, string>();
    const keychain: Keychain = { get: async (a) => keys.get(a) ?? null, set: async (a, s) => void keys.set(a, s), delete: async (a) => keys.delete(a) };
    const core = await createCore({ dataDir, shell: 'cli', baseUrl: null, env: {}, demo: demoStarter({ now: () => SIM_NOW }), cacheKeychain: keychain });
    try {
      await core.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
      const made = await core.request('backups.create', undefined);
      const { keptAside } = await core.request('backups.restore', { name: made.name });
      expect(readdirSync(dataDir)).toContain(keptAside.split('/').at(-1));
      expect(isEncryptedFile(keptAside)).toBe(false);
      expect(readFileSync(keptAside).includes(WALLET)).toBe(true);

      expect((await core.request('cache.encrypt', {})).on).toBe(true);
      expect(isEncryptedFile(keptAside)).toBe(true);
      expect(readFileSync(keptAside).includes(WALLET)).toBe(false);
      expect(readFileSync(keptAside).includes('Treasury')).toBe(false);
      // No file of the folder holds the data in the clear (a copy's -wal neither).
      for (const f of readdirSync(dataDir, { recursive: true, withFileTypes: true }))
        if (f.isFile()) expect(readFileSync(join(f.parentPath, f.name)).includes(WALLET), f.name).toBe(false);
      // Nothing of the conversion left beside it.
      expect(readdirSync(dataDir).filter((n) => n.includes('.converting-') || n.includes('.before-encrypt-'))).toEqual([]);

      expect((await core.request('cache.decrypt', {})).on).toBe(false);
      expect(isEncryptedFile(keptAside)).toBe(false);
      expect(readFileSync(join(keptAside)).includes(WALLET)).toBe(true);
    } finally {
      await core.close();
    }
  }, 120_000);

  it('leave no -journal, -wal or -shm behind once removed: a conversion clears those whose copy is gone, and only those', () => {
    const dir = tempDir();
    const cache = join(dir, 'demo.sqlite');
    const names = [
      'demo.sqlite',
      'demo.sqlite-wal',
      'demo.sqlite.damaged-20261120T000000Z-journal',
      'demo.sqlite.before-restore-20261120T000000Z-wal',
      'demo.sqlite.damaged-20261121T000000Z',
      'demo.sqlite.damaged-20261121T000000Z-journal',
    ];
    for (const n of names) writeFileSync(join(dir, n), 'x');
    expect(
      removeOrphanSidecars(cache)
        .map((p) => p.slice(dir.length + 1))
        .sort(),
    ).toEqual(['demo.sqlite.before-restore-20261120T000000Z-wal', 'demo.sqlite.damaged-20261120T000000Z-journal']);
    expect(readdirSync(dir).sort()).toEqual([
      'demo.sqlite',
      'demo.sqlite-wal',
      'demo.sqlite.damaged-20261121T000000Z',
      'demo.sqlite.damaged-20261121T000000Z-journal',
    ]);
  });
});
