/**
 * The history with its notes and categories: what the timeline, the export, the pack, a closed
 * period's hash and the change log show of each transaction's annotation. The tables are the
 * annotations capability's (it writes them); reading them beside the transactions is the
 * ledger's, so the annotations capability never reads the transactions itself.
 */
import type { TxnCategory } from '../../../../shared/model.ts';
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql, sqlJoin, value, prepare } from '../../store/sql.ts';

/** A transaction's key as `transactions` stores it (an annotation's key too). */
export interface TxnKey {
  wallet: string;
  chain: string;
  txnHash: string;
}

/** Whether this transaction is cached (a note may be kept for one that left: orphaned). */
export function isCached(db: ReadableDB, k: TxnKey): boolean {
  return value<number>(db, sql`SELECT EXISTS (SELECT 1 FROM transactions WHERE wallet = ${k.wallet} AND chain = ${k.chain} AND txn_hash = ${k.txnHash})`) === 1;
}

/** Which of these keys are cached, as `${wallet}|${chain}|${txnHash}`: one statement for any number. */
export function cachedKeys(db: ReadableDB, keys: ReadonlyArray<TxnKey>): Set<string> {
  if (!keys.length) return new Set();
  const wanted = JSON.stringify(keys.map((k) => [k.wallet, k.chain, k.txnHash]));
  return new Set(
    all<{ k: string }>(
      db,
      sql`SELECT j.value ->> 0 || '|' || (j.value ->> 1) || '|' || (j.value ->> 2) AS k FROM json_each(${wanted}) j
          WHERE EXISTS (SELECT 1 FROM transactions t WHERE t.wallet = j.value ->> 0 AND t.chain = j.value ->> 1 AND t.txn_hash = j.value ->> 2)`,
    ).map((r) => r.k),
  );
}

/**
 * The category (manual first, else the rule's), its source and the note of each transaction,
 * keyed `${wallet}|${chain}|${txnHash}` (addresses as stored in `transactions`); a key with no
 * annotation is absent. The monthly pack reads this.
 */
export function categoriesOf(
  db: ReadableDB,
  keys: ReadonlyArray<{ wallet: string; chain: string; txnHash: string }>,
): Map<string, { category: string | null; source: 'manual' | 'rule' | null; note: string | null }> {
  const out = new Map<string, { category: string | null; source: 'manual' | 'rule' | null; note: string | null }>();
  const hashes = [...new Set(keys.map((k) => k.txnHash))];
  const wanted = new Set(keys.map((k) => `${k.wallet}|${k.chain}|${k.txnHash}`));
  for (let i = 0; i < hashes.length; i += 500) {
    for (const r of all<{ wallet: string; chain: string; txn_hash: string; note: string | null; manual: string | null; rule: string | null }>(
      db,
      sql`SELECT a.wallet, a.chain, a.txn_hash, a.note, m.name AS manual, r.name AS rule
          FROM txn_annotations a LEFT JOIN categories m ON m.id = a.manual_category LEFT JOIN categories r ON r.id = a.rule_category
          WHERE a.txn_hash IN (${sqlJoin(hashes.slice(i, i + 500))})`,
    )) {
      const key = `${r.wallet}|${r.chain}|${r.txn_hash}`;
      if (!wanted.has(key)) continue;
      out.set(key, { category: r.manual ?? r.rule, source: r.manual ? 'manual' : r.rule ? 'rule' : null, note: r.note });
    }
  }
  return out;
}

/**
 * The category of each categorised transaction of these wallets in [start, end) (Unix ms), as
 * [wallet, chain, hash, category], in key order: what a closed period's flows by category stand
 * on (closes/hash.ts). None in a cache without annotations.
 */
export function windowCategories(db: ReadableDB, wallets: readonly string[], start: number, end: number): Array<[string, string, string, string]> {
  if (!wallets.length || !hasAnnotations(db)) return [];
  const q = sql`SELECT t.wallet, t.chain, t.txn_hash, c.name
    FROM transactions t
    JOIN txn_annotations a ON a.wallet = t.wallet AND a.chain = t.chain AND a.txn_hash = t.txn_hash
    JOIN categories c ON c.id = coalesce(a.manual_category, a.rule_category)
    WHERE t.wallet IN (${sqlJoin(wallets)}) AND t.time >= ${start} AND t.time < ${end}
    ORDER BY t.wallet, t.chain, t.txn_hash`;
  return prepare(db, q.text, 'raw').all(...q.params) as Array<[string, string, string, string]>;
}

/** Whether migration 18 is in this cache (a cache an older version left is read without annotations). */
export function hasAnnotations(db: ReadableDB): boolean {
  return value<number>(db, sql`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'txn_annotations'`) === 1;
}

/** How many transactions have a note or a category. */
export function countAnnotations(db: ReadableDB): number {
  return value<number>(db, sql`SELECT count(*) FROM txn_annotations`) ?? 0;
}

/** Every annotation as [wallet, chain, category, source, note], by transaction hash (the export's lookup). */
export function annotationsByHash(db: ReadableDB): Map<string, Array<[string, string, string | null, 'manual' | 'rule' | null, string | null]>> {
  const out = new Map<string, Array<[string, string, string | null, 'manual' | 'rule' | null, string | null]>>();
  const q = sql`SELECT a.txn_hash, a.wallet, a.chain, c.name,
      CASE WHEN a.manual_category IS NOT NULL THEN 'manual' WHEN a.rule_category IS NOT NULL THEN 'rule' END, a.note
    FROM txn_annotations a LEFT JOIN categories c ON c.id = coalesce(a.manual_category, a.rule_category)`;
  for (const r of prepare(db, q.text, 'raw').all(...q.params) as Array<[string, string, string, string | null, 'manual' | 'rule' | null, string | null]>) {
    const entry: [string, string, string | null, 'manual' | 'rule' | null, string | null] = [r[1], r[2], r[3], r[4], r[5]];
    const list = out.get(r[0]);
    if (list) list.push(entry);
    else out.set(r[0], [entry]);
  }
  return out;
}

/** Each row's category and note, by one query per page (the timeline). */
export function annotationsForRows(db: ReadableDB, rows: ReadonlyArray<TxnKey>): Map<string, { category: TxnCategory | null; note: string | null }> {
  const out = new Map<string, { category: TxnCategory | null; note: string | null }>();
  if (!rows.length || !hasAnnotations(db)) return out;
  const hashes = [...new Set(rows.map((r) => r.txnHash))];
  for (const r of all<{ wallet: string; chain: string; txn_hash: string; note: string | null; name: string | null; colour: string | null; manual: number }>(
    db,
    sql`SELECT a.wallet, a.chain, a.txn_hash, a.note, c.name, c.colour, a.manual_category IS NOT NULL AS manual
        FROM txn_annotations a LEFT JOIN categories c ON c.id = coalesce(a.manual_category, a.rule_category)
        WHERE a.txn_hash IN (${sqlJoin(hashes)})`,
  ))
    out.set(`${r.wallet}|${r.chain}|${r.txn_hash}`, {
      category: r.name === null ? null : { name: r.name, colour: r.colour, source: r.manual ? 'manual' : 'rule' },
      note: r.note,
    });
  return out;
}
