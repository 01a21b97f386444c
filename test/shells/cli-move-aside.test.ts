import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { runCliSync } from '../support/cli-process.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * `folioscope cache move-aside` keeps the damaged cache as it was: the file kept aside is the
 * damaged file byte for byte, with its -wal and -shm beside it unchanged. Before, the lock check
 * switched the file out of WAL mode first (a checkpoint of the -wal into it, the header
 * rewritten, the -shm removed), so what was kept was not what was damaged.
 */
const demo = demoStarter({ now: () => SIM_NOW });

/**
 * A cache as a crash leaves it: the main file, and a -wal holding the last writes (with its
 * -shm), copied while the connection that wrote them was still open.
 */
async function crashedCache(): Promise<{ dataDir: string; file: string }> {
  const made = tempDir();
  const core = await createCore({ dataDir: made, shell: 'cli', baseUrl: null, env: {}, demo });
  await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury' });
  await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' })]);
  await core.close();
  const dataDir = join(tempDir(), 'data');
  mkdirSync(dataDir);
  const file = join(dataDir, 'demo.sqlite');
  const db = new BetterSqlite3(join(made, 'demo.sqlite'));
  try {
    db.pragma('wal_autocheckpoint = 0');
    db.exec("UPDATE wallets SET label = 'Treasury (renamed)'");
    for (const f of ['', '-wal', '-shm']) copyFileSync(join(made, `demo.sqlite${f}`), `${file}${f}`);
  } finally {
    db.close();
  }
  return { dataDir, file };
}

describe('folioscope cache move-aside, as a process', () => {
  it('keeps the damaged file, and its -wal and -shm, byte for byte', { timeout: 120_000 }, async () => {
    const { dataDir, file } = await crashedCache();
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
    // Damage in the middle of the file: a data page, not the header or the schema.
    const fd = openSync(file, 'r+');
    const middle = Math.floor(statSync(file).size / 4096 / 2) * 4096 + 512;
    writeSync(fd, Buffer.alloc(1000, 0x5a), 0, 1000, middle);
    closeSync(fd);
    const before = { main: readFileSync(file), wal: readFileSync(`${file}-wal`), shm: readFileSync(`${file}-shm`) };

    const moved = runCliSync(['--data-dir', dataDir, 'cache', 'move-aside']);
    expect(moved.status, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/nothing deleted/);

    const aside = readdirSync(dataDir).find((f) => /^demo\.sqlite\.damaged-[^-]+$/.test(f));
    expect(aside, readdirSync(dataDir).join(' ')).toBeDefined();
    const kept = join(dataDir, aside!);
    expect(readFileSync(kept).equals(before.main)).toBe(true);
    expect(existsSync(`${kept}-wal`)).toBe(true);
    expect(readFileSync(`${kept}-wal`).equals(before.wal)).toBe(true);
    expect(existsSync(`${kept}-shm`)).toBe(true);
    expect(readFileSync(`${kept}-shm`).equals(before.shm)).toBe(true);
    // A new cache took its place, and the run leaves nothing else behind.
    expect(
      readdirSync(dataDir)
        .filter((f) => f.includes('.damaged-'))
        .sort(),
    ).toEqual([aside, `${aside}-shm`, `${aside}-wal`].sort());
    const list = runCliSync(['--data-dir', dataDir, 'wallet', 'list']);
    expect(list.status, list.stderr).toBe(0);
  });
});
