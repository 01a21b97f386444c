import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 20: page seams owed a re-read (issue 30, "correct over time").
 *
 * Where two pages of a transaction read meet between rows of one second, or where the list was
 * seen to shift between the requests, rows may have been skipped: the client reads that stretch
 * again as a window of its own (transactions/recent.ts). Until that re-read is proved whole, the seam is
 * owed: recorded here with the page that found it (so a crash, a cancel or a failed re-read
 * loses nothing), read again by every sync until it succeeds, and the history around it is shown
 * as not proved complete (`reason` says why; `last_error` what stopped the last try).
 * `lo` and `hi` are the Unix seconds the seam spans, inclusive.
 */
export function updateToSchemaVersion20(db: Database): void {
  db.exec(`
    CREATE TABLE txn_owed_seams (
      wallet      TEXT NOT NULL,
      chain       TEXT NOT NULL,
      lo          INTEGER NOT NULL,
      hi          INTEGER NOT NULL,
      reason      TEXT NOT NULL,
      since       TEXT NOT NULL,
      tries       INTEGER NOT NULL DEFAULT 0,
      last_error  TEXT,
      PRIMARY KEY (wallet, chain, lo, hi)
    ) STRICT, WITHOUT ROWID;
  `);
}
