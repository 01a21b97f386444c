/**
 * The spam column of a transactions export (docs/spam.md, "What leaves spam out"): judged beside
 * the export in a worker thread when the export is large and the machine has a second core, else
 * in the export's own thread.
 *
 * Why a thread: judging a row (its shape's verdict found among tens of thousands, its transfers
 * parsed) costs about as much as all the rest of writing it, so a million-row export took twice
 * as long with the column as without (bench/RESULTS.md, "Spam in the transactions CSV"). In a
 * thread of its own the judging runs while the export writes.
 *
 * Why the same answer: a verdict depends on the whole cache (the wallet's dealings, its tokens,
 * the user's marks), so the worker must read the same snapshot as the export. Once the worker has
 * loaded and opened the file, the export takes the write lock on a side connection (BEGIN
 * IMMEDIATE: no writer can commit), makes its own first read, lets the worker make its first, and
 * lets the lock go: both snapshots are of one state. That hand-over is synchronous (Atomics.wait,
 * milliseconds): the export's thread runs nothing else while it holds the lock, so none of its own
 * writes can wait on it. Both then read the same rows in the same order; the worker says how many
 * it counts and which row ends each of its batches, and the export checks both against its own.
 * Rows that do not match are an error, never a silent cell.
 *
 * A worker that cannot start, cannot open the file or fails part way leaves the export to judge
 * the rest itself, on its own snapshot: the same cells, only slower. The export does not judge
 * beside a working worker: sharing the rows (the export judging a row the worker had not reached)
 * made both threads build a judge, for more memory and CPU and no gain in time (bench/RESULTS.md).
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  countExportTransactions,
  type ExportReader,
  type ExportTransactionRow,
  holdWritesOff,
  type ScopedTimelineFilter,
  takeSnapshot,
} from '../ledger/index.ts';
import { spamJudge } from '../spam/index.ts';
import { keyOf } from '../store/driver.ts';
import { workerEntry } from '../store/worker-entry.ts';
import type { ReadableDB } from '../store/handles.ts';
import { judgedRow, rowIdentity, spamCell } from './spam-cell.ts';
import { type FromSpamWorker, GATE_ABANDON, GATE_TAKE, GATE_TAKEN, type SpamWorkerData } from './spam-cells-protocol.ts';

/** The spam cells of an export's rows, asked for in the export's order. */
export interface SpamCells {
  /** Row `i`'s cell (rows asked for in order, each once); undefined while the worker has not judged it (then wait with `until`). */
  cell(i: number, r: ExportTransactionRow): string | undefined;
  /** Resolves once row `i` can be answered. */
  until(i: number): Promise<void>;
  /** The export's count of its rows (its judge's must be the same). */
  expect(rows: number): void;
  /** Whether a worker judged any of the rows. */
  readonly thread: boolean;
  close(): void;
}

export interface SpamCellsOptions {
  /** From how many rows the worker judges (below, the thread is not worth its start); Infinity: never. */
  workerFrom?: number;
}

/** Rows from which an export judges in a worker. */
const WORKER_FROM = 50_000;
/** Rows per batch the worker sends. */
const BATCH = 1_024;
/** How far the worker may run ahead of the export (its cells wait in memory until written). */
const AHEAD = 65_536;
/** How long the export waits for the worker to load before judging in its own thread. */
const LOADED_WITHIN_MS = 15_000;
/** How long the export, holding writers off, waits for the worker's first read (else it judges in its own thread). */
const TAKEN_WITHIN_MS = 2_000;
/**
 * The worker's young generation, MiB. Left to V8, a worker's grew to take ~120 MB more of the
 * export's peak memory than a cap does, at no gain in speed (bench/RESULTS.md).
 */
const YOUNG_MB = 16;
/** How long the export waits for a writer's commit to take the lock (else it judges in its own thread). */
const LOCK_WAIT_MS = 1_000;

/** The cells judged in the export's own thread, on its snapshot. */
function judgedHere(reader: ExportReader, filter: ScopedTimelineFilter): (r: ExportTransactionRow) => string {
  const judge = spamJudge(reader.db, { whole: true, ...(filter.wallets && { wallets: filter.wallets }) });
  return (r) => spamCell(judge, judgedRow(r));
}

/**
 * The spam cells of the export of `filter` read on `reader`, whose first read this makes: from a
 * worker when the export is large (about `WORKER_FROM` rows by `db`'s count), the machine has a
 * second core and `reader` is a connection of its own; else judged in the export's thread.
 */
export async function spamCells(db: ReadableDB, reader: ExportReader, filter: ScopedTimelineFilter, options: SpamCellsOptions = {}): Promise<SpamCells> {
  const here = (): SpamCells => {
    takeSnapshot(reader);
    const judged = judgedHere(reader, filter);
    return { cell: (_i, r) => judged(r), expect: () => undefined, until: () => Promise.resolve(), close: () => undefined, thread: false };
  };
  if (reader.db === db || availableParallelism() < 2 || countExportTransactions(db, filter) < (options.workerFrom ?? WORKER_FROM)) return here();
  let cells: WorkerCells;
  try {
    cells = new WorkerCells(reader, filter);
  } catch {
    return here(); // no thread to be had (its file missing from a damaged install, say)
  }
  if (!(await cells.loaded()) || !cells.handOver(db)) {
    cells.close();
    return here();
  }
  return cells;
}

class WorkerCells implements SpamCells {
  private readonly worker: Worker;
  private readonly progress = new SharedArrayBuffer(4);
  private readonly at = new Int32Array(this.progress);
  private readonly gate = new Int32Array(new SharedArrayBuffer(4));
  /** Rows before this the worker has judged. */
  private upTo = 0;
  thread = false;
  private readonly flagged = new Map<number, string>();
  /** Each batch's last row, to be checked against the export's row at that place. */
  private readonly checks: Array<{ at: number; id: string }> = [];
  /** The worker's count and the export's (the same snapshot counts the same). */
  private counted: number | null = null;
  private expected: number | null = null;
  private finished = false;
  private onLoaded: ((ok: boolean) => void) | null = null;
  private waiting: (() => void) | null = null;
  /** The export's own judge, once the worker has failed (for the rows it had not judged). */
  private here: ((r: ExportTransactionRow) => string) | null = null;

  constructor(
    private readonly reader: ExportReader,
    private readonly filter: ScopedTimelineFilter,
  ) {
    const data: SpamWorkerData = {
      path: reader.db.name,
      key: keyOf(reader.db)?.hex() ?? null,
      filter,
      batch: BATCH,
      ahead: AHEAD,
      progress: this.progress,
      gate: this.gate.buffer as SharedArrayBuffer,
    };
    const [entry, options] = spamWorkerEntry();
    this.worker = new Worker(entry, { ...options, workerData: data, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
    this.worker.on('message', (m: FromSpamWorker) => this.receive(m));
    this.worker.on('error', () => this.fail());
    this.worker.on('exit', () => this.fail());
  }

  /** Whether the worker loaded and opened the file (false after LOADED_WITHIN_MS). */
  async loaded(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const ok = await Promise.race([
      new Promise<boolean>((resolve) => (this.onLoaded = resolve)),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), LOADED_WITHIN_MS))),
    ]);
    clearTimeout(timer);
    this.onLoaded = null;
    return ok;
  }

  /**
   * The snapshot's hand-over, synchronous from the lock to its release: the export's first read and
   * the worker's, with writers held off between. False (and nothing of the worker used) when the
   * lock or the worker's read does not come in time.
   */
  handOver(db: ReadableDB): boolean {
    const held = holdWritesOff(db, LOCK_WAIT_MS);
    if (!held) return false;
    try {
      takeSnapshot(this.reader);
      Atomics.store(this.gate, 0, GATE_TAKE);
      Atomics.notify(this.gate, 0);
      Atomics.wait(this.gate, 0, GATE_TAKE, TAKEN_WITHIN_MS);
      // Late, it might read after the lock is gone: told to give up (close() ends it).
      return Atomics.compareExchange(this.gate, 0, GATE_TAKE, GATE_ABANDON) === GATE_TAKEN;
    } finally {
      held.release();
    }
  }

  expect(rows: number): void {
    this.expected = rows;
  }

  private receive(m: FromSpamWorker): void {
    if (m.kind === 'loaded') return this.onLoaded?.(true);
    if (m.kind === 'ready') {
      this.counted = m.rows;
      return;
    }
    if (m.kind === 'failed') return this.fail();
    if (this.finished) return; // closed: nothing more of it is used
    for (const [i, cell] of m.cells) this.flagged.set(i, cell);
    if (m.last !== null) this.checks.push({ at: m.upTo - 1, id: m.last });
    this.upTo = m.upTo;
    this.wake();
  }

  /** The worker failed or ended: the export judges the rows it had not judged. */
  private fail(): void {
    this.onLoaded?.(false);
    this.finished = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }

  cell(i: number, r: ExportTransactionRow): string | undefined {
    if (i >= this.upTo) {
      if (!this.finished) return undefined;
      return (this.here ??= judgedHere(this.reader, this.filter))(r);
    }
    // Its 'ready' came before any batch: one snapshot counts the same rows. Counts that differ
    // (never seen: the hand-over holds writers off) leave every row to the export, none used yet.
    if (this.counted !== this.expected) {
      this.close();
      this.upTo = 0;
      return this.cell(i, r);
    }
    if (i % BATCH === 0) {
      Atomics.store(this.at, 0, i);
      Atomics.notify(this.at, 0);
    }
    const check = this.checks[0];
    if (check?.at === i) {
      this.checks.shift();
      if (check.id !== rowIdentity(r[1], r[2], r[3]))
        throw new Error(`The export and its spam judge read different transactions at row ${i + 1}: the export stopped.`);
    }
    this.thread = true;
    const cell = this.flagged.get(i);
    if (cell === undefined) return '';
    this.flagged.delete(i);
    return cell;
  }

  until(i: number): Promise<void> {
    if (i < this.upTo || this.finished) return Promise.resolve();
    return new Promise((resolve) => (this.waiting = resolve));
  }

  close(): void {
    this.onLoaded?.(false);
    this.finished = true;
    Atomics.store(this.gate, 0, GATE_ABANDON);
    Atomics.notify(this.gate, 0);
    void this.worker.terminate();
  }
}

/**
 * The worker's entry, from this module's own URL (`here`): the bundled file beside the main bundle
 * (out/main/csv-spam.js; this module may be bundled into out/main/ or a chunk under it); from
 * source, the TypeScript file under tsx's loader (the judge's modules use TypeScript that Node's own
 * type stripping refuses), found from this file so a CLI started from any folder finds it.
 */
export function spamWorkerEntry(here: string = import.meta.url): [URL, { execArgv?: string[] }] {
  if (here.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
    return [new URL('./spam-cells-worker.ts', here), { execArgv: ['--import', tsx] }];
  }
  return [workerEntry(here, 'spam-cells-worker.ts', 'csv-spam.js'), {}];
}
