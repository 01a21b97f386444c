import { Worker } from 'node:worker_threads';
import type { WritableDB } from '../../store/db.ts';
import { keyOf } from '../../store/driver.ts';
import { type PageWrite, writePage } from './page-writes.ts';
import { transferDaysKeeper } from './transfer-days-keeper.ts';
import { WriteBatch, type WriteBatchOptions } from './write-batch.ts';
import { mainWrites } from '../../store/write-yield.ts';
import type { FromWorker, ToWorker } from './write-worker.ts';
import { workerEntry } from '../../store/worker-entry.ts';

/**
 * Where a sync's pages are written. Each page is written whole with its bookkeeping, in a
 * batch of pages (see WriteBatch); `write` resolves once the page is written (in the open
 * batch, not yet committed), `flush` once the batch is committed.
 */
export interface PageWriter {
  write(page: PageWrite): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
  /** Whether the batch holds nothing uncommitted (a moment to hand over to another writer). */
  readonly idle: boolean;
  /** Resolves once the writer can take pages; rejects if it could not start. */
  readonly ready: Promise<void>;
}

/** Writes on the caller's connection, on this thread: cheap to start, for small reads. */
export function inThreadWriter(db: WritableDB, options: WriteBatchOptions = {}): PageWriter {
  // The daily transfer sums are kept with the rows written (transfer-days-keeper.ts).
  const batch = new WriteBatch(db, options, transferDaysKeeper(db));
  return {
    write: async (page) => batch.write(page.rows?.length ?? 0, () => writePage(db, page)),
    flush: async () => batch.commit(),
    close: async () => batch.commit(),
    ready: Promise.resolve(),
    get idle() {
      return !batch.pending;
    },
  };
}

/**
 * The write worker's V8 young generation, capped at 8 MiB. What the worker allocates lives one
 * page: the page as posted (a structured clone), its rows' bindings and the page's key list,
 * all garbage once the page is written, so a small young generation costs only more, cheaper
 * scavenges. Left to V8, a whale sync grows it to its largest once the writer is fast enough,
 * which holds memory and buys no speed: with the cap the worker's heap and the syncing
 * process's peak RSS are lower and whale syncs no slower (bench/RESULTS.md, "Round 5: memory
 * of the syncing process"). The old generation is left to V8: a limit there would end the
 * worker (ERR_WORKER_OUT_OF_MEMORY) rather than slow it.
 */
export const WRITE_WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 } as const;

/** Whether a worker can write to this cache: a file, writable, with no transaction of the caller's open. */
export function workerCanWrite(db: WritableDB): boolean {
  return db.open && !db.memory && !db.readonly && !db.inTransaction && db.name !== '' && db.name !== ':memory:';
}

/**
 * Writes on a worker thread with its own connection to the same file (see write-worker.ts):
 * the main thread only posts pages, so timeline pages, positions and the overview are
 * answered while a large history is written. Pages are applied strictly in the order posted;
 * after a failed page nothing more is written (a later page's resume point would skip it),
 * and every later call rejects with that failure. A failed page is handled as a crash: the
 * worker's batch is rolled back to its last commit (see WriteBatchOptions.exclusive). A crash
 * loses what the worker had not committed, as with the in-thread writer: the committed resume
 * point matches the committed pages.
 *
 * A write of the main connection while the worker holds its batch (a snapshot, a setting)
 * makes the worker commit after its page and wait (write-yield.ts); without that it waited
 * for the batch's end, `maxMs` plus the commit.
 */
export function workerWriter(db: WritableDB, options: WriteBatchOptions = {}): PageWriter {
  const worker = new Worker(writeWorkerUrl(), {
    workerData: { path: db.name, key: keyOf(db)?.hex() ?? null, batch: options, mainWrites },
    resourceLimits: WRITE_WORKER_LIMITS,
  });
  let nextId = 0;
  let failure: Error | null = null;
  let pendingWrites = 0;
  const waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  // The worker holds the process open exactly while something waits on it (a page, a flush,
  // its close): an idle worker must not keep a finished CLI alive, and a busy one must, or a
  // process whose only work left is the worker's (a CLI sync after its last fetch) ends with
  // the pages unwritten and nothing said.
  const holdOpen = () => (waiting.size > 0 ? worker.ref() : worker.unref());
  holdOpen();
  const fail = (e: Error) => {
    failure ??= e;
    onReady?.reject(failure);
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
    holdOpen();
  };
  let onReady: { resolve: () => void; reject: (e: Error) => void } | undefined;
  const ready = new Promise<void>((resolve, reject) => (onReady = { resolve, reject }));
  ready.catch(() => undefined); // awaited by whoever asks
  worker.on('message', (m: FromWorker) => {
    if (m.kind === 'ready') return onReady?.resolve();
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    holdOpen();
    if (m.kind === 'done') w?.resolve();
    else {
      const e = new Error(`writing to the cache failed: ${m.message}`);
      w?.reject(e);
      fail(e);
    }
  });
  worker.on('error', (e) => fail(e));
  let exited = false;
  worker.on('exit', (code) => {
    exited = true;
    fail(new Error(`the cache's write worker stopped (exit code ${code})`));
  });
  const send = (m: { kind: 'page'; page: PageWrite } | { kind: 'flush' | 'close' }): Promise<void> => {
    // A worker that has ended answers nothing: closing it is done, anything else has failed.
    if (exited) return m.kind === 'close' ? Promise.resolve() : Promise.reject(failure!);
    if (failure && m.kind !== 'close') return Promise.reject(failure);
    const id = nextId++;
    return new Promise<void>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      holdOpen();
      worker.postMessage({ ...m, id } as ToWorker);
    });
  };
  let closed: Promise<void> | null = null;
  return {
    ready,
    write: (page) => {
      pendingWrites++;
      return send({ kind: 'page', page }).finally(() => pendingWrites--);
    },
    flush: () => send({ kind: 'flush' }),
    close: () =>
      (closed ??= (async () => {
        try {
          await send({ kind: 'close' });
        } finally {
          await new Promise<void>((resolve) => {
            if (worker.threadId === -1) resolve();
            else {
              // Its exit is waited for too, so it holds the process open until then.
              worker.ref();
              worker.once('exit', () => resolve());
              // A worker that never answers is ended: its uncommitted pages are lost, as in a crash.
              setTimeout(() => void worker.terminate(), 10_000).unref();
            }
          });
        }
      })()),
    get idle() {
      return pendingWrites === 0;
    },
  };
}

/**
 * The worker's entry: out/main/store-writer.js (an input of electron.vite.config.ts) when
 * bundled, the source file when running from source (tsx, tests), which Node runs with its
 * own type stripping.
 */
function writeWorkerUrl(): URL {
  return workerEntry(import.meta.url, 'write-worker.ts', 'store-writer.js');
}
