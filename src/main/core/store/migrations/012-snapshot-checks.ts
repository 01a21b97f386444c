import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 12: when the service last answered a snapshot's request with the very same body.
 *
 * A refresh whose body is identical to the newest stored snapshot's of the same (wallet,
 * chain, endpoint, day, date asked), but for the request id the service writes into every
 * answer, adds no row: the snapshot stays the one record of that body, and this table keeps
 * the newest request that sent it again and when, so "fetched at" shown beside a figure is the
 * last time the service was asked, not the first (the request id and sha256 shown stay those
 * of the body stored, so they can be checked against it).
 * Snapshots stay immutable; the row goes with its snapshot.
 */
export function updateToSchemaVersion12(db: Database): void {
  db.exec(`
    CREATE TABLE snapshot_checks (
      snapshot_id  INTEGER PRIMARY KEY REFERENCES snapshots (id) ON DELETE CASCADE,
      checked_at   TEXT NOT NULL,
      request_id   TEXT
    ) STRICT;
  `);
}
