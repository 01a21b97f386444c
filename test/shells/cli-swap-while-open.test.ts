import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdOpen, runCliSync } from '../support/cli-process.ts';
import { tempDir } from '../support/store.ts';
import { WALLET } from '../support/sim.ts';

/**
 * A restore or a move-aside from one process while another (the app, the web shell, `watch`,
 * a sync) has the cache open is refused, with nothing changed: the other process would go on
 * writing into the file put aside. (An attacker's finding: a CLI restore during a CLI sync
 * printed "Restored", the sync then "ok … (60000)", and the current cache held none of them.)
 */
const cli = runCliSync;
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('a restore or a move-aside while another process has the cache open', () => {
  it('is refused, the cache and its folder as they were; once the other has closed it, it goes through', async () => {
    const dir = tempDir();
    const g = ['--data-dir', dir];
    expect(cli([...g, 'wallet', 'add', WALLET, '--chains', 'eth']).status).toBe(0);
    expect(cli([...g, 'sync', '--no-positions']).status).toBe(0);
    expect(cli([...g, 'backup', 'create']).status).toBe(0);
    const name = (JSON.parse(cli([...g, 'backup', 'list', '--json']).stdout) as { backups: Array<{ name: string }> }).backups[0]!.name;
    const file = join(dir, 'demo.sqlite');

    // Another process holding the cache open, in a read transaction (as a running sync's reads would).
    const other = await holdOpen(file);
    try {
      expect(other.printed).toMatch(/1/);
      const before = sha(file);
      const listing = () =>
        readdirSync(dir)
          .filter((n) => !/-(wal|shm)$/.test(n))
          .sort();
      const files = listing();

      const restore = cli([...g, 'backup', 'restore', name]);
      expect(restore.status).toBe(1);
      expect(restore.stderr).toMatch(/demo\.sqlite is open in another Folioscope .* close it and try again\. Nothing was changed\./);
      const aside = cli([...g, 'cache', 'move-aside']);
      expect(aside.status).toBe(1);
      expect(aside.stderr).toMatch(/demo\.sqlite is open in another Folioscope .* close it and try again\. Nothing was changed\./);
      expect(sha(file)).toBe(before);
      expect(listing()).toEqual(files);
    } finally {
      other.release();
    }
    const restored = cli([...g, 'backup', 'restore', name]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(cli([...g, 'wallet', 'list']).stdout).toContain(WALLET);
  }, 180_000);
});
