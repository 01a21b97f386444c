import type { WritableDB } from '../../store/db.ts';
import { mainWantsToWrite, waitForMainWrites, watchMainWrites } from '../../store/write-yield.ts';

export interface WriteBatchOptions {
  /** Commit once this many rows are written in the open transaction. */
  maxRows?: number;
  /** Commit at the latest this long after the transaction began, even if the writer waits. */
  maxMs?: number;
  /**
   * The connection writes nothing but these pages (the write worker's own): a page that
   * fails rolls the whole batch back, as a crash would, instead of each page running in a
   * savepoint of its own. A savepoint copies every database page the write touches to its
   * journal before changing it; a page of 1,000 random hashes touches ~1,000 of them, and
   * measured at 1M rows that copy was a large share of a row's write (bench/RESULTS.md,
   * "Round 4 (issue 16)"). On a shared connection (the main one) a rollback would also undo
   * others' writes made in the batch (a snapshot, a setting), so the savepoints stay there.
   */
  exclusive?: boolean;
  /**
   * The main thread's count of writes waiting (write-yield.ts), on the write worker's
   * connection: a batch is committed after the page during which one came, and the next is
   * not begun while one is under way.
   */
  yieldTo?: Int32Array;
}

/** What a batch tells of its transaction (the daily transfer sums kept with the rows, transfer-days-keeper.ts). */
export interface BatchHooks {
  /** The batch's own transaction has begun. */
  begin(): void;
  /** Just before its COMMIT, in the transaction. Must not throw. */
  beforeCommit(): void;
  /** The transaction has ended (committed or rolled back). */
  end(): void;
  /** A page failed and was rolled back to its savepoint (the transaction goes on). */
  pageFailed(): void;
}

/**
 * Groups a sync's page writes into larger transactions, which is what makes ingest fast:
 * every commit rewrites each index page it touched, so 20 pages in one commit write the
 * busy index pages once instead of 20 times.
 *
 * Each page is still written whole and at once (synchronously, in a savepoint), with its
 * bookkeeping (the range's resume point), so the database only ever holds whole pages and a
 * resume point that matches them. The transaction stays open between pages, across event-loop
 * turns, so reads on the connection (the timeline, the overview) are answered between pages
 * instead of waiting for a large commit; they see the pages written so far.
 *
 * A crash loses the uncommitted pages, at most `maxRows` rows or `maxMs` of writing (they are
 * the "pages in flight"): the resume point committed with the last batch is where the next
 * sync starts. Other writes on the same connection while a batch is open (a snapshot, a
 * setting) become savepoints in it and are committed with it, at most `maxMs` later. On an
 * `exclusive` connection a failed page is handled as a crash: the batch is rolled back to the
 * last commit, pages and resume point together.
 */
export class WriteBatch {
  private open = false;
  private rows = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly maxRows: number;
  private readonly maxMs: number;
  private readonly db: WritableDB;
  private readonly exclusive: boolean;
  private begunAt = 0;
  private readonly hooks: BatchHooks | undefined;
  private readonly yieldTo: Int32Array | undefined;

  constructor(db: WritableDB, options: WriteBatchOptions = {}, hooks?: BatchHooks) {
    this.db = db;
    this.hooks = hooks;
    this.maxRows = options.maxRows ?? 50_000;
    this.maxMs = options.maxMs ?? 1000;
    this.exclusive = options.exclusive ?? false;
    this.yieldTo = options.yieldTo;
  }

  /**
   * Writes `rows` rows with `write` (one page and its bookkeeping) in the open batch. If
   * `write` throws, none of this page is kept; the earlier pages are kept (in a savepoint per
   * page), or on an `exclusive` connection rolled back with it (see WriteBatchOptions).
   */
  write(rows: number, write: () => void): void {
    if (!this.open) this.begin();
    if (this.exclusive && this.open) {
      try {
        write();
      } catch (err) {
        this.rollback();
        throw err;
      }
    } else {
      try {
        this.db.transaction(write)();
      } catch (err) {
        this.hooks?.pageFailed();
        throw err;
      }
    }
    this.rows += rows;
    // By time here too, not only from the timer: pages that arrive back to back (a writer
    // that never yields to its event loop) still commit every maxMs.
    if (this.rows >= this.maxRows || performance.now() - this.begunAt >= this.maxMs || (this.yieldTo && mainWantsToWrite(this.yieldTo))) this.commit();
  }

  /** Whether the batch holds uncommitted pages. */
  get pending(): boolean {
    return this.open;
  }

  /** Commits what the batch holds (nothing to do when it holds nothing). */
  commit(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.open) return;
    // If COMMIT throws (the connection is busy streaming an export), the batch stays open.
    if (this.db.open && this.db.inTransaction) {
      this.hooks?.beforeCommit();
      this.db.exec('COMMIT');
    }
    this.hooks?.end();
    this.open = false;
    this.rows = 0;
  }

  /** Drops what the batch holds: the database is as at the last commit. */
  private rollback(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
    this.hooks?.end();
    this.open = false;
    this.rows = 0;
  }

  private begin(): void {
    // Someone else's transaction is open (a caller wrapping the sync in its own): write
    // inside it, and let it commit.
    if (this.db.inTransaction) return;
    if (this.yieldTo) waitForMainWrites(this.yieldTo);
    this.db.exec('BEGIN IMMEDIATE');
    this.hooks?.begin();
    this.open = true;
    this.begunAt = performance.now();
    this.schedule(this.maxMs);
    if (this.yieldTo) {
      // Between pages the worker waits for messages: a main write announced then ends the batch.
      const begun = this.begunAt;
      watchMainWrites(this.yieldTo, this.maxMs, () => {
        if (!this.open || this.begunAt !== begun) return; // that batch has ended already
        try {
          this.commit();
        } catch {
          this.schedule(50);
        }
      });
    }
  }

  /** The commit by time runs from a timer: it must never throw there, so a busy connection retries. */
  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      try {
        this.commit();
      } catch {
        this.schedule(50);
      }
    }, ms);
    this.timer.unref?.();
  }
}
