import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 11: a stamp per (wallet, chain), a random number renewed by every insert of that
 * pair's transactions, in the inserting transaction (upsertTransactions, the one code that
 * inserts them). A connection that stamped a pair last and reads its own stamp back knows
 * that no other connection has inserted rows of that pair since, without reading them: the
 * write worker's filter of new hashes relies on it (hash-filter.ts).
 *
 * Random rather than a counter: a transaction that stamped and was rolled back leaves the
 * stamp as it was before, which can never equal the one the writer remembers from the
 * rolled-back write, so a rollback is never taken for "nothing changed". A schema version of
 * its own, so a build older than this one, which would insert rows without stamping them,
 * refuses the cache (FutureDatabaseError).
 */
export function updateToSchemaVersion11(db: Database): void {
  db.exec(`
    CREATE TABLE transaction_write_stamps (
      wallet  TEXT NOT NULL,
      chain   TEXT NOT NULL,
      stamp   INTEGER NOT NULL,
      PRIMARY KEY (wallet, chain)
    ) STRICT, WITHOUT ROWID;
  `);
}
