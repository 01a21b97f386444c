/**
 * Where a read's pages are written, as a small state machine:
 *
 *   here ──(the read looks long)──▶ starting ──(worker ready, at a commit boundary)──▶ worker
 *     ▲                                 │
 *     └──(the worker cannot start, or cannot write: a caller's transaction is open)──┘
 *
 * `here`: on this thread, each page written before the next is read (a short incremental read
 * never pays for starting a thread). `starting`: the worker's thread loads while pages are
 * still written here (awaiting it would stall the read). `worker`: the write worker takes the
 * pages (a whale's writes never hold up the main thread), two at most unacknowledged. A worker
 * that failed is never started again for this read. Each page's write is acknowledged in order.
 */
import type { WritableDB } from '../store/db.ts';
import { inThreadWriter, type PageWriter, workerCanWrite, workerWriter } from './store/page-writer.ts';
import type { PageWrite } from './store/page-writes.ts';
import type { WriteBatchOptions } from './store/write-batch.ts';

/** Rows read in a range (this sync) before its writes move to the write worker. */
export const WORKER_FROM_ROWS = 10_000;
/**
 * The worker's batches: short in time, since a write of the main connection (a snapshot, a
 * setting) waits for the worker's commit; large enough in rows to keep commits rare.
 */
export const WORKER_BATCH: WriteBatchOptions = { maxRows: 50_000, maxMs: 250 };

type State = { kind: 'here' } | { kind: 'starting'; worker: PageWriter; ready: boolean } | { kind: 'worker' };

export class RangeWriter {
  private state: State = { kind: 'here' };
  private writer: PageWriter;
  private readonly acks: Array<Promise<void>> = [];
  private workerFrom: number;
  private readonly workerBatch: WriteBatchOptions;
  /** Asked before this read writes (its own batch is a transaction too): a file cache, writable, with no transaction of the caller's open. */
  private readonly workerPossible: boolean;
  /** When the batch here began (it may be ended early for the hand-over). */
  private batchSince = performance.now();

  constructor(
    private readonly db: WritableDB,
    o: { batch?: WriteBatchOptions | undefined; workerFromRows?: number | undefined },
  ) {
    this.writer = inThreadWriter(db, o.batch);
    this.workerFrom = o.workerFromRows ?? WORKER_FROM_ROWS;
    this.workerBatch = { ...WORKER_BATCH, ...o.batch };
    this.workerPossible = workerCanWrite(db);
  }

  /**
   * Before a page that is not the read's last is written: the worker is started once the read
   * has `rows` rows (since this sync began it), and takes over once its thread is ready.
   */
  async beforePage(rows: number): Promise<void> {
    if (this.state.kind === 'here' && rows >= this.workerFrom && this.workerPossible) this.start();
    if (this.state.kind === 'starting' && this.state.ready) await this.handOver(this.state);
  }

  /** Writes a page; `written` runs once it is committed. Here each page is written before the next is read; the worker may hold two. */
  async write(page: PageWrite, written: () => void): Promise<void> {
    if (this.state.kind !== 'worker' && this.writer.idle) this.batchSince = performance.now();
    const ack = this.writer.write(page).then(written);
    ack.catch(() => undefined); // awaited in order by settle
    this.acks.push(ack);
    await this.settle(this.state.kind === 'worker' ? 2 : 0);
  }

  /** A write of the main connection (an anomaly, a restart) comes after every page posted, committed. */
  async beforeMainWrite(): Promise<void> {
    if (this.state.kind !== 'worker') return;
    await this.settle(0);
    await this.writer.flush();
  }

  /** Every page posted is acknowledged. */
  async drain(): Promise<void> {
    await this.settle(0);
  }

  /**
   * The read is over (whatever stopped it): the pages written are whole, with their resume
   * point; a worker still starting is closed unused. After a failure, the failure already on its
   * way out is the one reported.
   */
  async close(failed: boolean): Promise<void> {
    await Promise.allSettled(this.acks);
    if (this.state.kind === 'starting') await this.state.worker.close().catch(() => undefined);
    const closing = this.writer.close();
    if (failed) await closing.catch(() => undefined);
    else await closing;
  }

  private async settle(depth: number): Promise<void> {
    while (this.acks.length > depth) await this.acks.shift();
  }

  private start(): void {
    const worker = workerWriter(this.db, this.workerBatch);
    const s: State & { kind: 'starting' } = { kind: 'starting', worker, ready: false };
    this.state = s;
    worker.ready.then(
      () => (s.ready = true),
      () => {
        // A worker that cannot start (a packaging or loader problem) leaves the writes here.
        if (this.state === s) this.state = { kind: 'here' };
        this.workerFrom = Infinity;
        void worker.close().catch(() => undefined);
      },
    );
  }

  /**
   * At a commit boundary: the batch here is idle once its commit by time has run between pages,
   * or is ended now once it is as old as a worker's batch may be (the worker's maxMs), so the
   * hand-over does not wait for the batch's own, longer, commit by time. The batches stay whole.
   */
  private async handOver(s: State & { kind: 'starting' }): Promise<void> {
    if (!this.writer.idle && performance.now() - this.batchSince < (this.workerBatch.maxMs ?? Infinity)) return;
    await this.settle(0);
    await this.writer.close();
    // A transaction of the caller's is open (the worker would wait for it): the writes stay here.
    if (!workerCanWrite(this.db)) {
      this.state = { kind: 'here' };
      this.workerFrom = Infinity;
      await s.worker.close().catch(() => undefined);
      return;
    }
    this.writer = s.worker;
    this.state = { kind: 'worker' };
  }
}
