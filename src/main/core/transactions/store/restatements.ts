import type { Transaction } from '../../../../shared/service/schemas.ts';
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { hashKeyOf, hashTailOf } from '../../store/hash-key.ts';
import { HASH_LEVELS } from './hash-levels.ts';
import { all, get, run, sql, sqlCode, sqlWhere } from '../../store/sql.ts';
import { storedText, transactionRecord, upsertTransactions } from './transactions.ts';
import { seamNotProved, settleSeam } from './seams.ts';
import type { TransactionChange } from '../../../../shared/model.ts';
export type { TransactionChange } from '../../../../shared/model.ts';

/**
 * Restatements: what a re-read of a window shows differs from the cache (a transaction indexed
 * late, changed by a reorg, or no longer returned), applied and written to the change log
 * (migration 15) in one transaction, so the cache never changes silently and never keeps a ghost.
 */

/** The columns a restatement compares (a reorg moves a transaction, fails it, or changes what it cost or moved). */
export const RESTATED_FIELDS = ['time', 'block', 'status', 'txn_fee', 'gas_fee', 'details'] as const;
export type RestatedField = (typeof RESTATED_FIELDS)[number];

export interface StoredRow {
  id: number;
  txn_hash: string;
  time: number;
  block: number | null;
  status: number | null;
  txn_fee: number | null;
  gas_fee: number | null;
  details: string;
}

/** Cached rows of a wallet on a chain dated in [startS, endS] (Unix seconds, inclusive), by hash. */
export function storedInWindow(db: ReadableDB, wallet: string, chain: string, startS: number, endS: number): Map<string, StoredRow> {
  const rows = all<StoredRow>(
    db,
    sql`SELECT id, txn_hash, time, block, status, txn_fee, gas_fee, details FROM transactions
        WHERE wallet = ${wallet} AND chain = ${chain} AND time BETWEEN ${startS * 1000} AND ${endS * 1000 + 999}`,
  );
  return new Map(rows.map((r) => [r.txn_hash, r]));
}

/** Cached rows of a wallet on a chain by hash (as stored), for hashes a re-read returned. */
export function storedByHash(db: ReadableDB, wallet: string, chain: string, hashes: readonly string[]): Map<string, StoredRow> {
  const out = new Map<string, StoredRow>();
  for (const h of hashes) {
    const row = get<StoredRow>(
      db,
      sql`SELECT id, txn_hash, time, block, status, txn_fee, gas_fee, details FROM transactions
          WHERE wallet = ${wallet} AND chain = ${chain} AND txn_hash = ${storedText(h.toLowerCase())}`,
    );
    if (row) out.set(row.txn_hash, row);
  }
  return out;
}

/** The stored key of a service row (as `transactions.txn_hash`). */
export const storedHash = (t: Transaction): string => storedText(t.txn_hash.toLowerCase());

/** Which compared columns of a stored row differ from the service's row (empty: the same). */
export function changedFields(wallet: string, chain: string, stored: StoredRow, t: Transaction): RestatedField[] {
  const now = transactionRecord(wallet, chain, t);
  return RESTATED_FIELDS.filter((f) => stored[f] !== now[f]);
}

export interface Restatements {
  late: Array<{ row: Transaction; request: string }>;
  changed: Array<{ row: Transaction; before: StoredRow; fields: RestatedField[]; request: string }>;
  removed: Array<{ before: StoredRow; request: string }>;
}

/** The key levels' tables and a row's key and tail, as hash-levels.ts and hash-key.ts write them. */
const LEVELS = HASH_LEVELS.map(sqlCode);
const KEY_OF_T = sqlCode(hashKeyOf('t.txn_hash'));
const TAIL_OF_T = sqlCode(hashTailOf('t.txn_hash'));

const pick = (r: Record<string, unknown>, fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, r[f]]));

/** Applies restatements to the cache and records each in the change log (one transaction). */
export function applyRestatements(db: WritableDB, wallet: string, chain: string, r: Restatements, seenAt = new Date().toISOString()): void {
  if (!r.late.length && !r.changed.length && !r.removed.length) return;
  db.transaction(() => {
    const log = (
      txnHash: string,
      time: number,
      kind: TransactionChange['kind'],
      fields: string | null,
      before: string | null,
      after: string | null,
      request: string,
    ) =>
      run(
        db,
        sql`INSERT INTO transaction_changes (wallet, chain, txn_hash, time, kind, fields, before, after, seen_at, request)
            VALUES (${wallet}, ${chain}, ${txnHash}, ${time}, ${kind}, ${fields}, ${before}, ${after}, ${seenAt}, ${request})`,
      );
    const rows = [...r.late.map((x) => x.row), ...r.changed.map((x) => x.row)];
    // The upsert inserts the late rows and updates the changed ones in place (their id kept).
    if (rows.length) upsertTransactions(db, wallet, chain, rows);
    for (const x of r.late) {
      const rec = transactionRecord(wallet, chain, x.row);
      log(rec.txn_hash, rec.time, 'late', null, null, JSON.stringify(pick(rec, RESTATED_FIELDS)), x.request);
    }
    for (const x of r.changed) {
      const rec = transactionRecord(wallet, chain, x.row);
      log(
        rec.txn_hash,
        rec.time,
        'changed',
        JSON.stringify(x.fields),
        JSON.stringify(pick(x.before as unknown as Record<string, unknown>, x.fields)),
        JSON.stringify(pick(rec, x.fields)),
        x.request,
      );
    }
    for (const x of r.removed) {
      log(
        x.before.txn_hash,
        x.before.time,
        'removed',
        null,
        JSON.stringify(pick(x.before as unknown as Record<string, unknown>, RESTATED_FIELDS)),
        null,
        x.request,
      );
      // Its keys first, found by key (the levels' primary key), while the row still holds its hash.
      for (const level of LEVELS)
        run(db, sql`DELETE FROM ${level} WHERE (key, tail, id) IN (SELECT ${KEY_OF_T}, ${TAIL_OF_T}, t.id FROM transactions t WHERE t.id = ${x.before.id})`);
      run(db, sql`DELETE FROM transactions WHERE id = ${x.before.id}`);
    }
    if (r.removed.length) {
      // As a purge does (wallets.ts): an id freed at the top is given again, so a daily-sum
      // watermark above the largest id left would take the next rows as summed.
      run(db, sql`DELETE FROM transfer_days_state WHERE built_to_id > (SELECT coalesce(max(id), 0) FROM transactions)`);
    }
  })();
}

/** The change log, newest first. */
export function listTransactionChanges(db: ReadableDB, o: { wallet?: string; chain?: string; limit?: number } = {}): TransactionChange[] {
  const wallet = o.wallet ?? null;
  const chain = o.chain ?? null;
  const where = sqlWhere([wallet !== null && sql`wallet = ${wallet}`, chain !== null && sql`chain = ${chain}`]);
  const rows = all<Record<string, string | number | null>>(
    db,
    sql`SELECT * FROM transaction_changes ${where} ORDER BY seen_at DESC, id DESC LIMIT ${o.limit ?? 1000}`,
  );
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : null);
  return rows.map((r) => ({
    wallet: r['wallet'] as string,
    chain: r['chain'] as string,
    txnHash: r['txn_hash'] as string,
    time: r['time'] as number,
    kind: r['kind'] as TransactionChange['kind'],
    fields: json(r['fields']) as RestatedField[] | null,
    before: json(r['before']),
    after: json(r['after']),
    seenAt: r['seen_at'] as string,
    request: r['request'] as string,
  }));
}

/**
 * What a re-read of an owed seam found (one transaction): the rows the cache lacks are added
 * (rows a page shift or an unstable order hid from the read, not restatements), and the seam is
 * settled when the re-read was proved whole, or kept owed saying why not. Returns the rows added.
 */
export function applySeamRead(
  db: WritableDB,
  wallet: string,
  chain: string,
  seam: { lo: number; hi: number },
  rows: readonly Transaction[],
  unproved: string | null,
): number {
  return db.transaction(() => {
    const cached = storedByHash(db, wallet, chain, rows.map(storedHash));
    const missing = rows.filter((t) => !cached.has(storedHash(t)));
    if (missing.length) upsertTransactions(db, wallet, chain, missing);
    if (unproved === null) settleSeam(db, wallet, chain, seam);
    else seamNotProved(db, wallet, chain, seam, unproved);
    return missing.length;
  })();
}
