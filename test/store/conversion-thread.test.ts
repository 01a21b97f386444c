import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { poll } from '../support/web-session.ts';
import { countTurns } from '../support/event-loop.ts';
import { createCore } from '../../src/main/core/app.ts';
import type { Keychain } from '../../src/main/core/secrets/keychain.ts';
import { CacheInUseError, conversionLeftovers, isEncryptedFile } from '../../src/main/core/store/cache-conversion.ts';
import { convertFolderOffThread } from '../../src/main/core/store/conversion-thread.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { CacheKey } from '../../src/main/core/store/driver.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import type { ConversionReply } from '../../src/main/core/store/conversion-thread.ts';
import type { ConversionCount, ConversionProgress } from '../../src/shared/model.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

/**
 * A data folder's conversion (encryption on, off, a change of key) on its worker thread
 * (store/conversion-thread.ts, issue 39: a 2.4 GB cache held the core's thread for ~30 s, the
 * screen saying only "Converting…"): the count the screens and the CLI show, told before the
 * first file and as each is done; the core's thread free meanwhile; an error from the worker
 * thrown here as the class the callers tell apart.
 */
const keys = new Map<string, string>();
const keychain: Keychain = { get: async (a) => keys.get(a) ?? null, set: async (a, s) => void keys.set(a, s), delete: async (a) => keys.delete(a) };
const demo = demoStarter({ now: () => SIM_NOW });
const start = (dataDir: string, at = SIM_NOW) =>
  createCore({ dataDir, shell: 'web', baseUrl: null, env: {}, demo, cacheKeychain: keychain, scheduleEveryMs: 0, now: () => at });

/** The folder's databases: caches, backups and copies kept aside (no manifest, WAL or settings). */
const databases = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (n) => /\.sqlite($|\.)/.test(n) && !/-(wal|shm|journal)$|\.json$/.test(n) && statSync(join(dir, n)).isFile(),
  );

/** A cache of many rows (a cache of some megabytes, not the demo's few hundred kilobytes). */
function bigCache(dir: string, rows: number): string {
  const path = join(dir, 'demo.sqlite');
  const db = openDatabase(path);
  addWallet(db, { address: WALLET, chains: ['eth'], label: 'Treasury' });
  const txs = Array.from({ length: rows }, (_, i) =>
    transactionRow({
      wallet_id: WALLET,
      txn_hash: `0x${randomBytes(32).toString('hex')}`,
      block: i + 1,
      date: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    }),
  );
  upsertTransactions(db, WALLET, 'eth', txs);
  db.close();
  return path;
}

describe("a data folder's conversion on its worker thread", () => {
  it('tells the screens how far it is: every cache, backup and copy kept aside counted with its bytes, from none to all, on and off', async () => {
    const dir = tempDir();
    const core = await start(dir);
    await core.request('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    await core.request('backups.create', undefined);
    await core.close();
    const later = await start(dir, SIM_NOW + 60_000);
    await later.request('backups.create', undefined);
    copyFileSync(join(dir, 'demo.sqlite'), join(dir, 'demo.sqlite.before-restore-20261120T115900Z'));
    const seen: ConversionProgress[] = [];
    const off = later.on('cache.converting', (p) => seen.push(p));

    const files = databases(dir);
    expect(files).toHaveLength(4);
    await later.request('cache.encrypt', {});
    // Sizes as they were when it began (a converted file's size differs).
    const bytes = seen[0]!.bytes;
    expect(seen[0]).toEqual({ what: 'encrypt', done: 0, files: 4, doneBytes: 0, bytes });
    expect(bytes).toBeGreaterThan(0);
    expect(seen.map((p) => p.done)).toEqual([0, 1, 2, 3, 4]);
    for (const [i, p] of seen.entries()) {
      expect(p).toMatchObject({ what: 'encrypt', files: 4, bytes });
      if (i) expect(p.doneBytes).toBeGreaterThan(seen[i - 1]!.doneBytes);
    }
    expect(seen.at(-1)!.doneBytes).toBe(bytes);
    for (const f of databases(dir)) expect(isEncryptedFile(join(dir, f)), f).toBe(true);

    seen.length = 0;
    await later.request('cache.decrypt', {});
    expect(seen.map((p) => [p.what, p.done, p.files])).toEqual([0, 1, 2, 3, 4].map((d) => ['decrypt', d, 4]));
    expect(seen.at(-1)!.doneBytes).toBe(seen[0]!.bytes);
    for (const f of databases(dir)) expect(isEncryptedFile(join(dir, f)), f).toBe(false);
    off();
    // The app goes on, on the same rows.
    expect((await later.request('wallets.list', undefined)).map((w) => w.label)).toEqual(['Treasury']);
    await later.close();
  });

  it('a core closed while it converts (the window shut meanwhile) waits for the conversion, then closes the cache it opened again', async () => {
    const dir = tempDir();
    const cache = bigCache(dir, 30_000);
    const core = await start(dir);
    let closing: Promise<void> | null = null;
    core.on('cache.converting', (p) => {
      if (p.done === 0) closing = core.close();
    });
    const encrypting = core.dispatch('cache.encrypt', {});
    await poll(() => closing !== null).toBe(true);
    await closing;
    // Closed only once every file was converted and the cache opened again under its key.
    expect(isEncryptedFile(cache)).toBe(true);
    expect(conversionLeftovers(cache)).toEqual([]);
    expect(await encrypting).toMatchObject({ ok: true });
    // Nothing of that core holds the folder: another opens it, and converts it back.
    const next = await start(dir);
    expect((await next.request('wallets.list', undefined)).map((w) => w.address)).toEqual([WALLET]);
    await next.request('cache.decrypt', {});
    expect(isEncryptedFile(cache)).toBe(false);
    await next.close();
  });

  it("leaves the core's thread free while a cache is converted: its event loop turns between the first count and the last", async () => {
    const dir = tempDir();
    const cache = bigCache(dir, 30_000);
    expect(statSync(cache).size).toBeGreaterThan(5_000_000);
    const counts: ConversionCount[] = [];
    // Turns of this thread's event loop, and how many had passed at each count.
    const loop = countTurns();
    const at: number[] = [];
    const problems = await convertFolderOffThread(dir, null, new CacheKey(randomBytes(32)), new Date(SIM_NOW), (c) => {
      counts.push(c);
      at.push(loop.turns());
    });
    loop.stop();
    expect(problems).toEqual([]);
    expect(counts.map((c) => c.done)).toEqual([0, 1]);
    // On this thread, the copy and its checks would have run between the two counts with no turn at all.
    expect(at[1]! - at[0]!).toBeGreaterThan(0);
    expect(isEncryptedFile(cache)).toBe(true);
  });

  it('throws what the worker met as the error the callers tell apart: another process holding the cache is CacheInUseError, and nothing is changed', async () => {
    const dir = tempDir();
    const cache = bigCache(dir, 100);
    const hold = `const D = require('better-sqlite3-multiple-ciphers'); const db = new D(${JSON.stringify(cache)}); db.exec('BEGIN'); db.prepare('SELECT count(*) FROM wallets').get(); console.log('holding'); setInterval(() => {}, 1000);`;
    const other = spawn(process.execPath, ['-e', hold], { stdio: ['ignore', 'pipe', 'pipe'], cwd: join(import.meta.dirname, '../..') });
    try {
      await new Promise<void>((resolve, reject) => {
        other.stdout.on('data', (d) => String(d).includes('holding') && resolve());
        other.once('exit', (code) => reject(new Error(`the holding process ended (${code})`)));
      });
      const failed = convertFolderOffThread(dir, null, new CacheKey(randomBytes(32)), new Date(SIM_NOW));
      await expect(failed).rejects.toBeInstanceOf(CacheInUseError);
      await expect(failed).rejects.toMatchObject({ path: cache, said: { code: 'storage.inUse', values: { path: cache } } });
      expect(isEncryptedFile(cache)).toBe(false);
      expect(conversionLeftovers(cache)).toEqual([]);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('runs bundled: out/main/store-convert.js (electron-vite build) converts the folder and counts it', async () => {
    const bundled = join(import.meta.dirname, '../../out/main/store-convert.js');
    expect(existsSync(bundled), 'run `npx electron-vite build` first').toBe(true);
    const dir = tempDir();
    const cache = bigCache(dir, 100);
    const bytes = statSync(cache).size;
    const key = new CacheKey(randomBytes(32));
    const replies = await new Promise<ConversionReply[]>((resolve, reject) => {
      const got: ConversionReply[] = [];
      const worker = new Worker(bundled, { workerData: { dataDir: dir, from: null, to: key.hex(), now: SIM_NOW } });
      worker.on('message', (m: ConversionReply) => {
        got.push(m);
        if (m.type !== 'count') resolve(got);
      });
      worker.once('error', reject);
    });
    expect(replies).toEqual([
      { type: 'count', count: { done: 0, files: 1, doneBytes: 0, bytes } },
      { type: 'count', count: { done: 1, files: 1, doneBytes: bytes, bytes } },
      { type: 'done', problems: [] },
    ]);
    expect(isEncryptedFile(cache)).toBe(true);
  });
});
