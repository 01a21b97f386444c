import type { WritableDB } from './handles.ts';

/**
 * The main connection's writes ask the write worker to make way.
 *
 * SQLite lets one connection write at a time. While the worker holds its batch (up to 250 ms
 * of pages, see WORKER_BATCH), a write on the main connection (a positions snapshot, a
 * setting) waited in SQLite's busy handler, which blocks the main thread: measured during a
 * whale sync, a typical write waited most of a batch, and a positions sync beside it crawled
 * (bench/RESULTS.md, "Round 5 (lead)"). Now the main thread raises a counter in memory shared
 * with the workers for as long as one of its writes runs; the worker, after the page it is
 * writing, commits its batch and does not begin the next until the counter is down, so the
 * write gets the lock at its busy handler's next try (bench/whale.ts measures it).
 */
const WANTS = new Int32Array(new SharedArrayBuffer(4));

/** The counter, handed to each write worker (workerData). */
export const mainWrites: SharedArrayBuffer = WANTS.buffer as SharedArrayBuffer;

/** Raises the counter while `write` runs. */
function announced<T>(write: () => T): T {
  Atomics.add(WANTS, 0, 1);
  // Wakes a worker idle between pages with its batch open (see watchMainWrites).
  Atomics.notify(WANTS, 0);
  try {
    return write();
  } finally {
    Atomics.sub(WANTS, 0, 1);
    Atomics.notify(WANTS, 0);
  }
}

/**
 * Makes every write of `db` announced: its statements that write (`run` of a statement that
 * is not a reader), `exec`, and its transactions for their whole length (a BEGIN IMMEDIATE,
 * as the snapshots' writes use, takes the lock at once: better-sqlite3 prepares it natively,
 * past `prepare`). Installed where the main connection is opened, before any statement is
 * prepared.
 */
export function announceWrites(db: WritableDB): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (!statement.reader) {
      const run = statement.run.bind(statement);
      statement.run = ((...params: unknown[]) => announced(() => run(...params))) as typeof statement.run;
    }
    return statement;
  }) as typeof db.prepare;
  const exec = db.exec.bind(db);
  db.exec = ((source: string) => announced(() => exec(source))) as typeof db.exec;
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const t = transaction(fn);
    const wrap =
      (f: (...args: unknown[]) => unknown) =>
      (...args: unknown[]) =>
        announced(() => f(...args));
    return Object.assign(wrap(t), { default: wrap(t.default), deferred: wrap(t.deferred), immediate: wrap(t.immediate), exclusive: wrap(t.exclusive) });
  }) as unknown as typeof db.transaction;
}

/** The worker's side: whether a write of the main thread is waiting. */
export function mainWantsToWrite(counter: Int32Array): boolean {
  return Atomics.load(counter, 0) > 0;
}

/**
 * The worker's side, before it begins a batch: waits while a write of the main thread is
 * under way, at most `maxMs` (a write that never ends must not stop the sync).
 */
export function waitForMainWrites(counter: Int32Array, maxMs = 1000): void {
  const until = performance.now() + maxMs;
  for (let n = Atomics.load(counter, 0); n > 0 && performance.now() < until; n = Atomics.load(counter, 0)) Atomics.wait(counter, 0, n, 20);
}

/**
 * The worker's side, while its batch is open and it waits for pages: calls `commit` once a
 * write of the main thread is announced (or at once if one is), at most `maxMs` from now.
 */
export function watchMainWrites(counter: Int32Array, maxMs: number, commit: () => void): void {
  const wait = Atomics.waitAsync(counter, 0, 0, maxMs);
  if (!wait.async) queueMicrotask(commit);
  else void wait.value.then((result) => result === 'ok' && commit());
}
