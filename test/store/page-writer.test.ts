import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { inThreadWriter, WRITE_WORKER_LIMITS, workerCanWrite, workerWriter } from '../../src/main/core/transactions/store/page-writer.ts';
import type { PageWrite } from '../../src/main/core/transactions/store/page-writes.ts';
import { countTransactions, listRanges, type SyncRange } from '../../src/main/core/transactions/store/transactions.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import { createDB } from '../support/store.ts';
import { mainWrites } from '../../src/main/core/store/write-yield.ts';
import { WRITER_NICE } from '../../src/main/core/transactions/store/thread-priority.ts';
import { transactionRow } from '../support/transactions.ts';

const W = '0x00000000000000000000000000000000000000aa';

const range = (nextPage: number, state = 'in_progress'): SyncRange =>
  ({
    wallet: W,
    chain: 'eth',
    startTime: 0,
    endTime: 2_000_000_000,
    state,
    nextPage,
    pageSize: 100,
    startBlock: null,
    endBlock: null,
    completionRatio: null,
    rowsRead: (nextPage - 1) * 100,
    updatedAt: 'now',
    reason: null,
  }) as SyncRange;

function page(n: number, state?: string): PageWrite {
  const rows = Array.from({ length: 100 }, (_, i) =>
    transactionRow({
      wallet_id: W,
      txn_hash: `0x${(n * 1000 + i).toString(16).padStart(64, '0')}`,
      block: n,
      to: null,
      from_type: null,
      to_type: null,
      date: new Date(1_700_000_000_000 - (n * 1000 + i) * 1000).toISOString(),
    }),
  );
  return { wallet: W, chain: 'eth', rows, range: range(n + 1, state), close: null };
}

/** The largest V8 new space a worker reaches while it makes page-like garbage, a few pages alive at once (as the writer does). */
async function largestNewSpace(resourceLimits?: typeof WRITE_WORKER_LIMITS): Promise<number> {
  const code = `
    const v8 = require('node:v8');
    let largest = 0;
    const alive = [];
    for (let i = 0; i < 400; i++) {
      alive.push(Array.from({ length: 1000 }, (_, j) => ({ hash: '0x' + (i * 1000 + j).toString(16).padStart(64, '0'), block: i, details: [{ symbol: 'ETH', amount: j / 7 }] })));
      if (alive.length > 3) alive.shift();
      largest = Math.max(largest, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
    }
    require('node:worker_threads').parentPort.postMessage(largest);
  `;
  const worker = new Worker(code, { eval: true, ...(resourceLimits && { resourceLimits }) });
  try {
    return await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe('the write worker', () => {
  it("keeps its V8 young generation within WRITE_WORKER_LIMITS (left to V8 it grows past it under a writer's garbage)", async () => {
    const limit = WRITE_WORKER_LIMITS.maxYoungGenerationSizeMb * 2 ** 20;
    expect(await largestNewSpace()).toBeGreaterThan(limit);
    expect(await largestNewSpace(WRITE_WORKER_LIMITS)).toBeLessThanOrEqual(limit);
  });

  it('runs at a lower CPU priority than the main thread (Linux: its own thread, no other)', async () => {
    // Each thread's nice value, from /proc (field 19 of its stat; the name before it may hold spaces).
    const niceOfThreads = () =>
      readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));
    const before = niceOfThreads();
    expect(before.every((n) => n === before[0])).toBe(true);
    const db = createDB();
    const writer = workerWriter(db, {});
    await writer.ready;
    const during = niceOfThreads();
    // Set, not added: nice 10 (a test run under a higher nice keeps its own).
    if (before[0]! < WRITER_NICE) expect(during.filter((n) => n === WRITER_NICE)).toHaveLength(1);
    expect(readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[16]).toBe(String(before[0])); // the main thread's
    await writer.close();
  });

  it('writes pages on its own connection: the main connection reads meanwhile, sees them once committed, and holds no transaction', async () => {
    const db = createDB();
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now')").run(W);
    expect(workerCanWrite(db)).toBe(true);
    const writer = workerWriter(db, { maxRows: 1_000_000, maxMs: 600_000 });
    await writer.write(page(1));
    await writer.write(page(2));
    // Written in the worker's open batch: not visible here yet, and reading does not wait for it.
    expect(db.inTransaction).toBe(false);
    expect(countTransactions(db)).toBe(0);
    await writer.flush();
    expect(countTransactions(db)).toBe(200);
    expect(listRanges(db, W, 'eth')[0]).toMatchObject({ nextPage: 3, state: 'in_progress' });
    await writer.write(page(3));
    await writer.close();
    expect(countTransactions(db)).toBe(300);
    expect(listRanges(db, W, 'eth')[0]).toMatchObject({ nextPage: 4 });
  });

  it('after a failed page writes nothing more (a later resume point would skip it), and keeps the committed pages with their resume point', async () => {
    const db = createDB();
    const writer = workerWriter(db, { maxRows: 1_000_000, maxMs: 600_000 });
    await writer.write(page(1));
    await writer.flush();
    await writer.write(page(2));
    // A range state the schema refuses: the page fails whole (its rows too), and the batch it
    // was in (page 2, written but not committed) is rolled back with it, as in a crash.
    await expect(writer.write(page(3, 'bogus'))).rejects.toThrow(/writing to the cache failed: .*CHECK/);
    await expect(writer.write(page(4))).rejects.toThrow(/CHECK/);
    await expect(writer.flush()).rejects.toThrow(/CHECK/);
    await writer.close().catch(() => undefined);
    expect(countTransactions(db)).toBe(100);
    // The resume point committed with page 1 is where the next sync starts: page 2.
    expect(listRanges(db, W, 'eth')).toMatchObject([{ nextPage: 2 }]);
    const blocks = db.prepare('SELECT DISTINCT block FROM transactions').pluck().all();
    expect(blocks).toEqual([1]);
  });

  it("is not used where it cannot write: an in-memory cache, a read-only one, or inside the caller's transaction", async () => {
    const mem = openDatabase(':memory:');
    expect(workerCanWrite(mem)).toBe(false);
    mem.close();
    const db = createDB();
    const path = db.name;
    const ro = openDatabase(path, { readonly: true });
    expect(workerCanWrite(ro)).toBe(false);
    ro.close();
    db.exec('BEGIN');
    expect(workerCanWrite(db)).toBe(false);
    db.exec('ROLLBACK');
    // The in-thread writer does the same work on the caller's connection.
    const writer = inThreadWriter(db, { maxRows: 1_000_000, maxMs: 600_000 });
    await writer.write(page(1));
    expect(db.inTransaction).toBe(true);
    await writer.close();
    expect(countTransactions(db)).toBe(100);
  });

  it("makes way for the main connection's writes: it commits after its page and waits, instead of holding the lock for its whole batch", async () => {
    const db = createDB();
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now')").run(W);
    // A batch that would hold the lock for ten minutes: the main write (busy timeout 5 s) failed with "database is locked".
    const writer = workerWriter(db, { maxRows: 1_000_000, maxMs: 600_000 });
    await writer.write(page(1));
    expect(countTransactions(db)).toBe(0); // in the worker's open batch
    db.prepare("INSERT INTO settings (key, value) VALUES ('probe', '1')").run();
    // The worker committed its page to let the write through.
    expect(countTransactions(db)).toBe(100);
    await writer.write(page(2));
    // A transaction begun IMMEDIATE (as the snapshots' writes are) too.
    db.transaction(() => db.prepare("INSERT INTO settings (key, value) VALUES ('probe2', '2')").run()).immediate();
    expect(countTransactions(db)).toBe(200);
    await writer.write(page(3));
    await writer.close();
    expect(countTransactions(db)).toBe(300);
    expect(listRanges(db, W, 'eth')[0]).toMatchObject({ nextPage: 4 });
    expect(db.prepare("SELECT value FROM settings WHERE key = 'probe'").pluck().get()).toBe('1');
    expect(db.prepare("SELECT value FROM settings WHERE key = 'probe2'").pluck().get()).toBe('2');
  }, 20_000);

  // POSIX locks belong to the process: closing any descriptor of the file drops all of them,
  // the main connection's too, and another process (the CLI beside the app) could then take
  // the cache for its own and, closing, delete a WAL still in use (SQLite's "How To Corrupt", 2.2).
  it.runIf(existsSync('/proc/locks'))("opens no descriptor of the file beside SQLite's: the main connection keeps its lock on the cache", async () => {
    const db = createDB();
    const path = db.name;
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now')").run(W);
    const locksOnCache = () => {
      const inode = statSync(path).ino;
      return readFileSync('/proc/locks', 'utf8')
        .split('\n')
        .filter((l) => l.split(/\s+/).includes(String(process.pid)) && l.includes(`:${inode} `));
    };
    expect(locksOnCache().length).toBeGreaterThan(0);
    const writer = workerWriter(db, { maxRows: 1_000_000, maxMs: 600_000 });
    await writer.ready;
    await writer.write(page(1));
    await writer.close();
    expect(countTransactions(db)).toBe(100);
    expect(locksOnCache().length).toBeGreaterThan(0);
  });

  it('never makes a new cache in place of one deleted while the app runs: the worker does not start', async () => {
    const db = createDB();
    const path = db.name;
    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    const writer = workerWriter(db, { maxRows: 1_000_000, maxMs: 600_000 });
    await expect(writer.ready).rejects.toThrow(/unable to open|does not exist|SQLITE_CANTOPEN/i);
    // Closed once its thread has ended: closing answers at once (it waited for an answer forever).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await writer.close();
    expect(existsSync(path)).toBe(false);
  }, 10_000);

  it('runs bundled: out/main/store-writer.js (electron-vite build) opens the cache, writes and commits pages', async () => {
    const bundled = join(import.meta.dirname, '../../out/main/store-writer.js');
    expect(existsSync(bundled), 'run `npx electron-vite build` first').toBe(true);
    const db = createDB();
    const path = db.name;
    const worker = new Worker(bundled, { workerData: { path, batch: { maxRows: 1_000_000, maxMs: 600_000 }, mainWrites } });
    const answers: unknown[] = [];
    const next = () => new Promise((resolve) => worker.once('message', resolve));
    answers.push(await next());
    worker.postMessage({ kind: 'page', id: 1, page: page(1) });
    answers.push(await next());
    worker.postMessage({ kind: 'close', id: 2 });
    answers.push(await next());
    await new Promise((resolve) => worker.once('exit', resolve));
    expect(answers).toEqual([{ kind: 'ready' }, { kind: 'done', id: 1 }, { kind: 'done', id: 2 }]);
    expect(countTransactions(db)).toBe(100);
    expect(listRanges(db, W, 'eth')).toMatchObject([{ nextPage: 2 }]);
  });
});
