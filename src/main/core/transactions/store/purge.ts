/**
 * A wallet's history deleted (the wallet removed with its data) and the whole history deleted
 * (the user's "clear cache"): every table of the transactions capability, the key index first
 * while the rows still say whose they are.
 */
import type { WritableDB } from '../../store/handles.ts';
import { run, sql, prepare } from '../../store/sql.ts';
import { deleteAllKeys, deleteKeysOfWallet } from './hash-levels.ts';

export function purgeWalletHistory(db: WritableDB, wallet: string): void {
  deleteKeysOfWallet(db, wallet); // while the rows still say whose they are
  run(db, sql`DELETE FROM transactions WHERE wallet = ${wallet}`);
  run(db, sql`DELETE FROM txn_sync_ranges WHERE wallet = ${wallet}`);
  run(db, sql`DELETE FROM txn_owed_seams WHERE wallet = ${wallet}`);
  run(db, sql`DELETE FROM transaction_symbols WHERE wallet = ${wallet}`);
  run(db, sql`DELETE FROM transaction_write_stamps WHERE wallet = ${wallet}`);
  // What is derived from its rows (migrations 5 and 25) goes with them, not left for a rebuild.
  run(db, sql`DELETE FROM transfer_days WHERE wallet = ${wallet}`);
  run(db, sql`DELETE FROM party_dealings WHERE wallet = ${wallet}`);
  // Ids above the new largest one will be given again (rowids are not AUTOINCREMENT): a
  // daily-sum watermark above it would take those new rows as summed, so it is dropped
  // (rebuilt on next use; see transfer-days.ts).
  run(db, sql`DELETE FROM transfer_days_state WHERE built_to_id > (SELECT coalesce(max(id), 0) FROM transactions)`);
}

/** Deletes every cached transaction and log; the number of transactions deleted. */
export function clearHistory(db: WritableDB): number {
  const transactions = prepare(db, 'DELETE FROM transactions').run().changes;
  deleteAllKeys(db);
  db.exec(
    'DELETE FROM transaction_symbols; DELETE FROM transaction_write_stamps; DELETE FROM txn_sync_ranges; DELETE FROM txn_owed_seams; DELETE FROM txn_logs; DELETE FROM txn_log_sets;',
  );
  // The transfer sums and dealings derived from the transactions (migrations 5 and 25) go with them.
  db.exec('DELETE FROM transfer_days; DELETE FROM transfer_days_state; DELETE FROM party_dealings;');
  return transactions;
}
