import { type ServiceClient, type LogsBounds, conventionsReport, formatWait, learningState, loadConventions, ensureConventions } from '../service/index.ts';
import { RATE_LIMITED_WAIT } from '../../../shared/progress-text.ts';
import { assertCacheInPlace, type WritableDB } from '../store/db.ts';
import {
  getLogSet,
  probeLogs,
  readAndStoreLogs,
  forgetAllRanges,
  recentTransactions,
  type WriteBatchOptions,
  syncTransactions,
  type TxnSyncResult,
  refreshTransferDaysInSteps,
} from '../transactions/index.ts';
import type { LogSet, Wallet, JobInfo, JobKind, JobTitle } from '../../../shared/model.ts';
import type { Completeness, ConventionsReport } from '../../../shared/conventions.ts';
import type { BackfillRequest as ContractBackfill } from '../../../shared/contract.ts';
import { checkDate, refusal } from '../store/validation.ts';
import { getWallet, listWallets } from '../store/wallets.ts';
import { datesBetween, plannedUnits, qualityCompleteness, type QualityTally, runUnits, syncPositionsUnit } from '../positions/index.ts';
import { type Job, type JobContext, JobQueue } from '../jobs/index.ts';
import { SyncEstimator } from './estimate.ts';

export interface SyncEngineOptions {
  db: WritableDB;
  client: ServiceClient;
  /** Jobs running at once (default 2); requests in flight are capped by the client. */
  jobConcurrency?: number;
  /** Pages or position units requested at once within a job (default: twice the client's limit). */
  inFlight?: number;
  /** Upper bound on the transactions page size; default: the largest the service serves. */
  transactionPageSize?: number;
  /** How a transaction sync groups pages into transactions (default: see WriteBatch). */
  transactionBatch?: WriteBatchOptions;
  /** Rows read in a range before its writes move to the write worker (see syncTransactions). */
  transactionWorkerFromRows?: number;
  /**
   * Whether every transaction sync re-reads the recent window and reconciles it (default true;
   * see transactions/recent.ts). Off, a sync reads only what is not yet complete: tests of the range
   * bookkeeping alone.
   */
  recheckRecent?: boolean;
  /** Reads of one page seam or second whose order moves between requests, at most (default: transactions/recent.ts's bound). */
  seamReads?: number;
  /** Unix seconds where a first transaction sync starts (default 0: all history). */
  historyStart?: number;
  /** Bounds of one transaction's logs read (default LOGS_BOUNDS, see service/paging.ts). */
  logsBounds?: Partial<LogsBounds>;
  now?: () => number;
}

/** `sync.backfill`'s request; the engine may also be given the chains to fill (default: the wallet's). */
export type BackfillRequest = ContractBackfill & { chains?: readonly string[] };

export interface WalletSyncRequest {
  /** One wallet, or every watched wallet. */
  wallet?: string;
  /** A date (YYYY-MM-DD), or the latest snapshot when omitted. */
  date?: string;
  positions?: boolean;
  transactions?: boolean;
}

/** Complete only when every chain's history is proved complete; otherwise why, and what to do. */
export function transactionsCompleteness(results: readonly TxnSyncResult[]): Completeness {
  const reasons = results.flatMap((r) =>
    r.complete ? [] : r.reasons.length ? r.reasons.map((why) => `${r.chain}: ${why}`) : [`${r.chain}: not proved complete`],
  );
  if (!reasons.length) return { state: 'complete', reasons: [], action: null };
  return {
    state: 'incomplete',
    reasons,
    action: 'Sync again later (the service may still be indexing). If it stays incomplete, check the service (Settings › Service, or folioscope doctor).',
  };
}

/**
 * The sync engine: turns requests into jobs on one queue and writes what they fetch to
 * the cache. Every unit of work is written in one transaction, so a failed or cancelled
 * job leaves the cache as it was before that unit.
 */
export class SyncEngine {
  readonly queue: JobQueue;
  private readonly logsInFlight = new Map<string, Promise<LogSet>>();

  constructor(private readonly o: SyncEngineOptions) {
    this.queue = new JobQueue(o.jobConcurrency ?? 2);
  }
  /**
   * A job of the engine's queue that writes to the cache: it starts only if the cache's file
   * is still where it was opened (see assertCacheInPlace); a job queued before a move fails
   * when it comes to run, having written nothing.
   */
  private enqueue<T>(
    kind: JobKind,
    label: string,
    run: (ctx: JobContext) => Promise<T>,
    wallet: string | null,
    options: { key?: string; joinFinished?: boolean; title?: JobTitle } = {},
  ): Job<T> {
    const checked = async (ctx: JobContext): Promise<T> => {
      assertCacheInPlace(this.o.db);
      // While the service refuses every request, nothing progresses: the job says it waits, and how long.
      const off = this.o.client.limiter.onPause((waitMs) => ctx.progress({ phase: `${RATE_LIMITED_WAIT} ${formatWait(waitMs)} before trying again` }));
      try {
        return await run(ctx);
      } finally {
        off();
      }
    };
    return this.queue.enqueue(kind, label, checked, wallet, options);
  }

  /**
   * Work requested at once within a job: twice the client's request limit, so a request
   * is always queued for each slot that frees (the limiter still caps what is sent).
   */
  private get inFlight(): number {
    return this.o.inFlight ?? 2 * this.o.client.limiter.limit;
  }

  /**
   * What a job is doing, and, once the service has refused requests for their rate, that the
   * work goes at the pace it allows (the time left shown is then at that pace).
   */
  private phase(what: string): string {
    const { rate, holdUntil } = this.o.client.limiter.state;
    if (holdUntil !== null) return `${what}; waiting for the service's rate limit (${Math.ceil((holdUntil - Date.now()) / 1000)} s)`;
    return rate === null ? what : `${what}; paced to the service's rate limit (${rate < 1 ? rate.toFixed(1) : Math.round(rate)} requests/s)`;
  }

  /**
   * Seconds left for `units` of work of `requestsEach` requests at the pace the service allows,
   * once it has shown one (null before: the time left is not known from the rate alone).
   */
  private pacedEta(units: number, requestsEach: number): number | null {
    const { rate } = this.o.client.limiter.state;
    return rate === null || rate <= 0 ? null : Math.ceil((units * requestsEach) / rate);
  }

  private nowSeconds(): number {
    return Math.floor((this.o.now?.() ?? Date.now()) / 1000);
  }

  private wallet(address: string): Wallet {
    const w = getWallet(this.o.db, address);
    if (!w) throw refusal('wallet', 'sync.notWatched', { address });
    return w;
  }

  /** The three views of a wallet on its chains (or some) at a date, or the latest. */
  syncPositions(address: string, options: { date?: string; chains?: string[] } = {}): Job<string[]> {
    const w = this.wallet(address);
    if (options.date) checkDate('date', options.date);
    const chains = options.chains ?? w.chains;
    const label = `Positions of ${w.label || w.address} ${options.date ?? '(latest)'}`;
    return this.enqueue(
      'positions',
      label,
      async (ctx) => {
        ctx.progress({ done: 0, total: chains.length, phase: 'fetching positions' });
        const asOf: string[] = [];
        let done = 0;
        const tally: QualityTally = { unreadable: 0, otherDay: 0 };
        await Promise.all(
          chains.map(async (chain) => {
            asOf.push(
              await syncPositionsUnit(this.o.db, this.o.client, { wallet: w.address, chain, ...(options.date && { date: options.date }) }, ctx.signal, tally),
            );
            ctx.progress({ done: ++done, phase: this.phase('fetching positions') });
          }),
        );
        const quality = qualityCompleteness(tally);
        if (quality) ctx.judge(quality);
        return [...new Set(asOf)];
      },
      w.address,
      // A dated snapshot asked again a moment after it was fetched is that fetch (a burst of
      // clicks); the latest snapshot and transactions are asked again, as the service moves on.
      {
        key: `positions|${w.address}|${options.date ?? 'latest'}|${chains.join(',')}`,
        joinFinished: options.date !== undefined,
        title: { kind: 'positions', name: w.label || w.address, date: options.date ?? null },
      },
    );
  }

  /** Fills missing dates of a range at a step; dates already cached are skipped unless refresh. */
  backfill(req: BackfillRequest): Job<{ fetched: number; skipped: number }> {
    const w = this.wallet(req.wallet);
    checkDate('from', req.from);
    checkDate('to', req.to);
    if (req.from > req.to) throw refusal('to', 'range.endBeforeStart', {});
    const dates = datesBetween(req.from, req.to, req.every);
    if (dates.length > 3660) throw refusal('from', 'range.tooMany', { dates: dates.length });
    const chains = req.chains ?? w.chains;
    return this.enqueue(
      'backfill',
      `History of ${w.label || w.address}, ${req.from} to ${req.to} by ${req.every}`,
      async (ctx) => {
        const units = plannedUnits(this.o.db, w.address, chains, dates, req.refresh ?? false);
        const skipped = dates.length * chains.length - units.length;
        ctx.progress({ done: 0, total: units.length, phase: 'fetching snapshots' });
        const tally: QualityTally = { unreadable: 0, otherDay: 0 };
        await runUnits(
          this.o.db,
          this.o.client,
          units,
          this.inFlight,
          ctx.signal,
          (done) => ctx.progress({ done, phase: this.phase('fetching snapshots'), etaSeconds: this.pacedEta(units.length - done, 3) }),
          tally,
        );
        const quality = qualityCompleteness(tally);
        if (quality) ctx.judge(quality);
        return { fetched: units.length, skipped };
      },
      w.address,
      {
        key: `backfill|${w.address}|${req.from}|${req.to}|${req.every}|${req.refresh ? 'refresh' : ''}|${chains.join(',')}`,
        title: { kind: 'history', name: w.label || w.address, from: req.from, to: req.to, every: req.every },
      },
    );
  }

  /** Incremental transactions of a wallet on its chains. */
  syncTransactions(address: string, options: { chains?: string[] } = {}): Job<TxnSyncResult[]> {
    const w = this.wallet(address);
    const chains = options.chains ?? w.chains;
    return this.enqueue(
      'transactions',
      `Transactions of ${w.label || w.address}`,
      async (ctx) => {
        const results: TxnSyncResult[] = [];
        let rows = 0;
        let pages = 0;
        for (const chain of chains) {
          ctx.progress({ phase: `reading ${chain}`, total: null, rate: null, etaSeconds: null });
          const before = { rows, pages };
          // Per chain: each chain's range is read on its own, so time left is this chain's.
          const estimator = new SyncEstimator();
          results.push(
            await syncTransactions({
              db: this.o.db,
              client: this.o.client,
              wallet: w.address,
              chain,
              now: this.nowSeconds(),
              historyStart: this.o.historyStart ?? 0,
              ...(this.o.transactionPageSize !== undefined && { pageSize: this.o.transactionPageSize }),
              pagesInFlight: this.inFlight,
              ...(this.o.transactionBatch && { batch: this.o.transactionBatch }),
              ...(this.o.transactionWorkerFromRows !== undefined && { workerFromRows: this.o.transactionWorkerFromRows }),
              ...(this.o.recheckRecent === false && { recheckRecent: false }),
              ...(this.o.seamReads !== undefined && { seamReads: this.o.seamReads }),
              signal: ctx.signal,
              onPage: (p) => {
                rows = before.rows + p.rowsRead;
                pages = before.pages + p.pagesRead;
                ctx.progress({
                  done: rows,
                  rows,
                  pages,
                  phase: this.phase(`reading ${chain}`),
                  ...estimator.update(p.rowsRead, p.pagesRead, p.range, p.oldestTime),
                });
              },
            }),
          );
        }
        // The reconciliation's daily transfer sums take the new rows now, once per sync, so
        // a first reconciliation finds them made (transactions/store/transfer-days.ts).
        await refreshTransferDaysInSteps(
          this.o.db,
          chains.map((chain) => ({ wallet: w.address, chain })),
          ctx.signal,
        );
        ctx.judge(transactionsCompleteness(results));
        // What it changed in the history already cached, said with the job (a sync that restates
        // a closed month's rows is not "ok (0)" and nothing more).
        const restated = { late: 0, changed: 0, removed: 0 };
        for (const r of results) {
          restated.late += r.recent?.late ?? 0;
          restated.changed += r.recent?.changed ?? 0;
          restated.removed += r.recent?.removed ?? 0;
        }
        // Said only when something was (a progress event of its own, counting no page).
        if (restated.late + restated.changed + restated.removed > 0) ctx.progress({ restated });
        return results;
      },
      w.address,
      { key: `transactions|${w.address}|${chains.join(',')}`, title: { kind: 'transactions', name: w.label || w.address } },
    );
  }

  /** Positions at a date and transactions, for one wallet or all of them. */
  syncAll(req: WalletSyncRequest = {}): Array<Job<unknown>> {
    const wallets = req.wallet ? [this.wallet(req.wallet)] : listWallets(this.o.db);
    const jobs: Array<Job<unknown>> = [];
    for (const w of wallets) {
      if (req.positions !== false) jobs.push(this.syncPositions(w.address, req.date ? { date: req.date } : {}));
      if (req.transactions !== false) jobs.push(this.syncTransactions(w.address));
    }
    return jobs;
  }

  /** Logs of one transaction: from the cache, or all pages from the service, then cached. */
  async logs(chain: string, txnHash: string, options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<LogSet> {
    if (!/^0x[0-9a-fA-F]{64}$/.test(txnHash)) throw refusal('txnHash', 'txn.badHash', {});
    const cached = getLogSet(this.o.db, chain, txnHash);
    // A cached read that could not be proved whole is read again.
    if (cached && cached.complete && !options.refresh) return cached;
    assertCacheInPlace(this.o.db);
    const key = `${chain}:${txnHash.toLowerCase()}`;
    let pending = this.logsInFlight.get(key);
    if (!pending) {
      pending = (async () => {
        return readAndStoreLogs(this.o.db, this.o.client, chain, txnHash, options.signal, this.o.logsBounds);
      })().finally(() => this.logsInFlight.delete(key));
      this.logsInFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * Learns the service's conventions again now, with the watched wallets' chains in turn until
   * one shows history (a bounded number: at most 5 tries), and reports what is known.
   */
  async checkService(signal?: AbortSignal): Promise<ConventionsReport> {
    const tries = listWallets(this.o.db)
      .flatMap((w) => w.chains.map((chain) => ({ wallet: w.address, chain })))
      .slice(0, 5);
    for (const t of tries) {
      await ensureConventions(this.o.db, this.o.client, {
        ...t,
        nowMs: this.o.now?.() ?? Date.now(),
        forgetRanges: forgetAllRanges,
        force: true,
        ...(signal && { signal }),
      });
      if (!learningState(this.o.db).relearn) break;
    }
    // Logs: probe a few cached transactions (at most three) until they tell what `total` counts
    // and whether log_index restarts per page.
    for (const t of recentTransactions(this.o.db, 3)) {
      await probeLogs(this.o.db, this.o.client, t.chain, t.txnHash, signal);
      const c = loadConventions(this.o.db);
      if (c.logsTotal !== 'unknown' && c.logIndex !== 'unknown') break;
    }
    return conventionsReport(this.o.db);
  }

  cancel(jobId: string): boolean {
    return this.queue.cancel(jobId);
  }

  jobs(): JobInfo[] {
    return this.queue.list();
  }

  onProgress(listener: (info: JobInfo) => void): () => void {
    return this.queue.on('progress', listener);
  }
}
