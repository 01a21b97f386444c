/**
 * The store's write worker (a worker thread): writes a sync's pages on a connection of its
 * own, so their inserts, commits and WAL checkpoints never hold up the main thread, which
 * keeps answering the timeline and the other views from its connection (WAL: readers never
 * wait for the writer). See page-writer.ts for the protocol and why.
 *
 * It runs from source under Node's type stripping (tests, CLI, web shell) and bundled as
 * out/main/store-writer.js (electron-vite, see electron.vite.config.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './db.ts';
import { type PageWrite, writePage } from './page-writes.ts';
import { transferDaysKeeper } from './transfer-days-keeper.ts';
import { WriteBatch, type WriteBatchOptions } from './write-batch.ts';

export type ToWorker = { kind: 'page'; id: number; page: PageWrite } | { kind: 'flush' | 'close'; id: number };
export type FromWorker = { kind: 'ready' } | { kind: 'done'; id: number } | { kind: 'failed'; id: number; message: string };

const port = parentPort!;
const { path, batch: options, mainWrites } = workerData as { path: string; batch: WriteBatchOptions; mainWrites?: SharedArrayBuffer };
// The main thread has the cache open: see OpenOptions.sibling.
const db = openDatabase(path, { sibling: true });
// Waiting for the write lock (another writer's batch) blocks only this thread: wait long.
db.pragma('busy_timeout = 60000');
// A page cache of 16 MiB, not the main connection's 64: the worker appends (newest-first
// indexes, see migration 4) and looks rows up by an 8-byte key, so it needs few pages at once,
// and the operating system caches the file anyway. Measured (bench/RESULTS.md): the syncing
// process's peak RSS 80–130 MiB lower, whale syncs no slower, into an empty or a 1M-row cache.
db.pragma('cache_size = -16384');
// This connection writes only pages: a failed page rolls its batch back, as a crash would
// (no savepoint per page, see WriteBatchOptions.exclusive).
// The daily transfer sums are kept with the rows written (transfer-days-keeper.ts).
// The main thread's writes are let through between pages (write-yield.ts).
const batch = new WriteBatch(db, { ...options, exclusive: true, ...(mainWrites && { yieldTo: new Int32Array(mainWrites) }) }, transferDaysKeeper(db));
// After a failed page nothing more is written: a later page's resume point would skip it.
let failure: string | null = null;
port.postMessage({ kind: 'ready' } satisfies FromWorker);

port.on('message', (m: ToWorker) => {
  if (m.kind === 'close') {
    // Also after a failure: what was committed stays; the connection is closed cleanly.
    let answer: FromWorker = { kind: 'done', id: m.id };
    try {
      if (!failure) batch.commit();
    } catch (err) {
      answer = { kind: 'failed', id: m.id, message: err instanceof Error ? err.message : String(err) };
    }
    db.close();
    port.postMessage(answer);
    port.close(); // nothing keeps the thread alive: it ends
    return;
  }
  try {
    if (failure) throw new Error(failure);
    if (m.kind === 'page') batch.write(m.page.rows?.length ?? 0, () => writePage(db, m.page));
    else batch.commit();
    port.postMessage({ kind: 'done', id: m.id } satisfies FromWorker);
  } catch (err) {
    // A failed page has rolled its batch back (pages and resume point to the last commit); a
    // failed commit leaves it open, to be rolled back when the connection closes.
    failure ??= err instanceof Error ? err.message : String(err);
    port.postMessage({ kind: 'failed', id: m.id, message: failure } satisfies FromWorker);
  }
});
