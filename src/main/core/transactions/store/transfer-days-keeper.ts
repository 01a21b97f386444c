/**
 * The daily transfer sums (transfer_days, see transactions/store/transfer-days.ts) kept by the page
 * writer as it inserts rows, so a sync does not read its rows back at the end to sum them
 * (for a whale, a read-back that held the main thread after the last page: bench/RESULTS.md,
 * "Whale: sums kept by the writer, no stall at the hand-over").
 *
 * The writer's batch (WriteBatch) tells the keeper of its connection when its transaction
 * begins, commits and rolls back; the store's upsert tells it of each page's (wallet, chain)
 * and each row it inserts, with the row's values as stored. The keeper adds those rows'
 * transfers to sums in memory (the one rule, addTransfers) and, just before the commit, adds
 * the sums to transfer_days and advances transfer_days_state in the same transaction, so a
 * rollback or a crash drops them with the rows.
 *
 * It does so only where that is provably exact; anywhere else it writes nothing and leaves the
 * pair's state as it was, and the refresh after the sync (the fallback) reads what is missing:
 * - a pair is kept from its first page in the transaction only if its sums are current then:
 *   its built_to_id is the largest id, or no row of the pair lies between the two (another
 *   writer's rows of other pairs may interleave), or the pair has no rows at all (it starts
 *   from zero). A built_to_id above the largest id means rows were deleted and their ids may
 *   be given again: not current (as in refreshStep);
 * - every row inserted on the connection during the transaction must be seen here, in order:
 *   ids must run on from the largest id at the start without a gap or a repeat, and the
 *   largest id at the commit must be the last one seen. Only the store's upsert inserts
 *   transactions (migration 006), so a gap means a write the keeper did not see, a repeat one
 *   it saw that was undone (a savepoint rolled back): then nothing of the transaction is kept;
 * - a change or deletion of one of the pair's rows drops its state (triggers, migration 005):
 *   a pair whose state is not, at the commit, what the keeper set at its first page gets
 *   nothing (the refresh rebuilds it from zero);
 * - a row whose transfers would not read back the same from their stored JSON (a number that
 *   JSON cannot hold, a member that is not plain data) stops the keeping of its pair;
 * - a page that failed in its savepoint (a shared connection) stops the keeping of the
 *   transaction's rows; a rollback drops everything held in memory.
 */
import type { WritableDB } from '../../store/db.ts';
import { prepare } from '../../store/sql.ts';
import { addTransfers, builtTo, type DaySum, markBuilt, maxTransactionId as maxId, writeSums } from './transfer-days.ts';
import type { BatchHooks } from './write-batch.ts';
import { addDealings, addDealingsOfRows, deleteDealings, writeDealings, type DealingSums } from './party-dealings.ts';

interface KeptPair {
  wallet: string;
  chain: string;
  /** Whether this pair's rows are being summed (false: left to the refresh). */
  keep: boolean;
  /** The built_to_id set at its first page: still so at the commit, or a trigger dropped it. */
  base: number;
  sums: Map<string, DaySum>;
  /** Its dealings with counterparties (party-dealings.ts), kept under the same state. */
  dealings: DealingSums;
  /** Rows whose dealings are added in SQL at the commit (values JavaScript would not read as SQLite does). */
  byId: number[];
}

/** How far back (in ids) a pair's state is checked for rows of its own before it is taken as current. */
const MAX_GAP_SCAN = 50_000;

export class TransferDaysKeeper implements BatchHooks {
  private active = false;
  /** The last id seen inserted (the largest id when the transaction began, at first). */
  private last = 0;
  /** A write the keeper cannot account for: nothing of this transaction is kept. */
  private broken = false;
  private readonly pairs = new Map<string, KeptPair>();
  private readonly db: WritableDB;

  constructor(db: WritableDB) {
    this.db = db;
  }

  /** The batch's transaction has begun (BEGIN IMMEDIATE: no other connection writes until it ends). */
  begin(): void {
    this.pairs.clear();
    this.broken = false;
    this.last = maxId(this.db);
    this.active = true;
  }

  /** A page of this (wallet, chain) is about to be written. */
  page(wallet: string, chain: string): void {
    if (!this.active || this.broken) return;
    const key = `${wallet}\u0000${chain}`;
    if (!this.pairs.has(key)) this.pairs.set(key, this.startPair(wallet, chain));
  }

  /** A row was inserted with these values as stored (details: the transfers as written to JSON; from and to as stored). */
  inserted(id: number, wallet: string, chain: string, time: number, status: unknown, details: unknown, from: unknown, to: unknown): void {
    if (!this.active || this.broken) return;
    if (id !== this.last + 1) {
      this.broken = true;
      return;
    }
    this.last = id;
    const pair = this.pairs.get(`${wallet}\u0000${chain}`);
    // A row of a pair whose page was not announced (an insert outside the page writer): not kept.
    if (!pair) {
      this.broken = true;
      return;
    }
    if (!pair.keep) return;
    // A status SQLite would store otherwise (NaN as NULL) or refuse is never summed here.
    if ((status !== null && !Number.isInteger(status)) || !Array.isArray(details) || !readsBackTheSame(details)) {
      pair.keep = false;
      pair.sums.clear();
      pair.dealings.clear();
      return;
    }
    addTransfers(pair.sums, id, wallet, chain, time, status as number | null, details);
    if (!addDealings(pair.dealings, wallet, chain, time, status, from, to, details)) pair.byId.push(id);
  }

  /** A page failed and was rolled back to its savepoint: what the keeper saw of it may be gone. */
  pageFailed(): void {
    if (this.active) this.broken = true;
  }

  /**
   * Just before the commit, in the transaction: adds the sums and advances the states of the
   * pairs kept, where still exact. Never throws: a failure leaves it to the refresh. The
   * keeper then goes on from here (if the COMMIT fails, the transaction stays open and goes on).
   */
  beforeCommit(): void {
    if (!this.active) return;
    try {
      if (!this.broken && this.db.inTransaction && maxId(this.db) === this.last && this.pairs.size) {
        this.db.transaction(() => {
          for (const p of this.pairs.values()) {
            if (!p.keep || builtTo(this.db, p.wallet, p.chain) !== p.base) continue;
            writeSums(this.db, p.sums);
            writeDealings(this.db, p.dealings);
            addDealingsOfRows(this.db, p.byId);
            markBuilt(this.db, p.wallet, p.chain, this.last);
          }
        })();
      }
    } catch {
      // Left to the refresh: the states not advanced here still say what is summed.
    }
    this.pairs.clear();
    this.broken = false;
  }

  /** The transaction has ended (committed or rolled back): what is held in memory is dropped. */
  end(): void {
    this.active = false;
    this.broken = false;
    this.pairs.clear();
  }

  private startPair(wallet: string, chain: string): KeptPair {
    const pair: KeptPair = { wallet, chain, keep: false, base: this.last, sums: new Map(), dealings: new Map(), byId: [] };
    if (maxId(this.db) !== this.last) {
      this.broken = true; // rows inserted that the keeper did not see
      return pair;
    }
    const built = builtTo(this.db, wallet, chain);
    if (built === this.last) pair.keep = true;
    else if (built !== undefined && built < this.last) {
      // Current if no row of the pair came since (only other pairs' rows): the ids in between are
      // walked by rowid (the unary + keeps SQLite off the wallet index, which would walk all its rows).
      if (this.last - built <= MAX_GAP_SCAN) {
        const own = prepare(this.db, 'SELECT 1 FROM transactions WHERE id > ? AND id <= ? AND +wallet = ? AND +chain = ? LIMIT 1').get(
          built,
          this.last,
          wallet,
          chain,
        );
        if (!own) {
          markBuilt(this.db, wallet, chain, this.last);
          pair.keep = true;
        }
      }
    } else if (!prepare(this.db, 'SELECT 1 FROM transactions WHERE wallet = ? AND chain = ? LIMIT 1').get(wallet, chain)) {
      // No rows (never summed, or a state above the largest id): start from zero.
      prepare(this.db, 'DELETE FROM transfer_days WHERE wallet = ? AND chain = ?').run(wallet, chain);
      deleteDealings(this.db, wallet, chain);
      markBuilt(this.db, wallet, chain, this.last);
      pair.keep = true;
    } else if (built !== undefined) {
      // Above the largest id: rows were deleted and their ids are given again (this page's
      // rows too), so the state no longer says which rows are summed. Dropped: the refresh
      // rebuilds the pair (it would take it as current once the ids caught up with it).
      prepare(this.db, 'DELETE FROM transfer_days_state WHERE wallet = ? AND chain = ?').run(wallet, chain);
    }
    return pair;
  }
}

const keepers = new WeakMap<WritableDB, TransferDaysKeeper>();

/** The keeper of this connection (one per connection: every insert on it must reach the same one). */
export function transferDaysKeeper(db: WritableDB): TransferDaysKeeper {
  let k = keepers.get(db);
  if (!k) keepers.set(db, (k = new TransferDaysKeeper(db)));
  return k;
}

/** The keeper of this connection, if a page writer made one (the store's upsert reports to it). */
export function keeperOf(db: WritableDB): TransferDaysKeeper | undefined {
  return keepers.get(db);
}

/**
 * Whether these transfers, written to JSON and parsed again (as the refresh reads them), give
 * the sums the same values: each member the sums read is missing, null, text, a boolean or a
 * finite number (JSON turns NaN and Infinity into null), in plain objects (JSON keeps only
 * their own members and would call a toJSON).
 */
function readsBackTheSame(transfers: readonly unknown[]): boolean {
  for (const t of transfers) {
    if (t === null || typeof t !== 'object') {
      if (typeof t === 'number' || typeof t === 'string' || typeof t === 'boolean' || t === null || t === undefined) continue;
      return false; // a function, symbol or bigint: JSON would drop or refuse it
    }
    const proto = Object.getPrototypeOf(t) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
    const rec = t as Record<string, unknown>;
    if (rec['toJSON'] !== undefined) return false;
    if (!plain(rec['token_cid']) || !plain(rec['symbol']) || !plain(rec['type']) || !plain(rec['qty'])) return false;
  }
  return true;
}

function plain(v: unknown): boolean {
  return v === undefined || v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}
