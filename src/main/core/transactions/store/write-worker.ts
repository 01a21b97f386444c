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
import { openWriterConnection } from './writer-connection.ts';
import { CacheKey } from '../../store/driver.ts';
import { type PageWrite, writePage } from './page-writes.ts';
import { lowerThisThreadPriority } from './thread-priority.ts';
import { transferDaysKeeper } from './transfer-days-keeper.ts';
import { WriteBatch, type WriteBatchOptions } from './write-batch.ts';

export type ToWorker = { kind: 'page'; id: number; page: PageWrite } | { kind: 'flush' | 'close'; id: number };
export type FromWorker = { kind: 'ready' } | { kind: 'done'; id: number } | { kind: 'failed'; id: number; message: string };

const port = parentPort!;
// An encrypted cache's key comes as hex in workerData (never in a message or a log line).
const { path, key, batch: options, mainWrites } = workerData as { path: string; key: string | null; batch: WriteBatchOptions; mainWrites?: SharedArrayBuffer };
const db = openWriterConnection(path, key ? CacheKey.fromHex(key) : null);
// The main thread answers the views: it gets the CPU first (thread-priority.ts).
lowerThisThreadPriority();
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
