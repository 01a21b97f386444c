import type { WritableDB } from '../../store/db.ts';
import { prepare } from '../../store/sql.ts';

/**
 * Which of a page's hashes may already be cached for its (wallet, chain): a Bloom filter of
 * the pair's hashes, kept in memory by the write worker's connection, so a page of new
 * transactions is not looked up at all. The lookup (FIND_PAGE, hash-levels.ts) probes both
 * key levels for each hash, and at 1M cached rows the large level no longer fits in the
 * page cache: the lookup was a large share of a row's write in the ingest benchmark, spent to
 * learn that a new row is new (bench/RESULTS.md, "Round 6 (issue 16)").
 *
 * A filter answers "not cached" only when that is certain; anything else is looked up as
 * before. It is certain when:
 * - the hash is plain printable ASCII (what every chain's hashes are), so the text read back
 *   from SQLite to build the filter is the very string the page carries (storedText);
 * - the filter holds every hash of the pair's rows: it was built from the pair's rows in a
 *   transaction, and since then every row of the pair inserted was inserted through it. The
 *   proof is the pair's write stamp (migration 11): every insert of a pair's rows renews it
 *   in the inserting transaction (upsertTransactions), and the filter remembers the stamp of
 *   its own last write (or, before one, the stamp it was built under: none for a pair cached
 *   before migration 11 and not written since). The same stamp now means no other connection
 *   inserted rows of the pair since, and that the filter's last write was not rolled back (a
 *   rollback restores the stamp before it, never equal to a fresh random one). Filters are
 *   found by the exact pair (JSON of wallet and chain), never by a text two pairs could share.
 *   Deleted rows only make the filter answer "maybe" more often.
 * - it is asked in the transaction that writes the page. The write worker's batch holds the
 *   write lock (BEGIN IMMEDIATE), so nothing can insert between the answer and the write; in
 *   a deferred transaction, a write after another connection's commit fails (SQLITE_BUSY_SNAPSHOT)
 *   rather than write on what the answer saw.
 *
 * A filter is built once per pair and connection, and only when cheap and worth it:
 * - a wallet with more than BUILD_LIMIT cached rows (all chains) when the filter would be
 *   built is looked up as before: building would cost more than a short read saves;
 * - once another connection (or a rolled-back write) has changed the pair, the pair is looked
 *   up as before on this connection: two writers taking turns would otherwise rebuild it at
 *   every page. The write worker is one range's only writer (its connection lives for that read);
 * - at most MAX_PAIRS filters per connection (2 MiB each), the oldest dropped first (to be
 *   built again if needed).
 * A filter keeps answering past 1M hashes, with more false "maybe"s (~7 % at 3M hashes),
 * which are looked up.
 */

/** Bits of one pair's filter: 2 MiB, ~0.5 % false "maybe" at 1M hashes (3 bits a hash). */
const BITS = 2 ** 24;
const MASK = BITS - 1;
/** Rows of a wallet read to build a filter of one of its pairs, at most: past it, building costs more than it saves. */
export const BUILD_LIMIT = 250_000;
/** Filters kept by one connection. */
export const MAX_PAIRS = 4;

/** Hashes the filter answers for: printable ASCII, which SQLite returns exactly as written. */
const PLAIN = /^[\x21-\x7e]+$/;

export class PairFilter {
  private readonly bits = new Int32Array(BITS / 32);
  /** The pair's write stamp after the filter's last build or write (null: the pair had none). */
  stamp: number | null;
  /** Hashes answered "not cached" (not looked up), and all asked: for tests and diagnostics. */
  readonly counts = { asked: 0, skipped: 0 };

  constructor(stamp: number | null) {
    this.stamp = stamp;
  }

  /** False only if no row of the pair has this hash. */
  mayHold(hash: string): boolean {
    this.counts.asked++;
    if (!PLAIN.test(hash)) return true;
    const [a, b] = mix(hash);
    for (let i = 0; i < 3; i++) {
      const bit = (a + Math.imul(i, b)) & MASK;
      if ((this.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) {
        this.counts.skipped++;
        return false;
      }
    }
    return true;
  }

  add(hash: string): void {
    const [a, b] = mix(hash);
    for (let i = 0; i < 3; i++) {
      const bit = (a + Math.imul(i, b)) & MASK;
      this.bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }
}

/** Two 32-bit hashes of a string (FNV-1a and a multiply-xorshift), the second odd. */
function mix(s: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  return [a >>> 0, (b | 1) >>> 0];
}

export interface FilterOptions {
  /** Rows of a wallet read to build a filter, at most (BUILD_LIMIT). */
  buildLimit?: number;
}

const STAMP_OF = 'SELECT stamp FROM transaction_write_stamps WHERE wallet = ? AND chain = ?';
// The wallet's rows by its index, which holds the chain: a row of another chain costs an
// index entry (its hash, in the table, is read for the pair's rows only); null for those.
const WALLET_HASHES = 'SELECT CASE WHEN chain = @chain THEN txn_hash END FROM transactions WHERE wallet = @wallet LIMIT @limit';

export class NewHashFilter {
  private readonly db: WritableDB;
  /** By pair: its filter, or why it has none (and will not on this connection). */
  private readonly pairs = new Map<string, PairFilter | 'too large' | 'shared'>();

  private readonly buildLimit: number;

  constructor(db: WritableDB, options: FilterOptions = {}) {
    this.db = db;
    this.buildLimit = options.buildLimit ?? BUILD_LIMIT;
  }

  /**
   * The pair's filter, exact as of now, for a page about to be written in the open
   * transaction; null when there is none to trust (no transaction, a wallet too large, a pair
   * another writer changed).
   */
  forPage(wallet: string, chain: string): PairFilter | null {
    if (!this.db.inTransaction) return null;
    const key = JSON.stringify([wallet, chain]);
    const known = this.pairs.get(key);
    if (known === 'too large' || known === 'shared') return null;
    const stamp = (prepare(this.db, STAMP_OF, 'pluck').get(wallet, chain) as number | undefined) ?? null;
    if (known) {
      if (known.stamp === stamp) return known;
      // Another connection (or a rolled-back write of this one) changed the pair: no more filter.
      this.pairs.set(key, 'shared');
      return null;
    }
    const filter = new PairFilter(stamp);
    let n = 0;
    for (const hash of prepare(this.db, WALLET_HASHES, 'pluck').iterate({ wallet, chain, limit: this.buildLimit + 1 }) as IterableIterator<string | null>) {
      if (++n > this.buildLimit) {
        this.remember(key, 'too large');
        return null;
      }
      if (hash !== null) filter.add(hash);
    }
    this.remember(key, filter);
    return filter;
  }

  private remember(key: string, value: PairFilter | 'too large'): void {
    if (this.pairs.size >= MAX_PAIRS) this.pairs.delete(this.pairs.keys().next().value!);
    this.pairs.set(key, value);
  }
}

const filters = new WeakMap<WritableDB, NewHashFilter>();

/** Gives this connection filters of new hashes (the write worker's: it writes long reads of one pair), new ones if it had some. */
export function enableNewHashFilter(db: WritableDB, options?: FilterOptions): void {
  filters.set(db, new NewHashFilter(db, options));
}

export function newHashFilterOf(db: WritableDB): NewHashFilter | undefined {
  return filters.get(db);
}

const STAMP = `INSERT INTO transaction_write_stamps (wallet, chain, stamp) VALUES (?, ?, random() >> 11)
  ON CONFLICT (wallet, chain) DO UPDATE SET stamp = excluded.stamp RETURNING stamp`;

/**
 * Renews the pair's write stamp, in the caller's transaction, before its rows are inserted:
 * every connection's insert of a pair's rows goes through here (upsertTransactions).
 * Returns the new stamp. A 53-bit random number, exact as a JavaScript number.
 */
export function stampPair(db: WritableDB, wallet: string, chain: string): number {
  return prepare(db, STAMP, 'pluck').get(wallet, chain) as number;
}
