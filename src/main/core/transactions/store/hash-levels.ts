import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { hashKeyOf, hashTailOf, writeHashKey } from '../../store/hash-key.ts';
import { prepare } from '../../store/sql.ts';

/**
 * Where transactions are found by hash (migration 10): two tables of (key, tail, id), the
 * hash's first and last 8 bytes (hash-key.ts) and the row's id. New keys go to the small
 * `hash_keys_recent`; once it holds MERGE_AT keys they are moved to the large `hash_keys` in
 * one pass, in key order, in the transaction that wrote the rows.
 *
 * Why two levels: a hash is random, so each new key lands on a random page of a lookup index,
 * and a commit rewrites every page its batch touched. At 1M cached rows a batch touched nearly
 * every page of the old one-level index, so a commit rewrote more of that index than the rows
 * themselves, and ingest fell further behind a bare INSERT as the cache grew. The small table
 * stays a few hundred pages; the large one is rewritten once per MERGE_AT keys, not once per
 * commit (bench/RESULTS.md: the cause in "Round 4 (issue 16)", the two levels in "Round 5
 * (lead)").
 *
 * Every key is in exactly one level after each write: a lookup reads both. A key whose row
 * is gone (a purge) is harmless: lookups join the row by id and compare its full hash,
 * wallet and chain, so a stale or reused id never matches another transaction. A MISSING key
 * would be harmful (the row would be inserted again): every insert into `transactions` goes
 * through upsertTransactions, which adds its key (test/store/hash-levels.test.ts checks that
 * no other code inserts rows).
 */
export const HASH_LEVELS = ['hash_keys', 'hash_keys_recent'] as const;

/** Keys in the small level that trigger a merge: ~2 MiB, a few hundred pages. */
export const MERGE_AT = 65_536;
/** Inserts on a connection between two counts of the small level (a count reads ~100 pages). */
const CHECK_EVERY = 8_192;

/** The rows of `json_each(p.h)`'s hashes in one level, for p.w and p.c (see FIND_PAGE). */
const findIn = (level: string) => `SELECT j.value AS hash, t.id AS id FROM p CROSS JOIN json_each(p.h) j
  CROSS JOIN ${level} k ON k.key = ${hashKeyOf('j.value')} AND k.tail = ${hashTailOf('j.value')}
  CROSS JOIN transactions t ON t.id = k.id AND t.txn_hash = j.value
  WHERE t.wallet = p.w AND t.chain = p.c`;

/**
 * The rows of a page already cached, by (txn_hash, wallet, chain): parameters: a JSON array of
 * the page's hashes (lower case), the wallet, the chain; answers (hash, id), possibly a row
 * twice. Each hash is sought in each level by its first and last 8 bytes, then the row's full
 * hash, wallet and chain are compared, so two hashes sharing a key are never taken for one
 * transaction. CROSS JOIN fixes the order: whatever the statistics say, never a walk of one
 * whale wallet's rows. One statement a page, not one a row. Exported for the plan test.
 */
export const FIND_PAGE = `WITH p(h, w, c) AS MATERIALIZED (SELECT ?, ?, ?) ${findIn(HASH_LEVELS[0])} UNION ALL ${findIn(HASH_LEVELS[1])}`;

/** The ids whose hash key satisfies `condition` (over `key`), in either level: for the timeline's search. */
export function idsWhereKey(condition: string): string {
  return `SELECT id FROM ${HASH_LEVELS[0]} WHERE ${condition} UNION ALL SELECT id FROM ${HASH_LEVELS[1]} WHERE ${condition}`;
}

interface KeyWriter {
  /** Adds the keys of rows just inserted: their hashes and ids, in one statement a page. */
  add: (hashes: readonly string[], ids: readonly number[]) => void;
  added: number;
}

const writers = new WeakMap<WritableDB, KeyWriter>();

// Hex hashes with their key and tail made here (writeHashKey): 16 bytes each in one blob, cut by
// SQL at each one's offset; their ids as a JSON array. Cheaper a key than the JSON of hashes
// whose keys SQL computes, which any other hash still takes (bench/RESULTS.md, "Round 6 (issue 16)").
const INSERT_MADE_KEYS = `INSERT INTO ${HASH_LEVELS[1]} (key, tail, id) SELECT substr(@keys, j.key * 16 + 1, 8), substr(@keys, j.key * 16 + 9, 8), j.value
  FROM json_each(@ids) j ORDER BY 1, 2`;
const INSERT_KEYS = `INSERT INTO ${HASH_LEVELS[1]} (key, tail, id) SELECT ${hashKeyOf('r.hash')}, ${hashTailOf('r.hash')}, r.id
  FROM (SELECT j.value ->> 0 AS hash, j.value ->> 1 AS id FROM json_each(?) j) r ORDER BY 1, 2`;
const COUNT_SMALL = `SELECT count(*) FROM ${HASH_LEVELS[1]}`;

/**
 * Adds the keys of rows just inserted on `db`; merges the small level into the large one
 * when it is full. Called inside the transaction that inserts the rows (the page's batch),
 * so keys, rows and the merge commit or roll back together. One statement a page (a JSON
 * array of [hash, id]): one a row cost more, binding and all (measured at 1M rows,
 * bench/RESULTS.md, "Round 5 (lead)").
 */
export function keyWriter(db: WritableDB): KeyWriter {
  let w = writers.get(db);
  if (w) return w;
  const writer: KeyWriter = {
    added: 0,
    add(hashes, ids) {
      if (!hashes.length) return;
      const keys = Buffer.allocUnsafe(hashes.length * 16);
      const madeIds: number[] = [];
      const others: Array<[string, number]> = [];
      for (let i = 0; i < hashes.length; i++) {
        if (writeHashKey(hashes[i]!, keys, madeIds.length * 16)) madeIds.push(ids[i]!);
        else others.push([hashes[i]!, ids[i]!]);
      }
      if (madeIds.length) prepare(db, INSERT_MADE_KEYS).run({ keys: keys.subarray(0, madeIds.length * 16), ids: JSON.stringify(madeIds) });
      if (others.length) prepare(db, INSERT_KEYS).run(JSON.stringify(others));
      // Counted per connection, checked in the table: other connections add keys too.
      const before = writer.added;
      writer.added += hashes.length;
      if (Math.floor(writer.added / CHECK_EVERY) > Math.floor(before / CHECK_EVERY) && (prepare(db, COUNT_SMALL, 'pluck').get() as number) >= MERGE_AT)
        mergeKeys(db);
    },
  };
  writers.set(db, (w = writer));
  return w;
}

/**
 * Moves every key of the small level into the large one: read in key order (the small
 * level's primary key), so the large level's pages are each visited once. OR IGNORE: the same
 * (key, tail, id) in both levels (a row whose purged id came back with the same hash, its old
 * key left behind) must not fail this and every later merge.
 */
export function mergeKeys(db: WritableDB): void {
  const merge = () =>
    db.exec(`INSERT OR IGNORE INTO ${HASH_LEVELS[0]} (key, tail, id) SELECT key, tail, id FROM ${HASH_LEVELS[1]}; DELETE FROM ${HASH_LEVELS[1]};`);
  // Both statements in one transaction: the caller's, or one of its own.
  if (db.inTransaction) merge();
  else db.transaction(merge).immediate();
}

/** Drops the keys of a wallet's rows (before the rows are deleted): a purge. */
export function deleteKeysOfWallet(db: WritableDB, wallet: string): void {
  for (const level of HASH_LEVELS) prepare(db, `DELETE FROM ${level} WHERE id IN (SELECT id FROM transactions WHERE wallet = ?)`).run(wallet);
}

/** Drops every key: the cache is cleared. */
export function deleteAllKeys(db: WritableDB): void {
  for (const level of HASH_LEVELS) prepare(db, `DELETE FROM ${level}`).run();
}

/** How many keys each level holds (tests, diagnostics). */
export function keyCounts(db: ReadableDB): { large: number; recent: number } {
  const n = (level: string) => prepare(db, `SELECT count(*) FROM ${level}`, 'pluck').get() as number;
  return { large: n(HASH_LEVELS[0]), recent: n(HASH_LEVELS[1]) };
}
